package nvmlearly

import (
	"os/exec"
	"strings"
	"testing"
)

// TestWanted: only `gpu` on the real driver loads NVML at the process's start.
func TestWanted(t *testing.T) {
	for args, want := range map[string]bool{
		"gpu": true, "gpu --json": true, "gpu --json --timings": true, "gpu --watch": true,
		"": false, "--version": false, "gpu --help": false, "gpu -h": false, "channels": false,
		"gpu --simulate rig.json": false, "gpu --json --simulate=rig.json": false, "doctor gpu": false,
		// global flags before the command
		"--lang zh-CN gpu --json": true, "--lang=zh-CN gpu": true, "--no-color --ascii gpu": true, "--matrix m.toml gpu --json": true,
		"--sources=s.toml gpu": true, "--lang gpu gpu": true, "--lang gpu": false, "--lang": false, "--simulate r.json gpu": false,
		"--simulate=r.json gpu": false, "--verbose gpu": false, "--help gpu": false, "--lang zh-CN doctor": false,
	} {
		if got := Wanted(strings.Fields(args)); got != want {
			t.Errorf("Wanted(%q) = %v, want %v", args, got, want)
		}
	}
}

// TestTakeOnce: what began is handed over once, after it finished; then there is nothing to take.
func TestTakeOnce(t *testing.T) {
	release := make(chan struct{})
	begin(func() any { <-release; return 42 })
	go close(release)
	v, began, ok := take()
	if !ok || v != 42 || began.IsZero() {
		t.Fatalf("take = %v %v %v", v, began, ok)
	}
	if _, _, ok := take(); ok {
		t.Fatal("taken twice")
	}
}

// TestImportsNextToNothing: the package is initialised among the first only while it imports no
// other package of this module (Go initialises a package after all it imports).
func TestImportsNextToNothing(t *testing.T) {
	for _, goos := range []string{"linux", "windows"} {
		cmd := exec.Command("go", "list", "-deps", ".")
		cmd.Env = append(cmd.Environ(), "GOOS="+goos)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list: %v", err)
		}
		for _, p := range strings.Fields(string(out)) {
			if strings.HasPrefix(p, "gpuwiz/") && p != "gpuwiz/steps/gpu/nvmlearly" {
				t.Errorf("GOOS=%s: nvmlearly imports %s", goos, p)
			}
		}
	}
}
