package cli

import (
	"strings"
	"testing"

	"gpuwiz/steps/bench"
	"gpuwiz/steps/testkit/pyindex"
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

// The device line gives free memory as cudaMemGetInfo measured it, or says it is unknown when the
// script could only plan on a share of the card (Paddle 2.x).
func TestBenchDeviceLineSaysWhenFreeMemoryIsAGuess(t *testing.T) {
	d := bench.Device{Framework: "paddle", Version: "2.6.2", CUDA: "12.0", Name: "NVIDIA H200", Capability: "9.0",
		TotalMiB: 143771, FreeMiB: 129393, TF32: true}
	var b strings.Builder
	printBenchEvent(&b, d)
	if want := "paddle 2.6.2 (CUDA 12.0) on GPU 0: NVIDIA H200, compute capability 9.0, 129393 of 143771 MiB free, TF32 on\n"; b.String() != want {
		t.Errorf("measured:\n got %q\nwant %q", b.String(), want)
	}
	d.FreeGuess = true
	b.Reset()
	printBenchEvent(&b, d)
	if want := "paddle 2.6.2 (CUDA 12.0) on GPU 0: NVIDIA H200, compute capability 9.0, 143771 MiB, free memory unknown (planning on 129393), TF32 on\n"; b.String() != want {
		t.Errorf("estimated:\n got %q\nwant %q", b.String(), want)
	}
}
