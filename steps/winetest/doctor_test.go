package winetest

import (
	"encoding/json"
	"strings"
	"testing"

	"gpuwiz/steps/dllver/dllvertest"
)

const (
	fileSystemKey = `HKLM\SYSTEM\CurrentControlSet\Control\FileSystem`
	vcRuntimeKey  = `HKLM\SOFTWARE\Microsoft\VisualStudio\14.0\VC\Runtimes\x64`
	vcRuntime32   = `HKLM\SOFTWARE\WOW6432Node\Microsoft\VisualStudio\14.0\VC\Runtimes\x64`
)

type doctorJSON struct {
	Findings []struct {
		Code     string   `json:"code"`
		Severity string   `json:"severity"`
		Evidence []string `json:"evidence"`
	} `json:"findings"`
	Problems int    `json:"problems"`
	GOOS     string `json:"goos"`
	Checked  []string
	Python   struct {
		Version string `json:"version"`
		Kind    string `json:"kind"`
		Error   string `json:"error"`
	} `json:"python"`
}

// finding returns the finding with code, or ok=false.
func (d doctorJSON) finding(code string) (severity, evidence string, ok bool) {
	for _, f := range d.Findings {
		if f.Code == code {
			return f.Severity, strings.Join(f.Evidence, "\n"), true
		}
	}
	return "", "", false
}

func (w *wineMachine) doctor(t *testing.T, python string) (doctorJSON, result) {
	t.Helper()
	r := w.gpuwiz(t, nil, "doctor", "--python", python, "--json")
	var d doctorJSON
	if err := json.Unmarshal([]byte(r.stdout), &d); err != nil {
		t.Fatalf("doctor --json exit %d printed no report: %v\nstdout:\n%s\nstderr:\n%s", r.code, err, r.stdout, r.stderr)
	}
	if d.GOOS != "windows" || !strings.Contains(strings.Join(d.Checked, "\n"), "registry") {
		t.Fatalf("doctor did not run as Windows with registry checks: goos %q, checked %q", d.GOOS, d.Checked)
	}
	return d, r
}

