package ui

import (
	"strings"
	"testing"

	"gpuwiz/matrix"
	"gpuwiz/steps/app"
	"gpuwiz/steps/doctor"
	"gpuwiz/steps/i18n"
)

// The wizard lists a repair's steps as the CLI and doctor --json do, in the order ApplyRepair runs
// them: the restore, the engine's removals, the install, doctor's own steps (then doctor again).
func TestWizardRepairPlanListsTheStepsInTheOrderTheyRun(t *testing.T) {
	i18n.Set(i18n.English)
	rp := doctor.Repair{Venv: "/v", Python: "/v/bin/python", Restore: true,
		Actions: []doctor.Action{
			{Title: "purge", Argv: []string{"/v/bin/python", "-m", "pip", "cache", "remove", "torch"}},
			{Title: "remove torch", Argv: []string{"/v/bin/python", "-m", "pip", "uninstall", "-y", "torch"}, Engine: true},
			{Title: "put back", Restore: true},
		},
		Reinstall: &matrix.Candidate{Framework: "torch", FrameworkVersion: "2.6.0", Channel: "cu126"}}
	p := app.RepairListing(rp)
	var got []string
	for _, s := range p.Steps {
		got = append(got, s.ID+" "+stepTitle(p, s))
	}
	want := []string{"1 put back", "2 remove torch", "3 ", "4 purge", "0 "}
	if len(got) != len(want) {
		t.Fatalf("steps %q", got)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("step %d: %q, want %q…", i, got[i], want[i])
		}
	}
	for _, st := range rp.Steps() {
		if st.N < 1 || got[st.N-1][:1] != string(rune('0'+st.N)) {
			t.Errorf("doctor's step %d is not the wizard's %d", st.N, st.N)
		}
	}
}
