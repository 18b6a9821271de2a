package filetree

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A changed file, a new one, a removed folder and a changed link each show once; bytecode and the
// skipped folder never do.
func TestDiffSeesEveryChangeButCachesAndSkipped(t *testing.T) {
	root := t.TempDir()
	write := func(rel, body string) {
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a/x.py", "x = 1\n")
	write("a/__pycache__/x.cpython-311.pyc", "old")
	write("b/y.py", "y\n")
	write(".state/journal", "1")
	os.Symlink("a/x.py", filepath.Join(root, "link"))
	o := Options{Dirs: true, Skip: []string{".state"}}
	before := Sums(t, root, o, root)
	if d := Diff(before, Sums(t, root, o, root)); len(d) != 0 {
		t.Fatalf("the same tree differs: %v", d)
	}
	write("a/x.py", "x = 2\n")
	write("a/__pycache__/x.cpython-311.pyc", "new")
	write("a/z.py", "")
	write(".state/journal", "2")
	os.RemoveAll(filepath.Join(root, "b"))
	os.Remove(filepath.Join(root, "link"))
	os.Symlink("a/z.py", filepath.Join(root, "link"))
	got := Diff(before, Sums(t, root, o, root))
	want := []string{"changed or missing: a/x.py", "changed or missing: b/", "changed or missing: b/y.py", "changed or missing: link", "extra: a/z.py"}
	if !slices.Equal(got, want) {
		t.Fatalf("diff\n got %q\nwant %q", got, want)
	}
	if _, ok := before["a/__pycache__/"]; !ok {
		t.Errorf("the bytecode folder is not listed as a folder: %v", before)
	}
}

// Pair gives every path of either listing once, sorted, with each side's value and presence (an
// empty value that is there is not a missing one).
func TestPairWalksBothListings(t *testing.T) {
	var got []string
	for p, v := range Pair(map[string]string{"b": "1", "c": ""}, map[string]string{"a": "2", "b": "1"}) {
		got = append(got, fmt.Sprintf("%s %q %t %q %t", p, v.A, v.InA, v.B, v.InB))
	}
	want := []string{`a "" false "2" true`, `b "1" true "1" true`, `c "" true "" false`}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}
