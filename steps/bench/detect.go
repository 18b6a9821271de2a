package bench

import (
	"context"
	"errors"
	"strings"
	"time"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/runner"
)

// detectScript finds installed frameworks without importing them (a torch import takes seconds).
//
//i18n:raw a Python snippet
const detectScript = "import importlib.util as u\nprint('gpuwiz-frameworks:' + ','.join(n for n in ('torch', 'paddle') if u.find_spec(n)))"

// DetectFramework returns the framework installed in python's environment: torch when both are.
func DetectFramework(ctx context.Context, r runner.Runner, python string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	lines := make(chan runner.Line, 64)
	res := r.Run(ctx, runner.Cmd{Argv: []string{python, "-c", detectScript}, Name: i18n.T("bench.label_detect")}, lines)
	close(lines)
	if res.Err != nil {
		return "", errors.New(i18n.T("bench.detect.cannot_run", i18n.D{"Python": python, "Err": res.Err, "Tail": strings.Join(res.Tail, " | ")}))
	}
	for l := range lines {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l.Text), "gpuwiz-frameworks:"); ok {
			if rest == "" {
				return "", errors.New(i18n.T("bench.detect.none", i18n.D{"Python": python}))
			}
			return strings.Split(rest, ",")[0], nil
		}
	}
	return "", errors.New(i18n.T("bench.detect.no_answer", i18n.D{"Python": python}))
}
