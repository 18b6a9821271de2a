package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/matrix"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/testkit/pyindex"
)

// rigH200 is a GPU report for --simulate: driver 580 (CUDA 13.0), one cc 9.0 card.
const rigH200 = `{"available": true, "backend": "simulated", "driver_version": "580.95.05", "cuda_max": "13.0",
 "simulated": true, "gpus": [{"index": 0, "name": "NVIDIA H200", "uuid": "GPU-test-0", "memory_total_mib": 143771,
 "memory_used_mib": 0, "compute_capability": "9.0", "processes": []}]}`

// doctor --fix --yes on a venv whose torch is the CPU build while its lock file says cu126: the
// repair runs the install engine against the loopback index the matrix points at, and doctor then
// finds the cu126 build, verified, with the log on disk.
func TestDoctorFixReinstallsThroughTheEngine(t *testing.T) {
	useConfigDir(t)
	ix := cliIndex(t)
	dir := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache")) // the wheel cache and the log
	t.Setenv("HOME", dir)
	t.Setenv("GPUWIZ_VERIFY_MATRIX_N", "8")
	isolatePip(t)

	// A matrix whose torch indexes are the loopback index.
	m := strings.ReplaceAll(string(matrix.EmbeddedTOML()), "https://download.pytorch.org/whl/", ix.URL+"/whl/")
	mfile := filepath.Join(dir, "matrix.toml")
	rig := filepath.Join(dir, "rig.json")
	if err := os.WriteFile(mfile, []byte(m), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rig, []byte(rigH200), 0o644); err != nil {
		t.Fatal(err)
	}

	// The venv: CPU torch 2.6.0 installed from a wheel file, a lock file saying cu126.
	v := pyindex.NewVenv(t, filepath.Join(dir, "my venv"))
	cpu, err := pyindex.BuildWheel(t.TempDir(), "torch", "2.6.0+cpu", pyindex.TorchStub(pyindex.StubSpec{Version: "2.6.0+cpu"}), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if res := runner.New(nil).Run(t.Context(), runner.Cmd{Argv: []string{v.Python(), "-m", "pip", "install", "--no-index", cpu}}, nil); res.Err != nil {
		t.Fatalf("installing the CPU build: %v\n%s", res.Err, res.Tail)
	}
	t.Setenv("PATH", v.BinDir()+string(os.PathListSeparator)+os.Getenv("PATH")) // the venv is active
	lock := "torch==2.6.0+cu126\ntorchvision==0.21.0+cu126\ntorchaudio==2.6.0+cu126\n"
	if err := os.WriteFile(filepath.Join(v.Root, "constraints.txt"), []byte(lock), 0o644); err != nil {
		t.Fatal(err)
	}

	out, stderr, code := runCLI(t, "--matrix", mfile, "--simulate", rig, "doctor", "--venv", v.Root, "--fix", "--yes", "--json")
	var rep struct {
		Report struct {
			Findings []struct{ Code, Severity string } `json:"findings"`
		} `json:"report"`
		Repair struct {
			Reinstall *struct {
				FrameworkVersion string `json:"framework_version"`
				Channel          string `json:"channel"`
			} `json:"reinstall"`
		} `json:"repair"`
		Result struct {
			Failed bool `json:"failed"`
			After  *struct {
				Problems  int `json:"problems"`
				Installed []struct {
					Name, Version string
					LocalLabel    string `json:"local_label"`
				} `json:"installed"`
			} `json:"after"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("exit %d, not JSON: %v\n%s\nstderr: %s", code, err, out, stderr)
	}
	if rep.Repair.Reinstall == nil || rep.Repair.Reinstall.Channel != "cu126" || rep.Repair.Reinstall.FrameworkVersion != "2.6.0" {
		t.Fatalf("repair target %+v; findings %+v", rep.Repair.Reinstall, rep.Report.Findings)
	}
	if rep.Result.Failed || rep.Result.After == nil {
		t.Fatalf("exit %d: repair failed\n%s\nstderr: %s", code, out, stderr)
	}
	var torch string
	for _, d := range rep.Result.After.Installed {
		if d.Name == "torch" {
			torch = d.Version + d.LocalLabel
		}
	}
	if torch != "2.6.0+cu126" || code != 0 || rep.Result.After.Problems != 0 {
		t.Fatalf("after the repair: exit %d, torch %q, %d problems\n%s", code, torch, rep.Result.After.Problems, out)
	}
	if ix.Requests("torch-2.6.0+cu126-py3-none-any.whl") == 0 && ix.TotalRequests() == 0 {
		t.Error("the loopback index served nothing: the reinstall did not go through it")
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "cache", "gpuwiz", "logs", "doctor-fix-*.log"))
	if len(logs) != 1 {
		t.Fatalf("want one doctor-fix log, found %q", logs)
	}
	if b, _ := os.ReadFile(logs[0]); !strings.Contains(string(b), "\n# step stage: ") {
		t.Errorf("the log does not hold the engine's stage step:\n%.2000s", b)
	}
	known := knownVenvs(t)
	if len(known) != 1 || known[0].Known == nil || known[0].Known.Action != "repair" || known[0].Known.Result != "repaired" ||
		known[0].Known.Channel != "cu126" || known[0].Holds.Channel != "cu126" {
		t.Fatalf("gpuwiz venvs after the repair: %+v", known)
	}
}
