//go:build linux && cgo

package gpu_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/steps/gpu"
	"gpuwiz/steps/testkit/gobuild"
)

// TestLinuxBuildAgainstAFakeLibNVML runs the real gpuwiz (cgo, go-nvml) against testdata/fakenvml
// built as libnvidia-ml.so.1: `gpu --json --readings` gives the canned cards through the early start
// (nvmlearly's constructor loads the library and calls nvmlInit_v2 before the Go runtime starts;
// go-nvml's own Init then only counts a reference: two calls in all), and a command that does not
// probe the driver loads nothing.
func TestLinuxBuildAgainstAFakeLibNVML(t *testing.T) {
	root := repoRoot(t)
	if _, err := exec.LookPath("gcc"); err != nil {
		missing(t, "gcc is not installed")
	}
	tmp := t.TempDir()
	bin := gobuild.Build(t, gobuild.Options{Out: filepath.Join(tmp, "gpuwiz"), Env: []string{"CGO_ENABLED=1", "CGO_CFLAGS=-Wno-deprecated-declarations"}})
	lib := filepath.Join(tmp, "lib")
	if err := os.Mkdir(lib, 0o755); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(root, "testdata", "fakenvml", "fakenvml.c")
	if out, err := exec.Command("gcc", "-shared", "-fPIC", "-O2", "-Wall", "-Werror", "-o", filepath.Join(lib, "libnvidia-ml.so.1"), src).CombinedOutput(); err != nil {
		t.Fatalf("building the fake libnvidia-ml.so.1: %v\n%s", err, out)
	}
	calls := filepath.Join(tmp, "calls.log")
	inits := func() int {
		b, _ := os.ReadFile(calls)
		os.Remove(calls)
		return strings.Count(string(b), "nvmlInit_v2\n")
	}

	var stdout, stderr bytes.Buffer
	c := exec.Command(bin, "gpu", "--json", "--readings")
	env := append(os.Environ(), "LD_LIBRARY_PATH="+lib, "FAKENVML_LOG="+calls)
	c.Env = env
	c.Stdout, c.Stderr = &stdout, &stderr
	if err := c.Run(); err != nil {
		t.Fatalf("gpuwiz gpu --json --readings: %v\n%s", err, stderr.String())
	}
	got, err := gpu.ParseReport(stdout.Bytes())
	if err != nil {
		t.Fatalf("output is not a report: %v\n%s", err, stdout.String())
	}
	sameAsCanned(t, root, got, func(want *gpu.Report) { want.Backend, want.OS = "nvml", "linux" }) // the same cards through go-nvml

	if n := inits(); n != 2 {
		t.Errorf("nvmlInit_v2 called %d times; want 2 (the constructor's, then go-nvml's reference)", n)
	}
	c = exec.Command(bin, "--lang", "zh-CN", "gpu", "--json") // a global flag before the command
	c.Env = env
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("gpuwiz --lang zh-CN gpu --json: %v\n%s", err, out)
	}
	if n := inits(); n != 2 {
		t.Errorf("--lang zh-CN gpu: nvmlInit_v2 called %d times; want 2", n)
	}
	for _, args := range [][]string{{"--version"}, {"gpu", "--help"}, {"gpu", "--simulate", filepath.Join(root, "testdata", "fakenvml", "expected.json"), "--json"}} {
		c := exec.Command(bin, args...)
		c.Env = env
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("gpuwiz %q: %v\n%s", args, err, out)
		}
		if n := inits(); n != 0 {
			t.Errorf("gpuwiz %q initialised NVML %d times; want none", args, n)
		}
	}
}
