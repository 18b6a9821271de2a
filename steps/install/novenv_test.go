package install

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/testkit/pylayout"
)

// A new venv from a Python without ensurepip (Debian or Ubuntu without python3.X-venv; here a real
// interpreter laid out without it) is refused before the plan, naming what is missing, and nothing is made.
func TestPythonWithoutEnsurepipIsRefusedBeforeThePlan(t *testing.T) {
	ix := serve(t)
	root := filepath.Join(t.TempDir(), "new venv")
	o := options(t, pyenv.Venv{Root: root}, torchTarget(ix, "cu126"), t.TempDir())
	o.Python = pylayout.Without(t, "ensurepip")
	_, err := Prepare(context.Background(), runner.New(nil), o)
	if err == nil || !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "cannot create a venv: its ensurepip module is missing") {
		t.Fatalf("want a bad-input error naming ensurepip, got %v", err)
	}
	if pyenv.ReadDistro().Manager() == "apt" && !strings.Contains(err.Error(), "python3.") {
		t.Errorf("on this Debian-like machine the error should name the python3.X-venv package: %v", err)
	}
	if _, err := os.Stat(root); !os.IsNotExist(err) {
		t.Fatalf("the venv folder was made: %v", err)
	}
}
