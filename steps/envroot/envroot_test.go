package envroot

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// tempDir is t.TempDir but for its clean-up, which does not fail the test: Wine's unlinkat of a
// folder fails ("Invalid function") where Windows' does not.
func tempDir(t testing.TB) string {
	d, err := os.MkdirTemp("", "envroot-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

// tree is an environment folder with site-packages and a scripts folder, and beside it a folder
// outside the environment that a symlink inside points to.
func tree(t *testing.T) (env, site, outside string) {
	t.Helper()
	top := tempDir(t)
	env = filepath.Join(top, "venv")
	site = filepath.Join(env, "lib", "python3.11", "site-packages")
	outside = filepath.Join(top, "victim")
	for _, d := range []string{site, filepath.Join(env, "bin"), outside, filepath.Join(top, "venv2")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if runtime.GOOS != "windows" {
		if err := os.Symlink(outside, filepath.Join(site, "linked")); err != nil {
			t.Fatal(err)
		}
	}
	return env, site, outside
}

func TestRecordPathsOutsideTheEnvironmentAreRefused(t *testing.T) {
	env, site, outside := tree(t)
	r := New(env, site, filepath.Join(env, "bin"))
	cases := []struct {
		rel    string
		inside bool
	}{
		{"torch/__init__.py", true},
		{"torch-2.6.0.dist-info/RECORD", true},
		{"../../../bin/torchrun", true},
		{"./torch/../torch/x.py", true},
		{filepath.ToSlash(filepath.Join(outside, "abs.txt")), false},
		{"../../../../../../../../../../../../tmp/victim/rel.txt", false},
		{"../../../../victim/rel.txt", false},
		{"../../../../venv2/x", false}, // a sibling whose name starts with the root's
		{"../../../..", false},         // the folder above the root is not inside it
		{"../../../../venv", false},    // the root itself
		{"", false},                    // site-packages itself, a root
		{"torch", true},
	}
	if runtime.GOOS != "windows" {
		cases = append(cases,
			struct {
				rel    string
				inside bool
			}{"linked/file.txt", false},
			struct {
				rel    string
				inside bool
			}{"linked", true}, // the link itself: removing it leaves its target alone
		)
	}
	for _, c := range cases {
		p, ok := r.Join(site, c.rel)
		if ok != c.inside {
			t.Errorf("Join(site, %q) = %q, inside %v; want %v", c.rel, p, ok, c.inside)
		}
	}
}

func TestNoRootOrFolderAboveOneGoesWhole(t *testing.T) {
	env, site, outside := tree(t)
	bin := filepath.Join(env, "bin")
	r := New(env, site, bin)
	for _, d := range []string{env, site, bin, filepath.Dir(site), filepath.Dir(env), outside, "/"} {
		if r.Removable(d) {
			t.Errorf("Removable(%q) = true", d)
		}
	}
	for _, d := range []string{filepath.Join(site, "torch"), filepath.Join(site, "torch", "lib"), filepath.Join(env, "include", "x")} {
		if !r.Removable(d) {
			t.Errorf("Removable(%q) = false", d)
		}
	}
	if runtime.GOOS != "windows" && r.Removable(filepath.Join(site, "linked", "sub")) {
		t.Error("a folder reached through a symlink out of the environment is removable")
	}
}

func TestTheRootItselfReachedThroughALink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need a privilege on Windows")
	}
	env, site, _ := tree(t)
	alias := filepath.Join(t.TempDir(), "alias")
	if err := os.Symlink(env, alias); err != nil {
		t.Fatal(err)
	}
	r := New(alias) // the environment named through a link
	if !r.Inside(filepath.Join(site, "torch", "x.py")) {
		t.Error("a file of the environment named by its real path is outside")
	}
	if !r.Inside(filepath.Join(alias, "lib", "x.py")) {
		t.Error("a file named through the link is outside")
	}
}

func TestNoRootsNothingInside(t *testing.T) {
	var r Roots
	if r.Inside("/tmp/x") || r.Removable("/tmp/x") || r.Has() {
		t.Error("the zero Roots holds a path")
	}
	if New("relative/dir").Inside("relative/dir/x") {
		t.Error("a relative path is taken as inside")
	}
}

// FuzzRecordLine: no RECORD line is ever accepted for a path outside the environment. The check
// here is independent of the rule: the accepted path is made relative to the root after every
// link in its folders is followed by the operating system.
func FuzzRecordLine(f *testing.F) {
	for _, s := range []string{"torch/x.py", "../x", "/etc/passwd", "../../../../bin/x", "linked/x", "linked/../../x",
		"a/../../b", `..\..\x`, "C:x", `\\host\share\x`, "//host/share/x", "./././x", "a//b", "....//x", "linked"} {
		f.Add(s)
	}
	top := tempDir(f)
	env := filepath.Join(top, "env")
	site := filepath.Join(env, "site")
	if err := os.MkdirAll(filepath.Join(site, "a", "b"), 0o755); err != nil {
		f.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(top, "out"), 0o755); err != nil {
		f.Fatal(err)
	}
	if runtime.GOOS != "windows" {
		_ = os.Symlink(filepath.Join(top, "out"), filepath.Join(site, "linked"))
		_ = os.Symlink("../../out", filepath.Join(site, "a", "up"))
	}
	realEnv, _ := filepath.EvalSymlinks(env)
	r := New(env)
	f.Fuzz(func(t *testing.T, rel string) {
		p, ok := r.Join(site, rel)
		if !ok {
			return
		}
		dir := filepath.Dir(p)
		for {
			if real, err := filepath.EvalSymlinks(dir); err == nil {
				dir = real
				break
			}
			if filepath.Dir(dir) == dir {
				break
			}
			dir = filepath.Dir(dir)
		}
		rest, err := filepath.Rel(realEnv, dir)
		if filepath.Clean(p) == realEnv || filepath.Clean(p) == env {
			t.Fatalf("RECORD line %q accepted as the root itself", rel)
		}
		if err != nil || rest == ".." || strings.HasPrefix(rest, ".."+string(filepath.Separator)) {
			t.Fatalf("RECORD line %q accepted as %q, whose folder %q lies outside %q", rel, p, dir, realEnv)
		}
	})
}
