package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/steps/testkit/pyindex"
)

// gpuwiz add takes a wheel file on disk: the stage copies it from where it is (it asked the index
// for name==version before, which serves no such file), and pip then lists it in the venv. A wheel
// whose local label says it was built for another torch and CUDA (flash-attn's
// +cu128torch2.7 beside a torch 2.6.0+cu126 build) is refused before anything changes.
func TestAddTakesAWheelFileOnDisk(t *testing.T) {
	useConfigDir(t)
	t.Setenv("GPUWIZ_VERIFY_MATRIX_N", "8")
	ix := addIndex(t)
	dir := t.TempDir()
	venv := filepath.Join(dir, "my venv")
	if out, stderr, code := runCLI(t, withRig(t, "install", "--framework", "torch", "--framework-version", "2.6.0", "--channel", "cu126",
		"--venv", venv, "--python", pyindex.Python(t), "--index-url", ix.ChannelURL("cu126"), "--cache-dir", filepath.Join(dir, "cache"), "--yes", "--no-pip-upgrade")...); code != 0 {
		t.Fatalf("install: exit %d: %s\n%s", code, stderr, out)
	}
	wheels := filepath.Join(dir, "downloads")
	local, err := pyindex.BuildWheel(wheels, "has.script", "1.0", map[string]string{"has_script/__init__.py": "Z = 3\n"}, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	other, err := pyindex.BuildWheel(wheels, "flash_attn", "2.7.4+cu128torch2.7", map[string]string{"flash_attn/__init__.py": ""}, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	pypi := ix.ChannelURL("pypi")

	before := venvFiles(t, venv)
	out, stderr, code := runCLI(t, "add", "--venv", venv, other, "--index-url", pypi, "--yes", "--json")
	r := decodeAdd(t, out)
	if code != 3 || r.Preview == nil || r.Preview.Refusal == nil || !strings.Contains(out, "torch 2.7") || !strings.Contains(out, "cu128") {
		t.Fatalf("a wheel built for torch 2.7 cu128: exit %d %s\n%s", code, stderr, out)
	}
	sameFiles(t, "the refused wheel", before, venvFiles(t, venv))

	out, stderr, code = runCLI(t, "add", "--venv", venv, local, "--index-url", pypi, "--yes", "--json")
	if code != 0 {
		t.Fatalf("add %s: exit %d %s\n%s", local, code, stderr, out)
	}
	list, err := exec.Command(filepath.Join(venv, "bin", "python"), "-m", "pip", "list", "--format", "freeze", "--disable-pip-version-check").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(list), "has.script==1.0") && !strings.Contains(string(list), "has-script==1.0") {
		t.Fatalf("pip list after add:\n%s", list)
	}
	if !strings.Contains(string(list), "torch==2.6.0+cu126") {
		t.Fatalf("the build moved:\n%s", list)
	}
	if _, err := os.Stat(local); err != nil {
		t.Fatalf("the user's wheel file: %v", err)
	}
}
