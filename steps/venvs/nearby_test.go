package venvs

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// tree makes width folders on each of depth levels under root, an embedded Python beside the start
// folder (root/bundle/python_embeded) and a venv in each folder of the first level; it returns the
// start folder (root/bundle/ComfyUI).
func tree(t testing.TB, root string, width, depth int) string {
	t.Helper()
	write := func(p string) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	start := filepath.Join(root, "bundle", "ComfyUI")
	write(filepath.Join(root, "bundle", "python_embeded", "python3.12"))
	write(filepath.Join(root, "bundle", "python_embeded", "python312._pth"))
	var mk func(dir string, level int)
	mk = func(dir string, level int) {
		if level == depth {
			return
		}
		for i := range width {
			sub := filepath.Join(dir, "d"+strconv.Itoa(i))
			if err := os.MkdirAll(sub, 0o755); err != nil {
				t.Fatal(err)
			}
			if level == 0 {
				write(filepath.Join(sub, ".venv", "pyvenv.cfg"))
			}
			mk(sub, level+1)
		}
	}
	mk(start, 0)
	return start
}

func TestNearbyIsBoundedAndFindsTheBundle(t *testing.T) {
	root := t.TempDir()
	start := tree(t, root, 3, 4)
	found := Nearby("linux", start)
	if !slices.Contains(found, filepath.Join(root, "bundle", "python_embeded")) {
		t.Errorf("the bundle beside the start folder was not found: %q", found)
	}
	if !slices.Contains(found, filepath.Join(start, "d0", ".venv")) {
		t.Errorf("a venv two levels down was not found: %q", found)
	}
	for _, f := range found {
		if rel, _ := filepath.Rel(start, f); len(filepath.SplitList(rel)) > 0 && depthOf(rel) > nearbyDepth {
			t.Errorf("%s is deeper than %d levels below the start", f, nearbyDepth)
		}
	}
}

func depthOf(rel string) int {
	n := 1
	for _, c := range rel {
		if c == filepath.Separator {
			n++
		}
	}
	return n
}

// BenchmarkNearby is the search of gpuwiz envs and the wizard's environment screen, from a folder
// with 20 subfolders on each of 3 levels below it (8,420 folders; the search looks at the 420 of
// the first 2 levels, and at the folders above).
func BenchmarkNearby(b *testing.B) {
	start := tree(b, b.TempDir(), 20, 3)
	b.ResetTimer()
	for b.Loop() {
		if len(Nearby("linux", start)) == 0 {
			b.Fatal("nothing found")
		}
	}
}
