package app

import (
	"strings"
	"testing"
)

func TestRepairPlanListsRemovals(t *testing.T) {
	if got := uninstalled([]string{"py", "-m", "pip", "--no-input", "uninstall", "-y", "paddlepaddle", "paddlepaddle-gpu"}); strings.Join(got, ",") != "paddlepaddle,paddlepaddle-gpu" {
		t.Fatalf("uninstalled %v", got)
	}
}
