package app

import (
	"context"
	"runtime"
	"testing"
)

// The Python-install session both front ends use: a version gpuwiz cannot get is bad input (exit 2,
// nothing planned); on Linux the plan is the distribution's command, which the user runs.
func TestPythonSessionPlans(t *testing.T) {
	env := &Env{G: &Globals{}}
	if _, err := env.PlanPython(context.Background(), PythonRequest{Version: "2.7"}); CodeOf(err, ExitFailure) != ExitUsage {
		t.Fatalf("python 2.7: %v (exit %d), want a usage error", err, CodeOf(err, ExitFailure))
	}
	if runtime.GOOS != "linux" {
		t.Skip("the distribution's plan is Linux's")
	}
	s, err := env.PlanPython(context.Background(), PythonRequest{Version: "3.12"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Plan.Minor != "3.12" || s.Plan.Method != PythonByDistro || s.LogPath == "" {
		t.Fatalf("plan %+v, log %q", s.Plan, s.LogPath)
	}
}
