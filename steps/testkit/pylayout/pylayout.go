// Package pylayout builds, for tests, real Python installations that differ from the machine's in
// one way: a copy of a real interpreter beside its standard library minus some modules, which is
// what a Debian or Ubuntu Python looks like without python3.X-venv (no ensurepip); or a conda-style
// env, a prefix with its own interpreter, its own site-packages with pip, and conda-meta/.
package pylayout

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Without returns the path of bin/pythonX.Y in a fresh directory: a copy of a real interpreter
// whose lib/pythonX.Y holds links to the real standard library's entries except the ones named.
// It skips the test when no interpreter on this machine can be laid out so (a framework build, a
// Python whose library path is not relative to its executable).
func Without(t testing.TB, modules ...string) string {
	t.Helper()
	for _, cand := range []string{"/usr/bin/python3", "python3"} {
		if p, _, ok := build(t, cand, modules); ok {
			return p
		}
	}
	t.Skip("no python3 here can be copied with its standard library minus " + fmtList(modules))
	return ""
}

// CondaEnv makes a conda-style env: a prefix holding a copy of a real interpreter (bin/python),
// links to its standard library, its own lib/pythonX.Y/site-packages with pip (from ensurepip, no
// network) and conda-meta/ with a record per given package ("pytorch=2.1.0") besides python's. It
// returns the prefix and its python, or skips the test when no interpreter can be laid out so.
func CondaEnv(t testing.TB, condaPackages ...string) (root, python string) {
	t.Helper()
	return CondaPrefix(t, true, condaPackages...)
}

// CondaPrefix is CondaEnv, with pip in its site-packages only when pip is true (ensurepip takes
// seconds).
func CondaPrefix(t testing.TB, pip bool, condaPackages ...string) (root, python string) {
	t.Helper()
	for _, cand := range []string{"python3", "/usr/bin/python3"} {
		py, minor, ok := build(t, cand, nil)
		if !ok {
			continue
		}
		root = filepath.Dir(filepath.Dir(py))
		site := filepath.Join(root, "lib", "python"+minor, "site-packages")
		if err := os.MkdirAll(site, 0o755); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(py, "-c", "import sysconfig, sys; print(sysconfig.get_paths()['purelib'])").Output()
		if err != nil || filepath.Clean(string(trimNL(out))) != site {
			continue // a Debian-patched Python puts pip's files elsewhere (local/.../dist-packages)
		}
		for _, name := range []string{"python", "python3"} {
			if err := os.Symlink("python"+minor, filepath.Join(root, "bin", name)); err != nil {
				t.Fatal(err)
			}
		}
		if pip {
			if out, err := exec.Command(py, "-m", "ensurepip", "--default-pip").CombinedOutput(); err != nil {
				t.Fatalf("ensurepip in the conda-style env: %v\n%s", err, out)
			}
		}
		meta := filepath.Join(root, "conda-meta")
		if err := os.MkdirAll(meta, 0o755); err != nil {
			t.Fatal(err)
		}
		records := append([]string{"python=" + minor + ".0"}, condaPackages...)
		for _, r := range records {
			name, version, _ := strings.Cut(r, "=")
			doc := fmt.Sprintf(`{"name": %q, "version": %q, "build": "h0_0", "channel": "https://conda.anaconda.org/conda-forge/linux-64", "files": []}`, name, version)
			if err := os.WriteFile(filepath.Join(meta, name+"-"+version+"-h0_0.json"), []byte(doc), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(meta, "history"), []byte("==> 2025-01-01 00:00:00 <==\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return root, filepath.Join(root, "bin", "python")
	}
	t.Skip("no python3 here can be laid out as a conda-style env")
	return "", ""
}

func trimNL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

func build(t testing.TB, python string, modules []string) (string, string, bool) {
	t.Helper()
	exe, err := exec.LookPath(python)
	if err != nil {
		return "", "", false
	}
	out, err := exec.Command(exe, "-I", "-c", `import json, sys, sysconfig
print(json.dumps({"exe": sys.executable, "stdlib": sysconfig.get_paths()["stdlib"], "minor": "%d.%d" % sys.version_info[:2]}))`).Output()
	if err != nil {
		return "", "", false
	}
	var info struct{ Exe, Stdlib, Minor string }
	if json.Unmarshal(out, &info) != nil || info.Exe == "" || info.Stdlib == "" {
		return "", "", false
	}
	real, err := filepath.EvalSymlinks(info.Exe)
	if err != nil {
		return "", "", false
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
		return "", "", false
	}
	py := filepath.Join(bin, "python"+info.Minor)
	if err := os.WriteFile(py, data, 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(info.Stdlib)
	if err != nil {
		return "", "", false
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
		return "", "", false
	}
	return py, info.Minor, true
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

// Embedded lays out, on this OS, what the Windows embeddable package is: a folder holding a copy
// of a real interpreter at its top (pythonX.Y), links to its standard library under lib/pythonX.Y
// (without venv and ensurepip), an empty lib/pythonX.Y/site-packages, and pythonX.Y._pth listing
// the library folders and "#import site" as the package ships it ("import site" when importSite).
// No pyvenv.cfg, no pip. It returns the folder and its interpreter, or skips the test when no
// interpreter here can be laid out so (a ._pth is read on every OS from Python 3.11).
func Embedded(t testing.TB, importSite bool) (root, python string) {
	t.Helper()
	for _, cand := range []string{"python3", "/usr/bin/python3"} {
		py, minor, ok := build(t, cand, []string{"ensurepip", "venv"})
		if !ok {
			continue
		}
		root = filepath.Dir(filepath.Dir(py))
		lib := filepath.Join("lib", "python"+minor)
		if err := os.MkdirAll(filepath.Join(root, lib, "site-packages"), 0o755); err != nil {
			t.Fatal(err)
		}
		python = filepath.Join(root, "python"+minor)
		if err := os.Rename(py, python); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(filepath.Dir(py)); err != nil {
			t.Fatal(err)
		}
		site := "#import site"
		if importSite {
			site = "import site"
		}
		pth := strings.Join([]string{lib, filepath.Join(lib, "lib-dynload"), ".", "", "# Uncomment to run site.main() automatically", site, ""}, "\n")
		if err := os.WriteFile(filepath.Join(root, "python"+minor+"._pth"), []byte(pth), 0o644); err != nil {
			t.Fatal(err)
		}
		check := `import sys; assert sys.prefix == sys.argv[1], sys.prefix; assert sys.flags.no_site == (sys.argv[2] == "0"), sys.flags.no_site`
		want := "0"
		if importSite {
			want = "1"
		}
		if out, err := exec.Command(python, "-c", check, root, want).CombinedOutput(); err != nil {
			t.Logf("%s as an embedded Python does not read its ._pth: %v %s", cand, err, out)
			continue
		}
		return root, python
	}
	t.Skip("no python3 here reads a ._pth file beside it (Python 3.11 or newer is needed)")
	return "", ""
}
