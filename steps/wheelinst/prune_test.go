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
