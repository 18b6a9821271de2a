package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestActivationPerShell(t *testing.T) {
	w := activationFor(`C:\venvs\my 环境`, "windows")
	if !strings.Contains(w.PowerShell, `C:\venvs\my 环境\Scripts\Activate.ps1`) || !strings.Contains(w.Cmd, `Scripts\activate.bat`) || w.Posix != "" {
		t.Fatalf("windows activation %+v", w)
	}
	l := activationFor("/home/me/venvs/torch gpu", "linux")
	if l.Posix != "source '/home/me/venvs/torch gpu/bin/activate'" || l.PowerShell != "" {
		t.Fatalf("linux activation %+v", l)
	}
}

// A conda env is entered with conda activate: the wizard's done screen and its summary show that
// command (it used to be lost between pyenv's hint lines and the screen's fields).
func TestCondaEnvShowsItsActivationCommand(t *testing.T) {
	env := filepath.Join(t.TempDir(), "my conda env")
	if err := os.MkdirAll(filepath.Join(env, "conda-meta"), 0o755); err != nil {
		t.Fatal(err)
	}
	act := activationFor(env, "linux")
	if want := "conda activate '" + env + "'"; act.Conda != want || act.Posix != "" || act.PowerShell != "" || act.Cmd != "" {
		t.Fatalf("conda activation %+v, want Conda %q only", act, want)
	}
	c := testCommon(newFakeBackend(), false)
	cd := cand("torch", "2.7.1", "cu126", "12.6", true)
	s := newDoneScreen(c, choices{venv: env, candidate: &cd, outcome: &Outcome{OK: true, Result: "installed"}})
	s.SetSize(120, 30)
	s.Update(activationMsg{act: act})
	mustContain(t, s.View(), "Activate it", "conda", "conda activate '"+env+"'")
}

func TestRepairPlanListsRemovals(t *testing.T) {
	if got := uninstalled([]string{"py", "-m", "pip", "--no-input", "uninstall", "-y", "paddlepaddle", "paddlepaddle-gpu"}); strings.Join(got, ",") != "paddlepaddle,paddlepaddle-gpu" {
		t.Fatalf("uninstalled %v", got)
	}
}