// TestDoctorRegistryChecksUnderWine sets each case up in Wine's real registry with reg.exe and
// checks that gpuwiz.exe doctor reads it through x/sys/windows/registry (64-bit view).
func TestDoctorRegistryChecksUnderWine(t *testing.T) {
	w := windows(t)
	python := `C:\Python312\python.exe`
	w.installStandin(t, `Python312\python.exe`, `{"version": "3.12.4", "bits": 64}`)
	w.regDelete(t, vcRuntime32, "")

	t.Run("LongPathsEnabled=0 and no VC++ runtime key", func(t *testing.T) {
		w.regAdd(t, fileSystemKey, "LongPathsEnabled", "REG_DWORD", "0")
		w.regDelete(t, vcRuntimeKey, "")
		d, r := w.doctor(t, python)
		if r.code != 5 {
			t.Errorf("exit %d with problems, want 5", r.code)
		}
		if d.Python.Kind != "python.org" || d.Python.Version != "3.12.4" || d.Python.Error != "" {
			t.Errorf("the stand-in Python was not inspected: %+v", d.Python)
		}
		if sev, ev, ok := d.finding("long-paths-disabled"); !ok || sev != "warning" || !strings.Contains(ev, "LongPathsEnabled = 0") {
			t.Errorf("long-paths-disabled: ok=%v severity=%q evidence=%q", ok, sev, ev)
		}
		if sev, ev, ok := d.finding("vc-runtime-missing"); !ok || sev != "error" || !strings.Contains(ev, `VC\Runtimes\x64 is missing`) {
			t.Errorf("vc-runtime-missing: ok=%v severity=%q evidence=%q", ok, sev, ev)
		}
	})

	t.Run("LongPathsEnabled=1 and VC++ 14.40 installed", func(t *testing.T) {
		w.regAdd(t, fileSystemKey, "LongPathsEnabled", "REG_DWORD", "1")
		w.regAdd(t, vcRuntimeKey, "Installed", "REG_DWORD", "1")
		w.regAdd(t, vcRuntimeKey, "Version", "REG_SZ", "v14.40.33810.00")
		d, _ := w.doctor(t, python)
		for _, code := range []string{"long-paths-disabled", "vc-runtime-missing"} {
			if _, ev, ok := d.finding(code); ok {
				t.Errorf("%s still reported: %s", code, ev)
			}
		}
	})

	t.Run("LongPathsEnabled unset and an old VC++ runtime", func(t *testing.T) {
		w.regDelete(t, fileSystemKey, "LongPathsEnabled")
		w.regAdd(t, vcRuntimeKey, "Version", "REG_SZ", "v14.16.27033.00")
		d, _ := w.doctor(t, python)
		if _, ev, ok := d.finding("long-paths-disabled"); !ok || !strings.Contains(ev, "is not set") {
			t.Errorf("long-paths-disabled with the value missing: ok=%v evidence=%q", ok, ev)
		}
		if sev, ev, ok := d.finding("vc-runtime-old"); !ok || sev != "warning" || !strings.Contains(ev, "v14.16.27033.00") {
			t.Errorf("old runtime: ok=%v severity=%q evidence=%q", ok, sev, ev)
		}
	})

	// The done-criterion of the runtime check: a 14.36 msvcp140.dll (a stand-in with that version
	// resource, next to python.exe, where the loader finds it before System32) and a 14.36 registry
	// entry fail torch 2.11 (14.40 needed) and pass torch 2.8 (14.29).
	t.Run("msvcp140 14.36: flagged for torch 2.11, not for torch 2.8", func(t *testing.T) {
		w.regAdd(t, vcRuntimeKey, "Installed", "REG_DWORD", "1")
		w.regAdd(t, vcRuntimeKey, "Version", "REG_SZ", "v14.36.32532.00")
		for _, c := range []struct {
			dir, torch string
			flagged    bool
		}{{"Torch211", "2.11.0+cu128", true}, {"Torch28", "2.8.0+cu128", false}} {
			w.installStandin(t, c.dir+`\python.exe`, `{"version": "3.12.4", "bits": 64, "dists": [{"name": "torch", "version": "`+c.torch+`"}]}`)
			dllvertest.Build(t, w.driveC(c.dir), "msvcp140.dll", "14.36.32532.0")
			d, r := w.doctor(t, `C:\`+c.dir+`\python.exe`)
			sev, ev, ok := d.finding("vc-runtime-old")
			if ok != c.flagged {
				t.Errorf("torch %s with msvcp140 14.36: vc-runtime-old %v, want %v\n%s", c.torch, ok, c.flagged, r.stdout)
				continue
			}
			want := `msvcp140.dll that loads: C:\` + c.dir + `\msvcp140.dll (14.36.32532.0, next to python.exe)`
			if c.flagged && (sev != "error" || !strings.Contains(ev, want) || !strings.Contains(ev, "WinError 1114") || !strings.Contains(ev, "v14.36.32532.00")) {
				t.Errorf("torch %s: severity %q, evidence:\n%s\nwant %q", c.torch, sev, ev, want)
			}
		}
	})

	t.Run("registry checks still run when the Python does not", func(t *testing.T) {
		w.regAdd(t, fileSystemKey, "LongPathsEnabled", "REG_DWORD", "0")
		w.installStandin(t, `Broken\python.exe`, `not json`) // exits 3 on every call
		d, _ := w.doctor(t, `C:\Broken\python.exe`)
		if d.Python.Error == "" {
			t.Errorf("a Python that cannot run was not reported: %+v", d.Python)
		}
		if _, _, ok := d.finding("long-paths-disabled"); !ok {
			t.Errorf("long-paths-disabled missing when the Python is broken: %+v", d.Findings)
		}
	})
}
