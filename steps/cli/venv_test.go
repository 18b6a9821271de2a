package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPythonJSONListsThisMachinesPython(t *testing.T) {
	out, stderr, code := runCLI(t, "python", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		Interpreters []struct {
			Path, Version, Kind, Source string
			Bits                        int
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Interpreters) == 0 || !strings.HasPrefix(got.Interpreters[0].Version, "3.") || got.Interpreters[0].Bits != 64 {
		t.Fatalf("interpreters %+v", got.Interpreters)
	}
}

func TestPythonBadFlagIsUsage(t *testing.T) {
	_, stderr, code := runCLI(t, "python", "--python", filepath.Join(t.TempDir(), "nope"))
	if code != ExitUsage || !strings.Contains(stderr, "pass the path of a python executable") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}

func TestVenvOnAFileIsUsageAndCreatesNothing(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "afile")
	os.WriteFile(file, []byte("keep me"), 0o644)
	for _, target := range []string{file, filepath.Join(file, "venv")} {
		out, stderr, code := runCLI(t, "venv", target, "--json")
		if code != ExitUsage || !strings.Contains(stderr, "is a file") {
			t.Fatalf("%s: exit %d: %s", target, code, stderr)
		}
		var rep venvReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Errors) != 1 || rep.Created {
			t.Fatalf("json %q: %v", out, err)
		}
	}
	if b, _ := os.ReadFile(file); string(b) != "keep me" {
		t.Fatal("the file was changed")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("something was created: %v", entries)
	}
}

func TestVenvCreatesThenReuses(t *testing.T) {
	root := filepath.Join(t.TempDir(), "my venv & co; 中文")
	out, stderr, code := runCLI(t, "venv", root, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep venvReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if !rep.Created || rep.Python != filepath.Join(root, "bin", "python") || rep.BasePython == "" || len(rep.ActivateHints) == 0 {
		t.Fatalf("report %+v", rep)
	}
	if _, err := os.Stat(filepath.Join(root, "pyvenv.cfg")); err != nil {
		t.Fatal(err)
	}
	out, _, code = runCLI(t, "venv", root)
	if code != 0 || !strings.Contains(out, "reused the venv at "+root) {
		t.Fatalf("exit %d: %s", code, out)
	}
}

// A path flag is read as people type it: ~ is the home folder, quotes from "Copy as path" go, and a
// variable that is not set stops the command (exit 2) before anything is made.
func TestPathFlagsAreNormalised(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("GPUWIZ_TEST_UNSET", "")
	_, stderr, code := runCLI(t, "doctor", "--venv", "$GPUWIZ_TEST_UNSET/x")
	if code != ExitUsage || !strings.Contains(stderr, "GPUWIZ_TEST_UNSET") || !strings.Contains(stderr, "--venv") {
		t.Fatalf("unset variable: exit %d, stderr %s", code, stderr)
	}
	out, stderr, code := runCLI(t, "venv", `"~/envs/a b"`, "--json")
	var rep struct {
		Root string `json:"root"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("exit %d %v: %s %s", code, err, out, stderr)
	}
	if want := filepath.Join(home, "envs", "a b"); rep.Root != want {
		t.Fatalf("venv root %q, want %q", rep.Root, want)
	}
	if _, err := os.Stat(filepath.Join(home, "envs", "a b", "pyvenv.cfg")); err != nil {
		t.Fatalf("no venv at the home path: %v", err)
	}
}
