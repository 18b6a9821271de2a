package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"gpuwiz/steps/pep"
	"gpuwiz/steps/testkit/pyindex"
)

func checkIndex(t *testing.T) *pyindex.Index {
	py := []string{"3.11", "3.12"}
	both := []string{"linux", "windows"}
	cu124 := append(pyindex.Torch("2.6.0", "", "2.6.0", "cu124", py, both), pyindex.Torch("", "0.21.0", "", "cu124", py, []string{"linux"})...)
	return pyindex.ServeNames(t, map[string][]string{
		"cu124": cu124,
		"cu126": append(pyindex.Torch("2.6.0", "0.21.0", "2.6.0", "cu126", py, both), pyindex.Torch("2.7.0", "0.22.0", "2.7.0", "cu126", py, both)...),
		"cu129": pyindex.Torch("2.6.0", "0.21.0", "", "cu129", py, both),
	})
}

var checkMatrixFile = filepath.Join("..", "..", "testdata", "indexcheck", "matrix.toml")

func TestMatrixCheckReportsPhantomsAndExtras(t *testing.T) {
	ix := checkIndex(t)
	out, stderr, code := runCLI(t, "--matrix", checkMatrixFile, "matrix", "check", "--framework", "torch", "--mirror", ix.URL)
	if code != ExitFailure {
		t.Fatalf("exit %d (want 1 for a phantom): %s %s", code, out, stderr)
	}
	for _, want := range []string{
		"PHANTOM: no torchvision==0.21.0+cu124 for Windows (Python 3.11, 3.12)",
		"cu129    linux",
		"optional torchaudio==2.6.0+cu129 not served for Linux; Windows wheels are served too",
		"torch 2.7.0 on cu126 (linux, windows)",
		"3 builds: 2 ok, 1 phantom, 0 could not look",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	out, _, code = runCLI(t, "--matrix", checkMatrixFile, "matrix", "check", "--framework", "torch", "--index-url", ix.URL+"/whl/{channel}", "--json")
	var rep struct {
		Rows []struct {
			Channel, Status string
			Missing         []map[string]any
		}
		Extra []map[string]any
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != ExitFailure || len(rep.Rows) != 3 || len(rep.Extra) != 1 {
		t.Fatalf("exit %d, %v: %s", code, err, out)
	}
}

func TestMatrixCheckExitCodes(t *testing.T) {
	ix := checkIndex(t)
	// only the served channels: a matrix with cu126 alone passes
	if _, _, code := runCLI(t, "--matrix", checkMatrixFile, "matrix", "check", "--framework", "paddle", "--index-url", ix.URL+"/paddle/{channel}"); code != ExitFailure {
		t.Errorf("paddle not on the index: exit %d, want 1", code)
	}
	ix.Break("cu124", "garbage")
	out, _, code := runCLI(t, "--matrix", checkMatrixFile, "matrix", "check", "--framework", "torch", "--mirror", ix.URL)
	if code != ExitProblems || !strings.Contains(out, "could not look at the index for torch, torchvision, torchaudio ("+ix.URL+"/whl/cu124/torch/): the page is not HTML") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	for _, args := range [][]string{
		{"matrix", "check", "--framework", "tensorflow"},
		{"matrix", "check", "--index-url", "a", "--mirror", "https://x.example"},
		{"matrix", "check", "--mirror", "ftp://x.example"},
		{"matrix", "check", "--parallel", "0"},
	} {
		if _, stderr, code := runCLI(t, args...); code != ExitUsage || stderr == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
}

// install asks the index before anything changes: a build it does not serve for this OS and Python is
// refused (exit 3) with the next-best build it serves, and no venv is made; --force goes on with a note.
func TestInstallRefusesABuildTheIndexDoesNotServe(t *testing.T) {
	py := pep.Pythons("3.8", "3.14")
	ix := pyindex.ServeNames(t, map[string][]string{
		"cu124": pyindex.Torch("2.6.0", "", "2.6.0", "cu124", py, []string{runtime.GOOS}), // no torchvision: a phantom here
		"cu126": pyindex.Torch("2.6.0", "0.21.0", "2.6.0", "cu126", py, []string{runtime.GOOS}),
	})
	data, err := os.ReadFile(checkMatrixFile)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(data), "http://127.0.0.1:1", ix.URL)
	text = strings.ReplaceAll(strings.ReplaceAll(text, `python_min = "3.11"`, `python_min = "3.8"`), `python_max = "3.12"`, `python_max = "3.14"`)
	mfile := filepath.Join(t.TempDir(), "m.toml")
	if err := os.WriteFile(mfile, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	venv := filepath.Join(t.TempDir(), "venv")
	args := withRig(t, "--matrix", mfile, "install", "--framework", "torch", "--framework-version", "2.6.0", "--channel", "cu124",
		"--venv", venv, "--python", pyindex.Python(t), "--dry-run")
	_, stderr, code := runCLI(t, args...)
	if code != ExitIncompatible || !strings.Contains(stderr, "torch 2.6.0 (cu124) is not served for this system: the index has no torchvision==0.21.0+cu124") ||
		!strings.Contains(stderr, "the next-best build the index serves is torch 2.6.0 (cu126): pass --framework-version 2.6.0 --channel cu126") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(venv); !os.IsNotExist(err) {
		t.Errorf("a venv was made (%v)", err)
	}
	out, stderr, code := runCLI(t, append(args, "--force")...)
	if code != 0 || !strings.Contains(out, "--force: torch 2.6.0 (cu124) is not served") {
		t.Fatalf("--force: exit %d: %s\n%s", code, stderr, out)
	}
	out, stderr, code = runCLI(t, withRig(t, "--matrix", mfile, "install", "--framework", "torch", "--framework-version", "2.6.0", "--channel", "cu126",
		"--venv", venv, "--python", pyindex.Python(t), "--dry-run")...)
	if code != 0 || strings.Contains(out, "not served") {
		t.Fatalf("cu126: exit %d: %s\n%s", code, stderr, out)
	}
}
