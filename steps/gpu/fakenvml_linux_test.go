//go:build linux && cgo

package gpu_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gpuwiz/steps/gpu"
	"gpuwiz/steps/testkit/gobuild"
)

// TestLinuxBuildAgainstAFakeLibNVML runs the real gpuwiz (cgo, go-nvml) against testdata/fakenvml
// built as libnvidia-ml.so.1: `gpu --json --readings` gives the canned cards through the early start
// (nvmlearly loads and initialises the library while the other packages initialise; the inittrace
// shows it initialised before the commands' packages).
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

	var stdout, stderr bytes.Buffer
	c := exec.Command(bin, "gpu", "--json", "--readings")
	c.Env = append(os.Environ(), "LD_LIBRARY_PATH="+lib, "GODEBUG=inittrace=1")
	c.Stdout, c.Stderr = &stdout, &stderr
	if err := c.Run(); err != nil {
		t.Fatalf("gpuwiz gpu --json --readings: %v\n%s", err, stderr.String())
	}
	got, err := gpu.ParseReport(stdout.Bytes())
	if err != nil {
		t.Fatalf("output is not a report: %v\n%s", err, stdout.String())
	}
	want, err := gpu.ParseReport(mustRead(t, filepath.Join(root, "testdata", "fakenvml", "expected.json")))
	if err != nil {
		t.Fatal(err)
	}
	want.Backend, want.OS = "nvml", "linux" // the same cards through go-nvml
	if !reflect.DeepEqual(got, want) {
		g, _ := json.MarshalIndent(got, "", "  ")
		t.Fatalf("report differs from testdata/fakenvml/expected.json; got:\n%s", g)
	}

	// Package initialisation order: nvmlearly before the packages that build and run the commands.
	order := map[string]int{}
	for i, line := range strings.Split(stderr.String(), "\n") {
		if f := strings.Fields(line); len(f) > 1 && f[0] == "init" {
			order[f[1]] = i
		}
	}
	early, ok := order["gpuwiz/steps/gpu/nvmlearly"]
	if !ok {
		t.Fatalf("no inittrace line for nvmlearly:\n%s", stderr.String())
	}
	for _, later := range []string{"gpuwiz/steps/gpu", "gpuwiz/steps/app", "gpuwiz/steps/cli", "github.com/charmbracelet/bubbletea", "github.com/spf13/cobra"} {
		if i, ok := order[later]; ok && i < early {
			t.Errorf("%s is initialised before nvmlearly: the early start waits for it", later)
		}
	}
}
