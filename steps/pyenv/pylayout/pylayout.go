// Package pylayout builds, for tests, real Python installations that differ from the machine's in
// one way: a copy of a real interpreter beside its standard library minus some modules, which is
// what a Debian or Ubuntu Python looks like without python3.X-venv (no ensurepip).
package pylayout

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// Without returns the path of bin/pythonX.Y in a fresh directory: a copy of a real interpreter
// whose lib/pythonX.Y holds links to the real standard library's entries except the ones named.
// It skips the test when no interpreter on this machine can be laid out so (a framework build, a
// Python whose library path is not relative to its executable).
func Without(t testing.TB, modules ...string) string {
	t.Helper()
	for _, cand := range []string{"/usr/bin/python3", "python3"} {
		if p, ok := build(t, cand, modules); ok {
			return p
		}
	}
	t.Skip("no python3 here can be copied with its standard library minus " + fmtList(modules))
	return ""
}

func build(t testing.TB, python string, modules []string) (string, bool) {
	t.Helper()
	exe, err := exec.LookPath(python)
	if err != nil {
		return "", false
	}
	out, err := exec.Command(exe, "-I", "-c", `import json, sys, sysconfig
print(json.dumps({"exe": sys.executable, "stdlib": sysconfig.get_paths()["stdlib"], "minor": "%d.%d" % sys.version_info[:2]}))`).Output()
	if err != nil {
		return "", false
	}
	var info struct{ Exe, Stdlib, Minor string }
	if json.Unmarshal(out, &info) != nil || info.Exe == "" || info.Stdlib == "" {
		return "", false
	}
	real, err := filepath.EvalSymlinks(info.Exe)
	if err != nil {
		return "", false
	}
	root := t.TempDir()
	lib := filepath.Join(root, "lib", "python"+info.Minor)
	bin := filepath.Join(root, "bin")
	for _, d := range []string{lib, bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(real)
	if err != nil {
		return "", false
	}
	py := filepath.Join(bin, "python"+info.Minor)
	if err := os.WriteFile(py, data, 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(info.Stdlib)
	if err != nil {
		return "", false
	}
	for _, e := range entries {
		if slices.Contains(modules, e.Name()) || slices.Contains(modules, trimPy(e.Name())) || e.Name() == "site-packages" || e.Name() == "dist-packages" {
			continue
		}
		if err := os.Symlink(filepath.Join(info.Stdlib, e.Name()), filepath.Join(lib, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	// The copy must run from its own prefix and miss exactly what was left out.
	check := `import sys, importlib.util as u; assert sys.prefix == sys.argv[1], sys.prefix; assert all(u.find_spec(m) is None for m in sys.argv[2:])`
	if out, err := exec.Command(py, append([]string{"-I", "-c", check, root}, modules...)...).CombinedOutput(); err != nil {
		t.Logf("%s laid out at %s does not stand alone: %v %s", python, root, err, out)
		return "", false
	}
	return py, true
}

func trimPy(name string) string {
	if filepath.Ext(name) == ".py" {
		return name[:len(name)-3]
	}
	return name
}

func fmtList(m []string) string {
	s := ""
	for i, x := range m {
		if i > 0 {
			s += ", "
		}
		s += x
	}
	return s
}
