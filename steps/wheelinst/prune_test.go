package wheelinst

import (
	"os"
	"path/filepath"
	"sort"
	"testing"
)

func TestPruneKeepsWhatKeepNamesAndClearsLeftovers(t *testing.T) {
	root := t.TempDir()
	entry := func(name string, manifest bool) {
		dir := filepath.Join(root, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if manifest {
			if err := os.WriteFile(filepath.Join(dir, manifestName), []byte(`{"wheel":"`+name+`.whl","files":{"a":[1,2]}}`), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	entry("aaaa", true)
	entry("bbbb", true)
	entry("cccc", false)      // a broken unpack
	entry(".unpack-1", false) // an unpack that did not finish
	entry("aaaa.old-x", true) // a replaced entry not yet removed
	gone, err := Prune(root, func(e Entry) bool { return e.SHA256 == "aaaa" })
	if err != nil {
		t.Fatal(err)
	}
	if len(gone) != 1 || gone[0].SHA256 != "bbbb" {
		t.Fatalf("gone = %+v, want only bbbb", gone)
	}
	ents, _ := os.ReadDir(root)
	var left []string
	for _, e := range ents {
		left = append(left, e.Name())
	}
	sort.Strings(left)
	if len(left) != 1 || left[0] != "aaaa" {
		t.Fatalf("left %v, want [aaaa]", left)
	}
	if gone, err := Prune(root, nil); err != nil || len(gone) != 1 {
		t.Fatalf("Prune(nil) = %+v, %v; want aaaa gone", gone, err)
	}
}

// Prune stays inside the cache folder: a link in it to a folder outside (named like an entry, or
// inside an entry) goes as a link, and what it points to stays as it was.
func TestPruneDoesNotFollowLinksOutOfTheCache(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(outside, manifestName), []byte(`{"wheel":"x.whl","files":{"a":[1,2]}}`), 0o644))
	must(os.WriteFile(filepath.Join(outside, "keep.txt"), []byte("mine"), 0o644))
	must(os.Symlink(outside, filepath.Join(root, "dddd")))       // looks like an entry
	must(os.Symlink(outside, filepath.Join(root, "eeee.old-1"))) // looks like a replaced entry
	must(os.MkdirAll(filepath.Join(root, "ffff"), 0o755))        // an entry holding a link out
	must(os.WriteFile(filepath.Join(root, "ffff", manifestName), []byte(`{"wheel":"f.whl","files":{"a":[1,2]}}`), 0o644))
	must(os.Symlink(outside, filepath.Join(root, "ffff", "lib")))
	if _, err := Prune(root, nil); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{manifestName, "keep.txt"} {
		if _, err := os.Stat(filepath.Join(outside, f)); err != nil {
			t.Errorf("outside the cache, %s: %v", f, err)
		}
	}
	if ents, _ := os.ReadDir(root); len(ents) != 0 {
		t.Errorf("the cache still holds %d entries", len(ents))
	}
}
