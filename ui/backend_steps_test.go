package ui

import (
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

func TestRepairPlanListsRemovals(t *testing.T) {
	if got := uninstalled([]string{"py", "-m", "pip", "--no-input", "uninstall", "-y", "paddlepaddle", "paddlepaddle-gpu"}); strings.Join(got, ",") != "paddlepaddle,paddlepaddle-gpu" {
		t.Fatalf("uninstalled %v", got)
	}
}
