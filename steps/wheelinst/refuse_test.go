package wheelinst

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// gpuwiz's own installer, handed a broken or hostile wheel directly (no pip dry run before it),
// refuses it, names it, and leaves the environment and the working folder as they were.
func TestInstallRefusesBrokenAndHostileWheels(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the venv layout below is POSIX")
	}
	base := t.TempDir()
	root := filepath.Join(base, "venv")
	py := newVenv(t, root)
	ctx := context.Background()
	s, err := SchemeOf(ctx, CommandPython(py))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := func(name, body string) func(testing.TB) string {
		return func(t testing.TB) string {
			p := filepath.Join(dir, name)
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			return p
		}
	}
	wheel := func(dist string, members ...member) func(testing.TB) string {
		return func(t testing.TB) string {
			return buildWheel(t, dir, dist, "1.0", "py3-none-any", true, append([]member{{name: dist + "/__init__.py", body: "X = 1\n"}}, members...))
		}
	}
	cases := []struct {
		name  string
		build func(testing.TB) string
	}{
		{"not a zip", file("corrupt-1.0-py3-none-any.whl", "this is not a zip archive\n")},
		{"an empty file", file("empty-1.0-py3-none-any.whl", "")},
		{"a member above the environment", wheel("climb", member{name: "../../../../escape.py", body: "X = 1\n"})},
		{"a data member above its scheme folder", wheel("dataclimb", member{name: "dataclimb-1.0.data/purelib/../../../../escape.py", body: "X = 1\n"})},
		{"a data folder of no scheme", wheel("nokey", member{name: "nokey-1.0.data/bogus/x.txt", body: "x\n"})},
		{"a data file outside any scheme folder", wheel("flat", member{name: "flat-1.0.data/x.txt", body: "x\n"})},
		{"C headers", wheel("hdr", member{name: "hdr-1.0.data/headers/h.h", body: "int x;\n"})},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cwd := t.TempDir()
			t.Chdir(cwd)
			p := c.build(t)
			before := tree(t, base)
			_, err := Install(ctx, CommandPython(py), s, []Wheel{{Path: p, SHA256: sha(t, p), Requested: true}}, Options{})
			if err == nil {
				t.Fatalf("%s was installed", filepath.Base(p))
			}
			t.Logf("refused: %v", err)
			if after := tree(t, base); len(after) != len(before) {
				t.Errorf("the refusal changed the environment: %d files before, %d after", len(before), len(after))
			} else {
				for k, v := range before {
					if after[k] != v {
						t.Errorf("the refusal changed %s", k)
					}
				}
			}
			if left, _ := os.ReadDir(cwd); len(left) != 0 {
				t.Errorf("the refusal wrote into the working folder: %v", left)
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(base), "escape.py")); err == nil {
				t.Errorf("escape.py was written above the environment")
			}
		})
	}
}
