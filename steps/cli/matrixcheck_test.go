package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/steps/indexcheck/indextest"
)

func checkIndex(t *testing.T) *indextest.Index {
	py := []string{"3.11", "3.12"}
	both := []string{"linux", "windows"}
	cu124 := append(indextest.Torch("2.6.0", "", "2.6.0", "cu124", py, both), indextest.Torch("", "0.21.0", "", "cu124", py, []string{"linux"})...)
	return indextest.Serve(t, map[string][]string{
		"cu124": cu124,
		"cu126": append(indextest.Torch("2.6.0", "0.21.0", "2.6.0", "cu126", py, both), indextest.Torch("2.7.0", "0.22.0", "2.7.0", "cu126", py, both)...),
		"cu129": indextest.Torch("2.6.0", "0.21.0", "", "cu129", py, both),
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
	if code != ExitProblems || !strings.Contains(out, "could not look at the index: "+ix.URL+"/whl/cu124/torch/: the page is not HTML") {
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
