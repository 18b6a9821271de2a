package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/matrix"
	"gpuwiz/steps/testkit/pyindex"
	"gpuwiz/steps/testkit/pylayout"
)

// rigOf is a --simulate GPU report: one card, driver 580 (CUDA 13.0).
func rigOf(t *testing.T, name, cc string) string {
	t.Helper()
	rig := filepath.Join(t.TempDir(), "rig.json")
	doc := fmt.Sprintf(`{"available": true, "backend": "simulated", "driver_version": "580.95.05", "cuda_max": "13.0", "simulated": true,
 "gpus": [{"index": 0, "name": %q, "uuid": "GPU-test-0", "memory_total_mib": 12227, "memory_used_mib": 0, "compute_capability": %q, "processes": []}]}`, name, cc)
	if err := os.WriteFile(rig, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return rig
}

// The card's own failure, where it happens: a torch 2.8.0 build without kernels for the card in the
// machine (an RTX 5070 beside the cu126 build; a GTX 1070 beside the cu128 build, which left Pascal
// out) is named by doctor as arch-missing in an embedded Python, a venv without pip and a conda
// env, and doctor --fix installs the same torch version from a channel with kernels for the card.
func TestArchMissingIsFixedInEveryEnvironmentKind(t *testing.T) {
	useConfigDir(t)
	dir := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	t.Setenv("HOME", dir)
	t.Setenv("GPUWIZ_VERIFY_MATRIX_N", "8")
	isolatePip(t)
	archs := map[string][]string{ // as the matrix records them for Linux
		"cu126": {"sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"},
		"cu128": {"sm_70", "sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120"},
		"cu129": {"sm_70", "sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120", "compute_120"},
	}
	channels := map[string][]string{}
	for ch, list := range archs {
		spec := pyindex.StubSpec{Version: "2.8.0+" + ch, CUDA: "12." + ch[3:], CudaAvailable: true, CuDNN: 91002, ArchList: list}
		channels[ch] = pyindex.TorchFamilyOf(t, filepath.Join(dir, ch), spec, "0.23.0", 0)
	}
	ix := pyindex.Serve(t, channels)
	m := strings.ReplaceAll(string(matrix.EmbeddedTOML()), "https://download.pytorch.org/whl/", ix.URL+"/whl/")
	mfile := filepath.Join(dir, "matrix.toml")
	if err := os.WriteFile(mfile, []byte(m), 0o644); err != nil {
		t.Fatal(err)
	}
	h200 := rigOf(t, "NVIDIA H200", "9.0")
	cache := filepath.Join(dir, "wheels")

	embedded := func(t *testing.T) string { root, _ := pylayout.Embedded(t, true); return root }
	noPip := func(t *testing.T) string {
		venv := filepath.Join(t.TempDir(), "uv venv")
		if out, err := exec.Command(pyindex.Python(t), "-m", "venv", "--without-pip", venv).CombinedOutput(); err != nil {
			t.Fatalf("venv --without-pip: %v %s", err, out)
		}
		return venv
	}
	conda := func(t *testing.T) string { root, _ := pylayout.CondaPrefix(t, false); return root }
	for _, c := range []struct {
		name       string
		env        func(*testing.T) string
		card, cc   string
		had        string
		wantNot    string
		wantArchOf string
	}{
		{"embedded RTX 5070 cu126", embedded, "NVIDIA GeForce RTX 5070", "12.0", "cu126", "cu126", "sm_120"},
		{"embedded GTX 1070 cu128", embedded, "NVIDIA GeForce GTX 1070", "6.1", "cu128", "cu128", "sm_60"},
		{"venv without pip RTX 5070 cu126", noPip, "NVIDIA GeForce RTX 5070", "12.0", "cu126", "cu126", "sm_120"},
		{"conda GTX 1070 cu128", conda, "NVIDIA GeForce GTX 1070", "6.1", "cu128", "cu128", "sm_60"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := c.env(t)
			// The build went in on another machine's card (the bundle as shipped).
			out, stderr, code := runCLI(t, "--simulate", h200, "--matrix", mfile, "install", "--framework", "torch", "--framework-version", "2.8.0",
				"--channel", c.had, "--venv", root, "--cache-dir", cache, "--yes", "--json")
			if code != 0 {
				t.Fatalf("install %s: exit %d\n%s\n%s", c.had, code, out, stderr)
			}
			rig := rigOf(t, c.card, c.cc)
			out, stderr, _ = runCLI(t, "--simulate", rig, "--matrix", mfile, "doctor", "--venv", root, "--fix", "--yes", "--json")
			type finding struct{ Code, Severity string }
			var doc struct {
				Report struct{ Findings []finding } `json:"report"`
				Repair struct {
					Reinstall *struct {
						FrameworkVersion string `json:"framework_version"`
						Channel          string `json:"channel"`
					} `json:"reinstall"`
				} `json:"repair"`
				Result struct {
					Failed bool
					After  *struct {
						Findings  []finding
						Installed []struct {
							Name, Version string
							LocalLabel    string `json:"local_label"`
						}
					} `json:"after"`
				} `json:"result"`
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("doctor --fix: %v\n%s\n%s", err, out, stderr)
			}
			named := false
			for _, f := range doc.Report.Findings {
				named = named || f.Code == "arch-missing" && f.Severity == "error"
			}
			if !named {
				t.Fatalf("doctor did not name arch-missing for the %s beside torch %s:\n%s", c.card, c.had, out)
			}
			r := doc.Repair.Reinstall
			if r == nil || r.FrameworkVersion != "2.8.0" || r.Channel == c.wantNot {
				t.Fatalf("repair target %+v: want torch 2.8.0 from another channel than %s\n%s", r, c.wantNot, out)
			}
			if !strings.Contains(strings.Join(archs[r.Channel], " "), c.wantArchOf) {
				t.Fatalf("repair chose %s, whose kernels lack %s", r.Channel, c.wantArchOf)
			}
			if doc.Result.Failed || doc.Result.After == nil {
				t.Fatalf("the repair failed:\n%s\n%s", out, stderr)
			}
			for _, f := range doc.Result.After.Findings {
				if f.Code == "arch-missing" && f.Severity == "error" {
					t.Fatalf("arch-missing after the repair:\n%s", out)
				}
			}
			torch := ""
			for _, d := range doc.Result.After.Installed {
				if d.Name == "torch" {
					torch = d.Version + d.LocalLabel
				}
			}
			if torch != "2.8.0+"+r.Channel {
				t.Fatalf("after the repair torch is %q, want 2.8.0+%s", torch, r.Channel)
			}
		})
	}
}
