package app

import (
	"strings"
	"testing"

	"gpuwiz/steps/doctor"
)

// The repair plan lists the dists an action removes from the action's typed list, not from its
// command: an option's value in the command (pip's --root-user-action ignore) is no dist.
func TestRepairPlanListsRemovals(t *testing.T) {
	a := doctor.Action{Title: "remove paddle", Engine: true, Uninstall: []string{"paddlepaddle", "paddlepaddle-gpu"},
		Argv: []string{"py", "-m", "pip", "--no-input", "uninstall", "--root-user-action", "ignore", "-y", "paddlepaddle", "paddlepaddle-gpu"}}
	p := RepairListing(doctor.Repair{Venv: "/v", Actions: []doctor.Action{a}})
	if got := p.Uninstall; strings.Join(got, ",") != "paddlepaddle,paddlepaddle-gpu" {
		t.Fatalf("uninstalled %v", got)
	}
}
