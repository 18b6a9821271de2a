package app

import (
	"context"
	"path/filepath"
	"testing"

	"gpuwiz/steps/doctor"
	"gpuwiz/steps/install"
)

// A repair's reinstall goes by the run's one set of proxy rules for the environment's Python (the
// ones the install, the index check and the source probe take), not rules it builds again.
func TestRepairTakesTheRunsProxyRules(t *testing.T) {
	e := &Env{G: &Globals{SimulateFile: filepath.Join("..", "..", "ui", "testdata", "e2e", "rig-rtx3060.json")}}
	venv := t.TempDir()
	s, err := e.PlanRepair(context.Background(), &Diagnosis{Report: doctor.Report{Venv: venv}}, install.ReinstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s.src.Net == nil || s.src.Net != e.Net(venv) {
		t.Fatalf("the repair's reinstall has its own proxy rules (%p), not the run's (%p)", s.src.Net, e.Net(venv))
	}
}
