package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"gpuwiz/steps/gpu"
)

func runGPUCmd(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	root, _ := NewRoot(Build{Version: "test"})
	var out, errb bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetArgs(args)
	code := reportError(root.Execute(), &errb, t.Context())
	return out.String(), errb.String(), code
}

func TestGPUSimulated(t *testing.T) {
	out, _, code := runGPUCmd(t, "--simulate", "../../testdata/fakenvml/expected.json", "gpu")
	if code != 0 || !strings.HasPrefix(out, "SIMULATED") || !strings.Contains(out, "GPU 1: NVIDIA GeForce GTX 1080") || !strings.Contains(out, "memory not reported") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	out, _, code = runGPUCmd(t, "--simulate", "../../testdata/fakenvml/expected.json", "gpu", "--json")
	r, err := gpu.ParseReport([]byte(out))
	if code != 0 || err != nil || !r.Simulated || len(r.GPUs) != 2 {
		t.Fatalf("exit %d err %v\n%s", code, err, out)
	}
	// --json gives the facts; the live readings only with --readings (the plain output shows them).
	if strings.Contains(out, "power_w") || strings.Contains(out, "utilization_pct") {
		t.Fatalf("gpu --json without --readings has readings:\n%s", out)
	}
	out, _, code = runGPUCmd(t, "--simulate", "../../testdata/fakenvml/expected.json", "gpu", "--json", "--readings")
	if r, err = gpu.ParseReport([]byte(out)); code != 0 || err != nil || r.GPUs[0].PowerW == nil || *r.GPUs[0].PowerW != 212.345 {
		t.Fatalf("gpu --json --readings: exit %d err %v\n%s", code, err, out)
	}
	out, _, _ = runGPUCmd(t, "--simulate", "../../testdata/fakenvml/expected.json", "gpu")
	if !strings.Contains(out, "212.3 W") {
		t.Fatalf("the plain output lost the readings:\n%s", out)
	}
}

func TestGPUWatchSimulatedJSONLines(t *testing.T) {
	out, _, code := runGPUCmd(t, "--simulate", "../../testdata/fakenvml/expected.json", "gpu", "--watch", "--interval", "50ms", "--duration", "220ms", "--json")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) < 3 {
		t.Fatalf("exit %d, %d lines\n%s", code, len(lines), out)
	}
	var s []gpu.Sample
	if err := json.Unmarshal([]byte(lines[0]), &s); err != nil || len(s) != 2 {
		t.Fatalf("%v %s", err, lines[0])
	}
}

func TestGPUBadSimulateFileIsUsage(t *testing.T) {
	_, errOut, code := runGPUCmd(t, "--simulate", "/nonexistent/rig.json", "gpu")
	if code != ExitUsage || !strings.Contains(errOut, "/nonexistent/rig.json") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	_, errOut, code = runGPUCmd(t, "--simulate", "../../testdata/fakenvml/expected.json", "gpu", "--watch", "--interval", "1ms")
	if code != ExitUsage || !strings.Contains(errOut, "too short") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

// On this machine (no driver) the real probe must answer "no NVIDIA driver", exit 0.
func TestGPUNoDriverHere(t *testing.T) {
	out, _, code := runGPUCmd(t, "gpu", "--json")
	r, err := gpu.ParseReport([]byte(out))
	if code != 0 || err != nil {
		t.Fatalf("exit %d err %v\n%s", code, err, out)
	}
	if !r.Available && (r.Backend != "none" || !strings.Contains(r.Message, "No NVIDIA driver") || !strings.Contains(r.Message, "CPU build")) {
		t.Fatalf("%+v", r)
	}
}
