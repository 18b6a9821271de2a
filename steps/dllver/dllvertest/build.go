// Package dllvertest builds stand-in DLLs with a chosen version resource for tests, from
// testdata/fakemsvcp with mingw-w64 (x86_64-w64-mingw32-gcc and -windres).
package dllvertest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Missing says why stand-ins cannot be built here ("" when they can).
func Missing() string {
	for _, tool := range []string{"x86_64-w64-mingw32-gcc", "x86_64-w64-mingw32-windres"} {
		if _, err := exec.LookPath(tool); err != nil {
			return tool + " is not installed (apt-get install gcc-mingw-w64-x86-64)"
		}
	}
	return ""
}

// Build writes dir/name, a DLL whose file version is version ("14.36.32532.0"), and returns its path.
// Without mingw-w64 the test skips, or fails when CI=true.
func Build(t testing.TB, dir, name, version string) string {
	t.Helper()
	if why := Missing(); why != "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but %s", why)
		}
		t.Skip(why)
	}
	parts := strings.Split(version, ".")
	for len(parts) < 4 {
		parts = append(parts, "0")
	}
	_, file, _, _ := runtime.Caller(0)
	src := filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata", "fakemsvcp")
	tmp := t.TempDir()
	res := filepath.Join(tmp, "version.o")
	args := []string{"-O", "coff", "-o", res}
	for i, p := range parts[:4] {
		args = append(args, fmt.Sprintf("-DV%d=%s", i+1, p))
	}
	args = append(args, filepath.Join(src, "version.rc"))
	if out, err := exec.Command("x86_64-w64-mingw32-windres", args...).CombinedOutput(); err != nil {
		t.Fatalf("windres: %v\n%s", err, out)
	}
	dst := filepath.Join(dir, name)
	if out, err := exec.Command("x86_64-w64-mingw32-gcc", "-shared", "-O1", "-o", dst, filepath.Join(src, "msvcp140.c"), res).CombinedOutput(); err != nil {
		t.Fatalf("x86_64-w64-mingw32-gcc: %v\n%s", err, out)
	}
	return dst
}
