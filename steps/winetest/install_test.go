package winetest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// rigRTX3060 is a GPU report for --simulate: install's choice must not depend on Wine having no driver.
const rigRTX3060 = `{"available": true, "backend": "simulated", "driver_version": "560.94", "cuda_max": "12.6",
 "message": "simulated RTX 3060 rig", "simulated": true,
 "gpus": [{"index": 0, "name": "NVIDIA GeForce RTX 3060", "uuid": "GPU-wine-0", "memory_total_mib": 12288,
           "memory_used_mib": 512, "compute_capability": "8.6", "processes": []}]}`

func (w *wineMachine) rig(t *testing.T) string {
	t.Helper()
	p := filepath.Join(w.dir, "rig-rtx3060.json")
	if err := os.WriteFile(p, []byte(rigRTX3060), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestInstallDryRunWindowsLayoutUnderWine plans an install into a venv whose path holds a space and
// Chinese characters: the plan must use the Windows layout and pass the path as one argv element.
func TestInstallDryRunWindowsLayoutUnderWine(t *testing.T) {
	w := windows(t)
	// cobra answers an unknown command's --help with the root's help, so look for install's own usage line.
	if r := w.gpuwiz(t, nil, "install", "--help"); !strings.Contains(r.stdout, "gpuwiz install") {
		t.Fatalf("gpuwiz.exe install --help shows no install command:\n%s\n%s", r.stdout, r.stderr)
	}
	w.installStandin(t, `Python312\python.exe`, `{"version": "3.12.4", "bits": 64}`)
	if err := os.MkdirAll(w.driveC("venvs"), 0o755); err != nil {
		t.Fatal(err)
	}
	venv := `C:\venvs\my 环境`
	r := w.gpuwiz(t, nil, "--simulate", w.rig(t), "install", "--dry-run", "--json",
		"--framework", "torch", "--channel", "cu126", "--venv", venv, "--python", `C:\Python312\python.exe`)
	if r.code != 0 {
		t.Fatalf("install --dry-run exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	var plan struct {
		Venv     string     `json:"venv"`
		Commands [][]string `json:"commands"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &plan); err != nil {
		t.Fatalf("not a plan: %v\n%s", err, r.stdout)
	}
	if plan.Venv != venv {
		t.Errorf("venv %q, want %q", plan.Venv, venv)
	}
	venvPython := venv + `\Scripts\python.exe`
	var createsVenv, usesVenvPython bool
	for _, argv := range plan.Commands {
		for _, a := range argv {
			if strings.Contains(a, `/bin/python`) || strings.Contains(a, venv+`\bin`) {
				t.Errorf("Unix layout in %q", argv)
			}
		}
		if len(argv) > 0 && strings.EqualFold(argv[0], venvPython) {
			usesVenvPython = true
		}
		if len(argv) >= 4 && argv[1] == "-m" && argv[2] == "venv" && argv[len(argv)-1] == venv {
			createsVenv = true // the path is one element, space and all
		}
	}
	if !createsVenv || !usesVenvPython {
		t.Errorf("commands create the venv with the path as one argument: %v; run pip through %s: %v\n%q", createsVenv, venvPython, usesVenvPython, plan.Commands)
	}
	for _, hint := range []string{`Scripts\Activate.ps1`, `Scripts\activate.bat`, "PowerShell", "cmd"} {
		if !strings.Contains(r.stdout, hint) && !strings.Contains(r.stdout, strings.ReplaceAll(hint, `\`, `\\`)) {
			t.Errorf("no activation hint %q in the plan:\n%s", hint, r.stdout)
		}
	}
}

// TestLongPathWarningFollowsTheBuildUnderWine: the plan warns exactly when LongPathsEnabled (read
// from Wine's registry) is off and the chosen build's deepest file would not fit below the venv:
// torch 2.13 (about 192 characters below the root, pytorch/TensorRT#4288) under an 80-character
// root warns; the same root with long paths on, a short root, or torch 2.8 does not.
func TestLongPathWarningFollowsTheBuildUnderWine(t *testing.T) {
	w := windows(t)
	w.installStandin(t, `Python312\python.exe`, `{"version": "3.12.4", "bits": 64}`)
	if err := os.MkdirAll(w.driveC("venvs"), 0o755); err != nil {
		t.Fatal(err)
	}
	long := `C:\venvs\` + strings.Repeat("a", 80-len(`C:\venvs\`))
	plan := func(version, venv string) []string {
		t.Helper()
		r := w.gpuwiz(t, nil, "--simulate", w.rig(t), "install", "--dry-run", "--json", "--framework", "torch",
			"--framework-version", version, "--channel", "cu126", "--venv", venv, "--python", `C:\Python312\python.exe`)
		var p struct {
			Plan struct {
				Warnings []string `json:"warnings"`
			} `json:"plan"`
			Warnings []string `json:"warnings"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &p); err != nil || r.code != 0 {
			t.Fatalf("install --dry-run %s exit %d: %v\n%s\n%s", version, r.code, err, r.stdout, r.stderr)
		}
		return append(p.Plan.Warnings, p.Warnings...)
	}
	has := func(ws []string) bool {
		for _, s := range ws {
			if strings.Contains(s, "[WinError 206]") {
				return true
			}
		}
		return false
	}
	w.regAdd(t, fileSystemKey, "LongPathsEnabled", "REG_DWORD", "0")
	ws := plan("2.13", long)
	if !has(ws) || !strings.Contains(strings.Join(ws, "\n"), "LongPathsEnabled -Value 1") || !strings.Contains(strings.Join(ws, "\n"), long) {
		t.Errorf("torch 2.13 under an 80-character root with long paths off: %q", ws)
	}
	if ws := plan("2.13", `C:\venvs\gpu`); has(ws) {
		t.Errorf("a short root warned: %q", ws)
	}
	if ws := plan("2.8", long); has(ws) {
		t.Errorf("torch 2.8 warned: %q", ws)
	}
	w.regAdd(t, fileSystemKey, "LongPathsEnabled", "REG_DWORD", "1")
	if ws := plan("2.13", long); has(ws) {
		t.Errorf("long paths on, yet warned: %q", ws)
	}
}
