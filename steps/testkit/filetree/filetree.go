// Package filetree gives tests the state of a folder as a value: every file by path with its
// sha256, so that "nothing was changed" and "this was put back exactly" are one comparison; Pair
// walks two such listings path by path.
package filetree

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"iter"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Options say what a listing holds besides the files.
type Options struct {
	// Dirs lists every folder too, as "dir", so that a folder made or removed shows; a bytecode
	// cache (__pycache__) is listed as a folder only, since Python rewrites its files whenever it runs.
	Dirs bool
	// Skip are folders, relative to the base, left out with all they hold (".gpuwiz").
	Skip []string
}

// Sums is every file under roots, by its path relative to base, with its sha256; a symbolic link
// is "-> target", a folder (with Options.Dirs) "dir". Bytecode caches' files are left out.
func Sums(t testing.TB, base string, o Options, roots ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, de fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(base, p)
			switch {
			case de.IsDir() && slices.Contains(o.Skip, filepath.ToSlash(rel)):
				return filepath.SkipDir
			case de.IsDir():
				if o.Dirs {
					out[rel+"/"] = "dir"
				}
				if de.Name() == "__pycache__" {
					return filepath.SkipDir
				}
				return nil
			case de.Type()&fs.ModeSymlink != 0:
				target, _ := os.Readlink(p)
				out[rel] = "-> " + target
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(b)
			out[rel] = hex.EncodeToString(sum[:])
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// Diff is what differs from before to after, one line a path, sorted: "changed or missing: P",
// "extra: P". Empty when the two are the same.
func Diff(before, after map[string]string) []string {
	var d []string
	for p, h := range before {
		if after[p] != h {
			d = append(d, "changed or missing: "+p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			d = append(d, "extra: "+p)
		}
	}
	slices.Sort(d)
	return d
}

// Both is what two listings hold at one path, and whether each has it.
type Both struct {
	A, B     string
	InA, InB bool
}

// Pair is every path of a or b, sorted, with what each holds there.
func Pair(a, b map[string]string) iter.Seq2[string, Both] {
	all := map[string]string{}
	maps.Copy(all, a)
	maps.Copy(all, b)
	return func(yield func(string, Both) bool) {
		for _, p := range slices.Sorted(maps.Keys(all)) {
			x, inA := a[p]
			y, inB := b[p]
			if !yield(p, Both{x, y, inA, inB}) {
				return
			}
		}
	}
}
