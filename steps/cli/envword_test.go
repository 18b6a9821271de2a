package cli

import (
	"strings"
	"testing"

	"gpuwiz/steps/install"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/verify"
)

// An install into an environment that is no venv (a bundle's embedded Python) says the
// environment keeps its build, or does not, never "this venv"; a venv's summary still says venv.
func TestOutcomeOfABundleSaysEnvironment(t *testing.T) {
	say := func(kind string, ok bool) string {
		o := install.Outcome{Result: install.ResultInstalled, Installed: []string{"torch==2.6.0+cu126"}, ConstraintsFile: "/b/python_embeded/constraints.txt",
			LogPath: "/l.log", EnvKind: kind, Verify: &verify.Report{OK: ok}}
		if ok {
			o.Protected = "/b/python_embeded/pip.conf"
		}
		var b strings.Builder
		printOutcome(&b, o, nil, nil)
		return b.String()
	}
	for _, ok := range []bool{true, false} {
		out := say(pyenv.EnvEmbedded, ok)
		if strings.Contains(strings.ReplaceAll(out, "--venv", ""), "venv") || !strings.Contains(out, "environment") {
			t.Errorf("verified %v: a bundle's summary calls it a venv:\n%s", ok, out)
		}
		if strings.Count(say(pyenv.EnvVenv, ok), " venv ") == 0 {
			t.Errorf("verified %v: a venv's summary no longer says venv:\n%s", ok, say(pyenv.EnvVenv, ok))
		}
	}
}
