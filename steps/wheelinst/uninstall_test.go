package wheelinst

import (
	"context"
	"gpuwiz/steps/envroot"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// everything lists every file and folder under root, bytecode included, with its content hash.
func everything(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		if !strings.Contains(rel, "fake") && !strings.HasSuffix(rel, "share") {
			return nil // pip's own files: its runs write bytecode of their own
		}
		if d.IsDir() {
			out = append(out, rel+"/")
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			out = append(out, rel+" -> "+target)
			return nil
		}
		out = append(out, rel+" "+sha(t, p))
		return nil
	})
	sort.Strings(out)
	return out
}

// Uninstall leaves the venv as pip uninstall leaves it: after an install by pip and after one by
// gpuwiz, with bytecode Python wrote on import and a file the package made at run time (which keeps
// its folder, as with pip). Every file of both dists goes, their scripts too; nothing else changes.
func TestUninstallEqualsPip(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the venv layout below is POSIX")
	}
	base, wheels, _, ws := staged(t, familyWheels)
	root := filepath.Join(base, "venv")
	ctx := context.Background()
	// prepare installs the family (by pip or by gpuwiz), imports it so Python writes bytecode, and
	// leaves a file of its own in a package folder.
	prepare := func(byPip bool) string {
		os.RemoveAll(root)
		py := newVenv(t, root)
		if byPip {
			pipInstall(t, py, wheels, "fakelib==2.1.0+cu126", "fakedep==1.0")
		} else {
			s, err := SchemeOf(ctx, CommandPython(py))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Install(ctx, CommandPython(py), s, ws, Options{}); err != nil {
				t.Fatal(err)
			}
		}
		if out, err := exec.Command(py, "-c", "import fakelib, fakedep.sub.mod, fakelib_extra").CombinedOutput(); err != nil {
			t.Fatalf("import: %v %s", err, out)
		}
		site, _ := filepath.Glob(filepath.Join(root, "lib", "python3*", "site-packages"))
		if err := os.WriteFile(filepath.Join(site[0], "fakelib", "lib", "made-at-run-time.cache"), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		return py
	}
	py := prepare(true)
	if out, err := exec.Command(py, "-m", "pip", "uninstall", "-y", "fakelib", "fakedep").CombinedOutput(); err != nil {
		t.Fatalf("pip uninstall: %v %s", err, out)
	}
	want := everything(t, root)
	for _, byPip := range []bool{true, false} {
		prepare(byPip)
		site, _ := filepath.Glob(filepath.Join(root, "lib", "python3*", "site-packages"))
		dists := Installed(site[0])
		for _, d := range []string{"fakelib", "fakedep"} {
			removed, outside, err := Uninstall(dists[d], envroot.New(root, site[0]))
			if len(outside) > 0 {
				t.Errorf("Uninstall %s: refused %v", d, outside)
			}
			if err != nil || len(removed) == 0 {
				t.Fatalf("Uninstall %s: %v (%d removed)", d, err, len(removed))
			}
		}
		got := everything(t, root)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("installed by pip %v: after gpuwiz's uninstall the venv differs from pip's:\n%s", byPip, diffLists(want, got))
		}
	}
}

// An uninstall that cannot remove a file says so (pip's would fail too), after removing the rest:
// on Windows, a DLL that a running Python has loaded (stood in for here).
func TestUninstallSaysWhatItCouldNotRemove(t *testing.T) {
	site := t.TempDir()
	info := filepath.Join(site, "x-1.0.dist-info")
	os.MkdirAll(filepath.Join(site, "x", "lib"), 0o755)
	os.MkdirAll(info, 0o755)
	for _, f := range []string{"x/a.py", "x/lib/held.dll", "x/lib/b.py"} {
		os.WriteFile(filepath.Join(site, f), nil, 0o644)
	}
	os.WriteFile(filepath.Join(info, "RECORD"), []byte("x/a.py,,\nx/lib/held.dll,,\nx/lib/b.py,,\nx-1.0.dist-info/RECORD,,\n"), 0o644)
	held := filepath.Join(site, "x", "lib", "held.dll")
	was, wasAll := remove, removeAll
	defer func() { remove, removeAll = was, wasAll }()
	remove = func(p string) error {
		if p == held {
			return &fs.PathError{Op: "remove", Path: p, Err: fs.ErrPermission}
		}
		return os.Remove(p)
	}
	removeAll = func(p string) error {
		if strings.HasPrefix(held, p+string(filepath.Separator)) {
			// Windows' RemoveAll takes what it can and fails on the held file.
			filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() && q != held {
					os.Remove(q)
				}
				return nil
			})
			return &fs.PathError{Op: "remove", Path: held, Err: fs.ErrPermission}
		}
		return os.RemoveAll(p)
	}
	removed, _, err := Uninstall(info, envroot.New(site))
	if err == nil || !strings.Contains(err.Error(), "held.dll") {
		t.Fatalf("want an error naming held.dll, got %v", err)
	}
	if len(removed) != 3 || strings.Contains(strings.Join(removed, " "), "held") {
		t.Errorf("every other file should go, and the list name only those: removed %v", removed)
	}
	if _, err := os.Stat(held); err != nil {
		t.Errorf("the held file: %v", err)
	}
}

func diffLists(want, got []string) string {
	w, g := map[string]bool{}, map[string]bool{}
	for _, x := range want {
		w[x] = true
	}
	for _, x := range got {
		g[x] = true
	}
	var b strings.Builder
	for _, x := range want {
		if !g[x] {
			b.WriteString("  only after pip:    " + x + "\n")
		}
	}
	for _, x := range got {
		if !w[x] {
			b.WriteString("  only after gpuwiz: " + x + "\n")
		}
	}
	return b.String()
}

// RemoveTree takes a deep tree of thousands of files on every core as RemoveAll would: all of it
// goes, a link inside goes without what it points to, and a path that is not there is no error.
func TestRemoveTreeRemovesADeepTreeAndNoLinkTarget(t *testing.T) {
	root := filepath.Join(t.TempDir(), "torch")
	outside := filepath.Join(t.TempDir(), "outside")
	if err := os.MkdirAll(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(outside, "keep.txt"), []byte("mine"), 0o644)
	for i := range 40 {
		d := filepath.Join(root, "include", strconv.Itoa(i%7), strconv.Itoa(i), "deep")
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		for j := range 60 {
			os.WriteFile(filepath.Join(d, strconv.Itoa(j)+".h"), []byte("x"), 0o644)
		}
	}
	os.WriteFile(filepath.Join(root, "__init__.py"), nil, 0o644)
	if err := os.Symlink(outside, filepath.Join(root, "include", "link")); err != nil {
		t.Fatal(err)
	}
	if err := RemoveTree(root); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(root); !os.IsNotExist(err) {
		t.Fatalf("%s is still there: %v", root, err)
	}
	if b, err := os.ReadFile(filepath.Join(outside, "keep.txt")); err != nil || string(b) != "mine" {
		t.Fatalf("the link's target was touched: %v", err)
	}
	if err := RemoveTree(root); err != nil {
		t.Fatalf("a path that is not there: %v", err)
	}
}
