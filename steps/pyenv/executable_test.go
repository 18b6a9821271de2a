package pyenv

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --python takes a path or a name on PATH, as a shell would run it, and says which one failed.
func TestExecutableTakesAPathOrANameOnPath(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "mypython")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	if got, err := Executable("mypython"); err != nil || got != exe {
		t.Fatalf("a name on PATH: %q %v, want %q", got, err, exe)
	}
	t.Chdir(dir)
	if got, err := Executable("./mypython"); err != nil || got != exe {
		t.Fatalf("a relative path: %q %v, want %q", got, err, exe)
	}
	for in, want := range map[string]string{
		dir:                              "folder",
		filepath.Join(dir, "nope"):       "no such file",
		"nopython":                       "no nopython on PATH",
		filepath.Join("sub", "mypython"): "no such file",
	} {
		if got, err := Executable(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Executable(%q) = %q, %v; want an error saying %q", in, got, err, want)
		}
	}
}
