package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// runCLI runs the real cobra root with args and maps its error to an exit code as Execute does.
func runCLI(t testing.TB, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	root, _ := NewRoot(Build{Version: "test"})
	var out, errb bytes.Buffer
	code = run(context.Background(), root, args, &out, &errb)
	return out.String(), errb.String(), code
}

func TestChannelsJSONShape(t *testing.T) {
	out, stderr, code := runCLI(t, "channels", "--json", "--os", "windows", "--driver", "472.12", "--cuda-max", "11.4", "--compute-cap", "8.6", "--python", "3.10", "--python-bits", "64")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"framework", "facts", "recommended", "candidates", "notes"} {
		if _, ok := got[k]; !ok {
			t.Errorf("missing key %q", k)
		}
	}
	var sel struct {
		Framework   string
		Facts       map[string]any
		Recommended *struct {
			FrameworkVersion string `json:"framework_version"`
			Channel          string
			CUDA             string
			IndexURL         string `json:"index_url"`
		}
		Candidates []struct {
			FrameworkVersion string `json:"framework_version"`
			Channel          string
			CUDA             *string
			Compatible       *bool
			MinorCompat      *bool `json:"minor_compat"`
			Reasons          []string
		}
		Notes []string
	}
	if err := json.Unmarshal([]byte(out), &sel); err != nil {
		t.Fatal(err)
	}
	r := sel.Recommended
	if sel.Framework != "torch" || r == nil || r.FrameworkVersion != "2.7.1" || r.Channel != "cu118" || r.CUDA != "11.8" || r.IndexURL != "https://download.pytorch.org/whl/cu118" {
		t.Errorf("recommended %+v", r)
	}
	if sel.Facts["driver_version"] != "472.12" || sel.Facts["os"] != "windows" {
		t.Errorf("facts %v", sel.Facts)
	}
	for _, c := range sel.Candidates {
		if c.CUDA == nil || c.Compatible == nil || c.MinorCompat == nil || c.Reasons == nil {
			t.Fatalf("candidate %s %s lacks a field", c.FrameworkVersion, c.Channel)
		}
	}
	if len(sel.Notes) == 0 {
		t.Error("no notes: the driver update note is missing")
	}
}

func TestChannelsHumanTable(t *testing.T) {
	out, _, code := runCLI(t, "channels", "--framework", "paddle", "--os", "windows", "--driver", "566.36", "--cuda-max", "12.7", "--compute-cap", "6.0", "--python", "3.11")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(out, "\n")
	if !strings.HasPrefix(lines[1], "recommended: paddle 3.4.0 (cpu)") {
		t.Errorf("first lines:\n%s", strings.Join(lines[:3], "\n"))
	}
	if !strings.Contains(out, "pip install paddlepaddle==3.4.0 --index-url https://www.paddlepaddle.org.cn/packages/stable/cpu/") {
		t.Error("no install line for the recommendation")
	}
	if !strings.Contains(out, "paddle on Windows needs compute capability 6.1 or newer; this GPU has 6.0") {
		t.Errorf("rejected rows lack their reason:\n%s", out)
	}
	if strings.Contains(out, "\x1b[") {
		t.Error("colour codes in non-terminal output")
	}
}

