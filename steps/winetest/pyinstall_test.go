package winetest

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type pyInstallJSON struct {
	Plan struct {
		Method  string   `json:"method"`
		Command []string `json:"command"`
		Target  string   `json:"target"`
		SHA256  string   `json:"sha256"`
	} `json:"plan"`
	Result *struct {
		Installed bool   `json:"installed"`
		Error     string `json:"error"`
		Python    *struct {
			Path    string `json:"path"`
			Version string `json:"version"`
		} `json:"python"`
	} `json:"result"`
	ExitCode int `json:"exit_code"`
}

func (w *wineMachine) pythonInstall(t *testing.T, extra []string, args ...string) (pyInstallJSON, result) {
	t.Helper()
	r := w.gpuwiz(t, extra, append([]string{"python", "install", "--json", "--yes"}, args...)...)
	var doc pyInstallJSON
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("python install --json exit %d: %v\nstdout:\n%s\nstderr:\n%s", r.code, err, r.stdout, r.stderr)
	}
	return doc, r
}

// localAppData is %LOCALAPPDATA% in the prefix, as Windows and as Unix paths.
func (w *wineMachine) localAppData(t *testing.T) (win, unix string) {
	r := w.wine(t, nil, "cmd", "/c", "echo %LOCALAPPDATA%")
	win = strings.TrimSpace(r.stdout)
	if !strings.HasPrefix(strings.ToUpper(win), `C:\`) {
		t.Fatalf("LOCALAPPDATA under Wine is %q", win)
	}
	return win, w.driveC(win[3:])
}

// TestPythonInstallUnderWine: with only the Microsoft Store alias the machine has no Python; a
// stand-in winget.exe installs one for this user, found by discovery right after; without winget a
// stand-in python.org installer is downloaded from a loopback mirror, checked against the published
// SHA-256 (a wrong one is refused and nothing runs) and run per-user and quietly.
func TestPythonInstallUnderWine(t *testing.T) {
	w := windows(t)
	w.forgetPythons(t)
	defer w.forgetPythons(t)
	localWin, localUnix := w.localAppData(t)
	aliasDir := `Microsoft\WindowsApps`
	w.installStandin(t, filepath.Join(localWin[3:], aliasDir, "python.exe"), `{"alias": true}`)
	defer os.RemoveAll(filepath.Join(localUnix, "Microsoft"))
	pathAlias := `WINEPATH=` + localWin + `\` + aliasDir
	py312 := filepath.Join(localUnix, "Programs", "Python", "Python312")
	defer os.RemoveAll(filepath.Join(localUnix, "Programs"))

	t.Run("the Store alias is named as not a Python", func(t *testing.T) {
		r := w.gpuwiz(t, []string{pathAlias}, "python")
		if r.code != 1 || !strings.Contains(r.stdout, "the Microsoft Store alias: not a Python") || !strings.Contains(r.stderr, "gpuwiz python install 3.12") {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
		}
		p, _ := w.pythons(t, []string{pathAlias})
		if len(p.Interpreters) != 1 || p.Interpreters[0].Kind != "store" || p.Advice == "" {
			t.Fatalf("--json: %+v", p)
		}
	})

	t.Run("winget installs Python for this user and discovery finds it", func(t *testing.T) {
		w.installStandin(t, `winget\winget.exe`, `{"version": "3.12.10"}`)
		defer os.RemoveAll(w.driveC("winget"))
		extra := []string{pathAlias + `;C:\winget`}
		doc, r := w.pythonInstall(t, extra, "3.12")
		want := localWin + `\Programs\Python\Python312\python.exe`
		if r.code != 0 || doc.Plan.Method != "winget" || doc.Result == nil || !doc.Result.Installed || doc.Result.Python == nil ||
			!strings.EqualFold(doc.Result.Python.Path, want) || doc.Result.Python.Version != "3.12.10" {
			t.Fatalf("exit %d %+v\nstdout:\n%s\nstderr:\n%s", r.code, doc, r.stdout, r.stderr)
		}
		calls, _ := os.ReadFile(w.driveC(`winget\calls.log`))
		if !strings.Contains(string(calls), "install --id Python.Python.3.12 -e --scope user --silent --accept-package-agreements --accept-source-agreements") {
			t.Fatalf("winget called with %q", calls)
		}
		// The next gpuwiz finds it through the registry entry the install wrote (PATH is left alone).
		p, r := w.pythons(t, []string{pathAlias})
		found := false
		for _, in := range p.Interpreters {
			found = found || strings.EqualFold(in.Path, want) && in.Version == "3.12.10" && in.Source == "registry"
		}
		if r.code != 0 || !found {
			t.Fatalf("gpuwiz python after the install: exit %d %+v", r.code, p)
		}
		// Asked again, it is already there.
		doc, r = w.pythonInstall(t, extra, "3.12")
		if r.code != 0 || doc.Result != nil {
			t.Fatalf("second install: exit %d %+v", r.code, doc)
		}
	})

	// The python.org installer from a loopback mirror. Its checksum comes from python.org (not
	// reachable here) or from --sha256, never from the mirror's own copy of the Sigstore bundle,
	// which here names another file's digest.
	installer, err := os.ReadFile(w.py)
	if err != nil {
		t.Fatal(err)
	}
	digest := sha256.Sum256(installer)
	other := sha256.Sum256([]byte("not the installer"))
	mux := http.NewServeMux()
	mux.HandleFunc("/3.12.4/python-3.12.4-amd64.exe", func(rw http.ResponseWriter, _ *http.Request) { rw.Write(installer) })
	mux.HandleFunc("/3.12.4/python-3.12.4-amd64.exe.sigstore", func(rw http.ResponseWriter, _ *http.Request) {
		fmt.Fprintf(rw, `{"messageSignature": {"messageDigest": {"algorithm": "SHA2_256", "digest": %q}}}`, base64.StdEncoding.EncodeToString(other[:]))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	mirror := srv.URL + "/"

	t.Run("without python.org's checksum nothing runs and --sha256 is named", func(t *testing.T) {
		w.forgetPythons(t)
		os.RemoveAll(py312)
		doc, r := w.pythonInstall(t, []string{pathAlias}, "3.12.4", "--mirror", mirror)
		if r.code == 0 || doc.Result == nil || doc.Result.Installed || !strings.Contains(doc.Result.Error, "--sha256") {
			t.Fatalf("exit %d %+v\n%s", r.code, doc, r.stderr)
		}
		if _, err := os.Stat(py312); !os.IsNotExist(err) {
			t.Fatalf("something was installed: %v", err)
		}
	})

	t.Run("a wrong checksum is refused and nothing runs", func(t *testing.T) {
		w.forgetPythons(t)
		os.RemoveAll(py312)
		doc, r := w.pythonInstall(t, []string{pathAlias}, "3.12.4", "--mirror", mirror, "--sha256", hex.EncodeToString(other[:]))
		if r.code != 1 || doc.Result == nil || doc.Result.Installed || !strings.Contains(doc.Result.Error, "nothing was run") {
			t.Fatalf("exit %d %+v\n%s", r.code, doc, r.stderr)
		}
		if _, err := os.Stat(py312); !os.IsNotExist(err) {
			t.Fatalf("something was installed: %v", err)
		}
	})

	t.Run("the checked installer runs per-user and quietly", func(t *testing.T) {
		doc, r := w.pythonInstall(t, []string{pathAlias}, "3.12.4", "--mirror", mirror, "--sha256", hex.EncodeToString(digest[:]))
		if r.code != 0 || doc.Plan.Method != "python.org installer" || doc.Result == nil || doc.Result.Python == nil || doc.Result.Python.Version != "3.12.4" {
			t.Fatalf("exit %d %+v\nstdout:\n%s\nstderr:\n%s", r.code, doc, r.stdout, r.stderr)
		}
		cmd := strings.Join(doc.Plan.Command, " ")
		for _, want := range []string{"/quiet", "InstallAllUsers=0", "Include_launcher=1", "InstallLauncherAllUsers=0", "PrependPath=0"} {
			if !strings.Contains(cmd, want) {
				t.Errorf("installer command lacks %s: %s", want, cmd)
			}
		}
	})
}
