package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"gpuwiz/matrix"
	"gpuwiz/steps/doctor"
	"gpuwiz/steps/i18n"
)

// orderPlan is a repair that restores, removes through the engine, reinstalls and runs doctor's own
// step, with its actions listed in another order than they run.
func orderPlan() doctor.Repair {
	return doctor.Repair{Venv: "/v", Python: "/v/bin/python", Restore: true,
		Actions: []doctor.Action{
			{Title: "purge pip's cache of CPU torch", Fixes: doctor.CodeCPUBuild, Argv: []string{"/v/bin/python", "-m", "pip", "cache", "remove", "torch"}},
			{Title: "remove torch", Fixes: doctor.CodeCPUBuild, Argv: []string{"/v/bin/python", "-m", "pip", "uninstall", "-y", "torch"}, Engine: true},
			{Title: "put back what the interrupted run changed", Restore: true},
		},
		Reinstall: &matrix.Candidate{Framework: "torch", FrameworkVersion: "2.6.0", Channel: "cu126", IndexURL: "https://download.pytorch.org/whl/cu126"}}
}

// The CLI's plan, doctor --json's steps and ApplyRepair's numbers list one order: the restore, the
// engine's removals, the install, doctor's own steps.
func TestRepairPlanListsTheStepsInTheOrderTheyRun(t *testing.T) {
	i18n.Set(i18n.English)
	p := orderPlan()
	var out bytes.Buffer
	writeRepairPlan(&out, p)
	var numbered []string
	for _, l := range strings.Split(out.String(), "\n") {
		if l = strings.TrimSpace(l); len(l) > 2 && l[1] == '.' {
			numbered = append(numbered, l)
		}
	}
	want := []string{"1. put back", "2. remove torch", "3. ", "4. purge"}
	if len(numbered) != len(want) {
		t.Fatalf("the plan:\n%s", out.String())
	}
	for i, w := range want {
		if !strings.HasPrefix(numbered[i], w) {
			t.Errorf("step %d is %q, want it to start %q\n%s", i+1, numbered[i], w, out.String())
		}
	}
	if !strings.Contains(numbered[2], "2.6.0") {
		t.Errorf("step 3 is not the install: %q", numbered[2])
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var j struct {
		Steps []struct {
			N     int    `json:"n"`
			Title string `json:"title"`
		} `json:"steps"`
		Actions []doctor.Action `json:"actions"`
	}
	if err := json.Unmarshal(b, &j); err != nil || len(j.Steps) != 4 || len(j.Actions) != 3 {
		t.Fatalf("--json: %v %s", err, b)
	}
	stepOf, install := p.StepNumbers()
	for i, s := range j.Steps {
		if s.N != i+1 || !strings.HasPrefix(numbered[i], want[i]) || (i == 2) != (s.N == install) {
			t.Errorf("--json step %d: %+v", i+1, s)
		}
	}
	if stepOf[2] != 1 || stepOf[1] != 2 || install != 3 || stepOf[0] != 4 {
		t.Errorf("ApplyRepair's numbers: %v, install %d", stepOf, install)
	}
}
