package gpu_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gpuwiz/steps/gpu"
	"gpuwiz/steps/testkit/gobuild"
	"gpuwiz/steps/testkit/wineprefix"
)

// TestWindowsBuildUnderWine runs the real gpuwiz.exe under Wine against the fake nvml.dll in
// testdata/fakenvml: the DLL loading, the syscalls, the calling convention and the struct layouts.
// It skips without wine or mingw-w64, except under CI=true, where it fails.
func TestWindowsBuildUnderWine(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the Wine test takes ~15 s")
	}
	root := repoRoot(t)
	if why := wineprefix.Missing(); why != "" {
		missing(t, why)
	}
	tmp := t.TempDir()
	exe := gobuild.Build(t, gobuild.Options{Out: filepath.Join(tmp, "gpuwiz.exe"), Env: []string{"GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0"}})
	src := filepath.Join(root, "testdata", "fakenvml", "fakenvml.c")
	dlls := map[string][]string{"current": nil, "old": {"-DOLD_DRIVER"}}
	for name, flags := range dlls {
		args := append([]string{"-shared", "-O2", "-Wall", "-Werror", "-o", filepath.Join(tmp, name+".dll"), src}, flags...)
		if out, err := exec.Command("x86_64-w64-mingw32-gcc", args...).CombinedOutput(); err != nil {
			t.Fatalf("building the fake nvml.dll (%s): %v\n%s", name, err, out)
		}
	}

	// One private prefix reused across runs: wineboot takes ~10 s and must not touch ~/.wine.
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	prefix := filepath.Join(cache, "gpuwiz-wine-test")
	env := append(os.Environ(), "WINEPREFIX="+prefix, "WINEDEBUG=-all")
	if err := wineprefix.Prepare(context.Background(), root, prefix, env); err != nil {
		t.Fatalf("preparing the Wine prefix %s: %v", prefix, err)
	}
	system32 := filepath.Join(prefix, "drive_c", "windows", "system32", "nvml.dll")
	t.Cleanup(func() { os.Remove(system32) })

	run := func(t *testing.T, dll string) gpu.Report {
		t.Helper()
		os.Remove(system32)
		if dll != "" {
			data, err := os.ReadFile(filepath.Join(tmp, dll+".dll"))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(system32, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		var stdout, stderr bytes.Buffer
		c := exec.Command("wine", exe, "gpu", "--json", "--readings")
		c.Env, c.Stdout, c.Stderr, c.Dir = env, &stdout, &stderr, tmp
		if err := c.Run(); err != nil {
			t.Fatalf("wine gpuwiz.exe gpu --json --readings: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
		}
		r, err := gpu.ParseReport(stdout.Bytes())
		if err != nil {
			t.Fatalf("output is not a report: %v\n%s", err, stdout.String())
		}
		return r
	}

	t.Run("current driver reports exactly the canned cards", func(t *testing.T) {
		got := run(t, "current")
		sameAsCanned(t, root, got, nil)
		// The facts fakenvml.c hard-codes, checked one by one so the golden cannot drift unnoticed.
		if got.Backend != "nvml.dll" || got.DriverVersion != "566.36" || got.CUDAMax != "12.7" || len(got.GPUs) != 2 {
			t.Fatalf("driver facts: %+v", got)
		}
		g0, g1 := got.GPUs[0], got.GPUs[1]
		if g0.Name != "NVIDIA GeForce RTX 4090" || g0.ComputeCapability != "8.9" || g0.MemoryTotalMiB != 24564 || g0.MemoryUsedMiB != 1843 || g0.PCIBusID != "00000000:01:00.0" {
			t.Errorf("GPU 0: %+v", g0)
		}
		if g0.PowerW == nil || *g0.PowerW != 212.345 || *g0.SMClockMHz != 2520 || *g0.TemperatureC != 61 || *g0.UtilizationPct != 37 {
			t.Errorf("GPU 0 vitals: %+v", g0)
		}
		if len(g0.Processes) != 2 || g0.Processes[1].PID != 4242 || g0.Processes[1].UsedMemoryMiB != nil || *g0.Processes[0].UsedMemoryMiB != 512 {
			t.Errorf("GPU 0 processes (4242 has NVML_VALUE_NOT_AVAILABLE memory): %+v", g0.Processes)
		}
		if g1.Name != "NVIDIA GeForce GTX 1080" || g1.ComputeCapability != "6.1" || len(g1.Processes) != 1 || g1.Processes[0].Name != "trainer.exe" {
			t.Errorf("GPU 1: %+v", g1)
		}
	})

	t.Run("old driver without optional exports still reports", func(t *testing.T) {
		got := run(t, "old")
		if !got.Available || len(got.GPUs) != 2 || got.GPUs[0].ComputeCapability != "8.9" {
			t.Fatalf("report: %+v", got)
		}
		for _, g := range got.GPUs {
			if g.PowerW != nil {
				t.Errorf("GPU %d: power %v from a driver without nvmlDeviceGetPowerUsage", g.Index, *g.PowerW)
			}
		}
		if len(got.GPUs[0].Processes) != 2 {
			t.Errorf("processes through the _v2 calls: %+v", got.GPUs[0].Processes)
		}
		if !strings.Contains(strings.Join(got.Warnings, "\n"), "nvmlDeviceGetPowerUsage not exported") {
			t.Errorf("no warning about the missing export: %q", got.Warnings)
		}
	})

	t.Run("no nvml.dll is a clean no-driver report", func(t *testing.T) {
		got := run(t, "")
		if got.Available || got.Backend != "none" || len(got.GPUs) != 0 {
			t.Fatalf("report: %+v", got)
		}
		if !strings.Contains(got.Message, "No NVIDIA driver") || !strings.Contains(got.Message, `system32\nvml.dll`) {
			t.Errorf("message: %s", got.Message)
		}
	})
}

// sameAsCanned fails t unless got is testdata/fakenvml/expected.json, the cards fakenvml.c serves,
// after adjust (nil: none) made the backend's own differences.
func sameAsCanned(t *testing.T, root string, got gpu.Report, adjust func(*gpu.Report)) {
	t.Helper()
	want, err := gpu.ParseReport(mustRead(t, filepath.Join(root, "testdata", "fakenvml", "expected.json")))
	if err != nil {
		t.Fatal(err)
	}
	if adjust != nil {
		adjust(&want)
	}
	if !reflect.DeepEqual(got, want) {
		g, _ := json.MarshalIndent(got, "", "  ")
		t.Fatalf("report differs from testdata/fakenvml/expected.json; got:\n%s", g)
	}
}

func missing(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true and %s", why)
	}
	t.Skip(why)
}

func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatalf("repo root not at %s", dir)
	}
	return dir
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