func TestChannelsExitCodes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--driver", "abc"}, ExitUsage, "--driver"},
		{[]string{"--compute-cap", "99"}, ExitUsage, "--compute-cap"},
		{[]string{"--compute-cap", "9"}, ExitUsage, "--compute-cap"},
		{[]string{"--python", "3"}, ExitUsage, "--python"},
		{[]string{"--os", "mac"}, ExitUsage, "--os"},
		{[]string{"--framework", "jax"}, ExitUsage, "--framework"},
		{[]string{"--cuda-max", "twelve"}, ExitUsage, "--cuda-max"},
		{[]string{"--bogus"}, ExitUsage, "unknown flag"},
		{[]string{"--python", "3.14", "--framework", "paddle"}, ExitIncompatible, ""},
		{[]string{"--python", "3.12", "--python-bits", "32"}, ExitIncompatible, ""},
		{[]string{"--no-gpu", "--python", "3.12"}, ExitOK, ""},
		{[]string{"--matrix", "../../testdata/matrix/unknown-key.toml", "--python", "3.12"}, ExitUsage, "unknown-key.toml:15: unknown key 'pythn_min'"},
	} {
		args := append([]string{"channels", "--os", "linux"}, tc.args...)
		out, stderr, code := runCLI(t, args...)
		if code != tc.code || !strings.Contains(stderr, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d with %q", tc.args, code, stderr, tc.code, tc.msg)
		}
		if tc.code == ExitIncompatible && !strings.Contains(out, "recommended: none") {
			t.Errorf("%v: output must say nothing fits:\n%s", tc.args, out)
		}
	}
}

func TestChannelsJSONNullWhenNothingFits(t *testing.T) {
	out, _, code := runCLI(t, "channels", "--json", "--os", "linux", "--python", "3.12", "--python-bits", "32")
	if code != ExitIncompatible {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(out, `"recommended": null`) || !strings.Contains(out, "32-bit Python") {
		t.Errorf("output:\n%s", out)
	}
}

func TestMatrixFlagReplacesEmbedded(t *testing.T) {
	out, stderr, code := runCLI(t, "--matrix", "../../testdata/matrix/loopback-ok.toml", "channels", "--json", "--os", "linux", "--driver", "560.35.05", "--cuda-max", "12.6", "--compute-cap", "8.6", "--python", "3.12")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, `"index_url": "http://127.0.0.1:8765/simple"`) || strings.Contains(out, "2.11.0") {
		t.Errorf("not the --matrix file's builds:\n%s", out)
	}
}

// channels with --simulate: a bad file is exit 2 (not a silent CPU recommendation), a good one says on
// stderr that the hardware is simulated, marks the facts, and judges for the OS the rig was made on.
func TestChannelsWithASimulatedRig(t *testing.T) {
	if _, stderr, code := runCLI(t, "--simulate", filepath.Join(t.TempDir(), "missing.json"), "channels"); code != ExitUsage || !strings.Contains(stderr, "does not exist") {
		t.Fatalf("missing rig: exit %d, %q", code, stderr)
	}
	rig := "../../testdata/fakenvml/expected.json" // made by gpuwiz.exe under Wine: "os": "windows"
	out, stderr, code := runCLI(t, "--simulate", rig, "channels", "--json", "--python", "3.12")
	if code != 0 || !strings.Contains(stderr, "SIMULATED hardware") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var sel struct {
		Facts struct {
			OS        string   `json:"os"`
			Driver    string   `json:"driver_version"`
			Caps      []string `json:"compute_caps"`
			Simulated bool     `json:"simulated"`
		} `json:"facts"`
		Notes []string `json:"notes"`
	}
	if err := json.Unmarshal([]byte(out), &sel); err != nil {
		t.Fatal(err)
	}
	if sel.Facts.OS != "windows" || sel.Facts.Driver != "566.36" || strings.Join(sel.Facts.Caps, ",") != "8.9,6.1" || !sel.Facts.Simulated {
		t.Errorf("facts %+v", sel.Facts)
	}
	if !strings.Contains(strings.Join(sel.Notes, "\n"), "OS windows, from the simulated report") {
		t.Errorf("notes %q", sel.Notes)
	}
	out, _, _ = runCLI(t, "--simulate", rig, "channels", "--json", "--python", "3.12", "--os", "linux")
	if !strings.Contains(out, `"os": "linux"`) {
		t.Errorf("--os linux did not override the rig's OS")
	}
}

