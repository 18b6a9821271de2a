package doctor

import (
	"context"
	"strings"

	"gpuwiz/steps/install"
	"gpuwiz/steps/pipcmd"
	"gpuwiz/steps/runner"
)

// capture runs c and returns its stdout; lines are drained while the child runs so none are dropped.
func capture(ctx context.Context, r runner.Runner, c runner.Cmd) (string, runner.Result) {
	lines := make(chan runner.Line, 256)
	done := make(chan string)
	go func() {
		var b strings.Builder
		for l := range lines {
			if l.Stream == "stdout" {
				b.WriteString(l.Text)
				b.WriteByte('\n')
			}
		}
		done <- b.String()
	}()
	res := r.Run(ctx, c, lines)
	close(lines)
	return <-done, res
}

// pipArgv runs pip as a module of python, so it is that Python's pip whatever PATH says.
func pipArgv(python string, args ...string) []string {
	return append([]string{python, "-m", "pip", "--disable-pip-version-check", "--no-input"}, args...)
}

// probePipArgv is pipArgv for a probe that reads the environment: run by the environment's own pip
// when it has one, else by gpuwiz's own pip against its interpreter (pipcmd.For), so an environment
// without pip is still read.
func probePipArgv(ctx context.Context, r runner.Runner, python string, env []string, args ...string) []string {
	p, err := pipcmd.For(ctx, r, python, env, install.UnpackedDir(install.DefaultCacheDir()))
	if err != nil {
		return pipArgv(python, args...)
	}
	return p.Argv(append([]string{"--disable-pip-version-check", "--no-input"}, args...)...)
}
