package cli

import (
	"strings"
	"testing"

	"gpuwiz/steps/pyindex"
)

// --gpu is checked against the probe's cards: a two-card rig refuses --gpu 2 with the cards named
// (exit 2, nothing run) and takes --gpu 1 (which then fails for want of a framework, exit 1).
func TestBenchGPUIndexIsCheckedAgainstTheCards(t *testing.T) {
	rig := "../../testdata/fakenvml/expected.json"
	_, stderr, code := runCLI(t, "--simulate", rig, "bench", "--python", pyindex.Python(t), "--gpu", "2")
	if code != ExitUsage || !strings.Contains(stderr, "0 (NVIDIA GeForce RTX 4090), 1 (NVIDIA GeForce GTX 1080)") {
		t.Fatalf("--gpu 2: exit %d, stderr %q", code, stderr)
	}
	_, stderr, code = runCLI(t, "--simulate", rig, "bench", "--python", pyindex.Python(t), "--gpu", "1")
	if code != ExitFailure || !strings.Contains(stderr, "could not benchmark") {
		t.Fatalf("--gpu 1: exit %d, stderr %q", code, stderr)
	}
}