func TestChannelsSaysWhenAGivenFactIsNotUsed(t *testing.T) {
	for _, tc := range []struct {
		args []string
		note string
	}{
		{[]string{"--no-gpu", "--compute-cap", "6.1"}, "--no-gpu: the --compute-cap values are not used"},
		{[]string{"--compute-cap", "8.6"}, "a compute capability was given but no driver"},
	} {
		out, stderr, code := runCLI(t, append([]string{"channels", "--os", "linux", "--python", "3.12"}, tc.args...)...)
		if code != 0 || !strings.Contains(out, tc.note) {
			t.Errorf("%v: exit %d, %s\n%s; want note %q", tc.args, code, stderr, out, tc.note)
		}
	}
	if _, stderr, code := runCLI(t, "channels", "--framework-version", "9.9"); code != ExitUsage || !strings.Contains(stderr, "it knows 2.4.1") {
		t.Errorf("unknown version: exit %d, %q", code, stderr)
	}
}

// A text several rows share (a release's note, one driver reason) is printed once as a numbered
// footnote and the rows carry its number; --json keeps every row's note and reasons in full.
func TestChannelsPrintsSharedTextsOnceGolden(t *testing.T) {
	args := []string{"--matrix", "../../testdata/matrix/shared-notes.toml", "--simulate", "../../ui/testdata/e2e/rig-rtx3060.json",
		"channels", "--python", "3.12", "--python-bits", "64"}
	out, stderr, code := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, shared := range []string{
		"torchaudio stays at 2.10.0: it is no longer released with every torch",
		"driver 560.94 supports CUDA 12.6; cu130 needs driver ≥ 580 on Linux",
		"the last release with CUDA 12.6 wheels for Windows",
	} {
		if n := strings.Count(out, shared); n != 1 {
			t.Errorf("%q printed %d times, want once:\n%s", shared, n, out)
		}
	}
	for _, row := range []string{`(?m)^\s+2\.10\.0\s+cu130\s+13\.0\s+no\s+\[3\]$`, `(?m)^\s+2\.9\.1\s+cu130\s+13\.0\s+no\s+\[3\]$`,
		`(?m)^\[3\] driver 560\.94 supports CUDA 12\.6; cu130 needs driver ≥ 580 on Linux$`,
		`(?m)2\.10\.0\s+cu126\s+12\.6\s+ok, unverified\s+the Windows kernel list is read from the build scripts \[2\]$`} {
		if !regexp.MustCompile(row).MatchString(out) {
			t.Errorf("no line matching %s:\n%s", row, out)
		}
	}
	if !strings.Contains(out, "unverified: what gpuwiz knows of that build was read from release notes and build scripts") {
		t.Errorf("the table has unverified rows but does not say what that means:\n%s", out)
	}
	golden.RequireEqual(t, []byte(out))

	js, _, _ := runCLI(t, append(args, "--json")...)
	var sel struct {
		Candidates []struct {
			FrameworkVersion string `json:"framework_version"`
			Channel          string
			Note             string
			Reasons          []string
		}
	}
	if err := json.Unmarshal([]byte(js), &sel); err != nil {
		t.Fatal(err)
	}
	full := 0
	for _, c := range sel.Candidates {
		switch {
		case c.Channel == "cu130" && strings.Join(c.Reasons, "|") == "driver 560.94 supports CUDA 12.6; cu130 needs driver ≥ 580 on Linux":
			full++
		case c.FrameworkVersion == "2.10.0" && c.Channel == "cu126" && c.Note == "torchaudio stays at 2.10.0: it is no longer released with every torch; the Windows kernel list is read from the build scripts":
			full++
		case c.FrameworkVersion == "2.10.0" && c.Channel == "cpu" && c.Note == "torchaudio stays at 2.10.0: it is no longer released with every torch":
			full++
		}
		if strings.Contains(c.Note, "[") || strings.Contains(strings.Join(c.Reasons, ""), "[") {
			t.Errorf("--json carries a footnote mark: %+v", c)
		}
	}
	if full != 4 {
		t.Errorf("--json: %d rows with their notes and reasons in full, want 4:\n%s", full, js)
	}
}

