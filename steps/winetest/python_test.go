package winetest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

type pythonJSON struct {
	Interpreters []struct {
		Path     string   `json:"path"`
		Version  string   `json:"version"`
		Bits     int      `json:"bits"`
		Kind     string   `json:"kind"`
		Source   string   `json:"source"`
		Warnings []string `json:"warnings"`
	} `json:"interpreters"`
	Advice string `json:"advice"`
}

func (w *wineMachine) pythons(t *testing.T, extra []string) (pythonJSON, result) {
	t.Helper()
	r := w.gpuwiz(t, extra, "python", "--json")
	var p pythonJSON
	if err := json.Unmarshal([]byte(r.stdout), &p); err != nil {
		t.Fatalf("python --json exit %d: %v\nstdout:\n%s\nstderr:\n%s", r.code, err, r.stdout, r.stderr)
	}
	return p, r
}

func (w *wineMachine) forgetPythons(t *testing.T) {
	for _, k := range []string{`HKCU\Software\Python`, `HKLM\Software\Python`, `HKLM\Software\WOW6432Node\Python`} {
		w.regDelete(t, k, "")
	}
}

func launcherConfig(format string, pythons ...string) string {
	var rows []string
	for i, p := range pythons {
		tag, path, _ := strings.Cut(p, "=")
		rows = append(rows, fmt.Sprintf(`{"tag": %q, "path": %q, "default": %v}`, tag, path, i == 0))
	}
	return fmt.Sprintf(`{"format": %q, "pythons": [%s]}`, format, strings.Join(rows, ", "))
}

// TestPythonDiscoveryUnderWine runs gpuwiz.exe python with no Python, then with a stand-in py.exe on
// Wine's PATH (WINEPATH) and PEP 514 entries in Wine's registry.
func TestPythonDiscoveryUnderWine(t *testing.T) {
	w := windows(t)
	w.forgetPythons(t)

	t.Run("no Python names the python.org version to install", func(t *testing.T) {
		r := w.gpuwiz(t, nil, "python")
		if r.code != 1 {
			t.Errorf("exit %d, want 1", r.code)
		}
		for _, want := range []string{"install 64-bit Python 3.12 from https://www.python.org/downloads/windows/", "not the Microsoft Store", "--python PATH"} {
			if !strings.Contains(r.stderr, want) {
				t.Errorf("message lacks %q:\n%s", want, r.stderr)
			}
		}
		p, r := w.pythons(t, nil)
		if r.code != 1 || len(p.Interpreters) != 0 || !strings.Contains(p.Advice, "Python 3.12") {
			t.Errorf("--json: exit %d, %+v", r.code, p)
		}
	})

	user311 := `C:\users\张三\AppData\Local\Programs\Python\Python311\python.exe`
	w.installStandin(t, `Python312\python.exe`, `{"version": "3.12.4", "bits": 64}`)
	w.installStandin(t, strings.TrimPrefix(user311, `C:\`), `{"version": "3.11.9", "bits": 64}`)
	w.installStandin(t, `Python313\python.exe`, `{"version": "3.13.1", "bits": 64}`)
	w.installStandin(t, `Python310-32\python.exe`, `{"version": "3.10.11", "bits": 32}`)
	wineLauncher := []string{`WINEPATH=C:\pylauncher`}

	t.Run("py -0p (3.12+ format) and PEP 514 entries are found, each once", func(t *testing.T) {
		w.installStandin(t, `pylauncher\py.exe`, launcherConfig("new",
			`3.12=C:\Python312\python.exe`, "3.11="+user311, `3.9=C:\Python39\python.exe`)) // 3.9: a stale entry
		w.regAdd(t, `HKCU\Software\Python\PythonCore\3.13\InstallPath`, "", "REG_SZ", `C:\Python313`)
		w.regAdd(t, `HKLM\Software\Python\PythonCore\3.12\InstallPath`, "", "REG_SZ", `C:\PYTHON312`) // the launcher's, in other case
		defer w.forgetPythons(t)
		p, r := w.pythons(t, wineLauncher)
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		want := []struct{ path, version, source string }{
			{`C:\Python312\python.exe`, "3.12.4", "py launcher"},
			{user311, "3.11.9", "py launcher"},
			{`C:\Python313\python.exe`, "3.13.1", "registry"},
		}
		if len(p.Interpreters) != len(want) {
			t.Fatalf("found %d interpreters, want %d: %+v", len(p.Interpreters), len(want), p.Interpreters)
		}
		for i, wt := range want {
			got := p.Interpreters[i]
			if !strings.EqualFold(got.Path, wt.path) || got.Version != wt.version || got.Source != wt.source || got.Kind != "python.org" || got.Bits != 64 || len(got.Warnings) != 0 {
				t.Errorf("interpreter %d: %+v, want %+v (python.org, 64-bit, no warnings)", i, got, wt)
			}
		}
	})

	t.Run("py -0p (old format) with a 32-bit Python warns", func(t *testing.T) {
		w.installStandin(t, `pylauncher\py.exe`, launcherConfig("old", `3.10-32=C:\Python310-32\python.exe`))
		p, r := w.pythons(t, wineLauncher)
		if r.code != 0 || len(p.Interpreters) != 1 {
			t.Fatalf("exit %d: %+v %s", r.code, p, r.stderr)
		}
		got := p.Interpreters[0]
		if got.Bits != 32 || got.Version != "3.10.11" || !strings.Contains(strings.Join(got.Warnings, "\n"), "32-bit") {
			t.Errorf("32-bit Python: %+v", got)
		}
		r = w.gpuwiz(t, wineLauncher, "python")
		if r.code != 0 || !strings.Contains(r.stdout, `C:\Python310-32\python.exe`) || !strings.Contains(r.stdout, "warning: this Python is 32-bit") {
			t.Errorf("text output, exit %d:\n%s%s", r.code, r.stdout, r.stderr)
		}
	})
}
