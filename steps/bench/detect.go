package bench

import (
	"context"
	"fmt"
	"strings"
	"time"

	"gpuwiz/steps/runner"
)

// detectScript finds installed frameworks without importing them (a torch import takes seconds).
const detectScript = "import importlib.util as u\nprint('gpuwiz-frameworks:' + ','.join(n for n in ('torch', 'paddle') if u.find_spec(n)))"

// DetectFramework returns the framework installed in python's environment: torch when both are.
func DetectFramework(ctx context.Context, r runner.Runner, python string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	lines := make(chan runner.Line, 64)
	res := r.Run(ctx, runner.Cmd{Argv: []string{python, "-c", detectScript}, Name: "detect framework"}, lines)
	close(lines)
	if res.Err != nil {
		return "", fmt.Errorf("%s could not be run: %v %s", python, res.Err, strings.Join(res.Tail, " | "))
	}
	for l := range lines {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l.Text), "gpuwiz-frameworks:"); ok {
			if rest == "" {
				return "", fmt.Errorf("neither torch nor paddle is installed for %s; install one (gpuwiz install) or pass --python of the venv that has it", python)
			}
			return strings.Split(rest, ",")[0], nil
		}
	}
	return "", fmt.Errorf("%s gave no answer when asked which frameworks are installed", python)
}