// A --simulate report written by a newer gpuwiz (fields this one does not know) is read with one
// warning naming them; a wrong type or a missing required field is still exit 2, naming the file.
func TestSimulateIgnoresUnknownFieldsWithOneWarning(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	newer := write("newer.json", `{"available":true,"driver_version":"560.94","cuda_max":"12.6","report_version":3,
		"gpus":[{"index":0,"name":"NVIDIA GeForce RTX 3060","compute_capability":"8.6","fan_speed_pct":40}]}`)
	out, stderr, code := runCLI(t, "--simulate", newer, "channels", "--os", "linux", "--python", "3.12")
	if code != 0 || !strings.Contains(out, "recommended: torch") {
		t.Fatalf("exit %d, stderr %q\n%s", code, stderr, out)
	}
	want := `gpuwiz: warning: --simulate ` + newer + `: ignoring fields this gpuwiz does not know (a newer gpuwiz may have written it): "gpus[0].fan_speed_pct", "report_version"`
	if strings.Count(stderr, "ignoring field") != 1 || !strings.Contains(stderr, want) {
		t.Errorf("stderr %q, want once %q", stderr, want)
	}
	for _, tc := range []struct{ body, msg string }{
		{`{"available":"yes","gpus":[]}`, "cannot unmarshal string"},
		{`{"available":true,"driver_version":"560.94"}`, `field "gpus" is missing`},
		{`{"available":true,"driver_version":"560.94","gpus":[{"name":"x","memory_total_mib":"12 GB"}]}`, "memory_total_mib"},
	} {
		p := write("bad.json", tc.body)
		_, stderr, code := runCLI(t, "--simulate", p, "channels", "--os", "linux", "--python", "3.12")
		if code != ExitUsage || !strings.Contains(stderr, p) || !strings.Contains(stderr, tc.msg) {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 naming the file and %q", tc.body, code, stderr, tc.msg)
		}
	}
}

// A Windows machine whose RTX 3060 has no driver yet (the PnP list names it by PCI id): channels
// names the card, recommends the CPU build for now, and names the build and driver a driver unlocks.
func TestChannelsForACardWithoutADriver(t *testing.T) {
	rig := filepath.Join(t.TempDir(), "nodriver.json")
	report := `{"available": false, "backend": "none", "os": "windows", "message": "no driver", "gpus": [],
	  "adapters": [{"vendor_id": 4318, "device_id": 9476, "description": "Microsoft Basic Display Adapter",
	    "name": "GeForce RTX 3060 Lite Hash Rate", "chip": "GA106", "architecture": "Ampere", "compute_capability": "8.6"}]}`
	if err := os.WriteFile(rig, []byte(report), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := runCLI(t, "--simulate", rig, "channels", "--json", "--python", "3.12")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var sel struct {
		Recommended  struct{ Channel string }  `json:"recommended"`
		WithDriver   *struct{ Channel string } `json:"with_driver"`
		DriverNeeded string                    `json:"driver_needed"`
		Notes        []string                  `json:"notes"`
		Facts        struct {
			ComputeCaps   []string `json:"compute_caps"`
			DriverMissing bool     `json:"driver_missing"`
		} `json:"facts"`
	}
	if err := json.Unmarshal([]byte(out), &sel); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	notes := strings.Join(sel.Notes, "\n")
	if sel.Recommended.Channel != "cpu" || sel.WithDriver == nil || sel.DriverNeeded == "" || !sel.Facts.DriverMissing || len(sel.Facts.ComputeCaps) != 1 ||
		!strings.Contains(notes, "NVIDIA GeForce RTX 3060 Lite Hash Rate (Ampere, compute capability 8.6; PCI 10DE:2504)") ||
		!strings.Contains(notes, "With driver "+sel.DriverNeeded+" or newer for Windows") {
		t.Fatalf("%+v\n%s", sel, notes)
	}
	text, _, _ := runCLI(t, "--simulate", rig, "channels", "--python", "3.12")
	if !strings.Contains(text, "needs driver "+sel.DriverNeeded) || !strings.Contains(text, "https://www.nvidia.com/Download/index.aspx") {
		t.Errorf("the table does not show what the driver unlocks:\n%s", text)
	}
}
