package install

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"gpuwiz/steps/testkit/pyindex"
)

// The cache's check reads a wheel's bytes only when its stamp (size, modification time, file id)
// is not the one recorded with its sha256: an unchanged wheel is not hashed, a touched one is
// hashed once (and its new stamp kept), a corrupted one (same size, same modification time) is
// hashed and caught.
func TestCacheCheckHashesOnlyWheelsWhoseStampChanged(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for _, d := range []string{"alpha", "beta", "gamma"} {
		p, err := pyindex.BuildWheel(dir, d, "1.0", map[string]string{d + "/__init__.py": "x = 1\n"}, nil, 64<<10)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, filepath.Base(p))
	}
	if err := recordNew(dir, "https://example.invalid/simple"); err != nil {
		t.Fatal(err)
	}
	check := func(what string, wantHashed, wantBad []string) {
		t.Helper()
		c := checkCache(dir, nil)
		slices.Sort(c.Hashed)
		if !slices.Equal(c.Hashed, wantHashed) || !slices.Equal(c.Bad, wantBad) || len(c.Verified)+len(c.Bad) != len(files) {
			t.Errorf("%s: hashed %v (want %v), bad %v (want %v), verified %v", what, c.Hashed, wantHashed, c.Bad, wantBad, c.Verified)
		}
	}
	check("unchanged since staged", nil, nil)
	check("unchanged, again", nil, nil)

	touched := filepath.Join(dir, files[1])
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(touched, later, later); err != nil {
		t.Fatal(err)
	}
	check("touched", []string{files[1]}, nil)
	check("touched, checked once already", nil, nil)

	// Replaced by a copy of the same bytes and times: another file, hashed once.
	b, _ := os.ReadFile(touched)
	if err := os.Remove(touched); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(touched, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(touched, later, later); err != nil {
		t.Fatal(err)
	}
	check("replaced by a copy", []string{files[1]}, nil)

	corrupt(t, filepath.Join(dir, files[2]))
	check("corrupted in place", []string{files[2]}, []string{files[2]})
	check("corrupted, again", []string{files[2]}, []string{files[2]})
}

// BenchmarkCacheCheck checks the tests' torch family in the cache (24 MiB torch) by the recorded
// stamps, against reading every byte as the check did before stamps.
func BenchmarkCacheCheck(b *testing.B) {
	dir := b.TempDir()
	for _, f := range buildWheels(b)["cu126"] {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	if err := recordNew(dir, "https://example.invalid/simple"); err != nil {
		b.Fatal(err)
	}
	b.Run("stamps", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if c := checkCache(dir, nil); len(c.Hashed) != 0 || len(c.Verified) != 4 {
				b.Fatalf("%+v", c)
			}
		}
	})
	b.Run("hash-every-wheel", func(b *testing.B) {
		staged, _ := stagedWheels(dir)
		var files []string
		for _, w := range staged {
			files = append(files, w.file)
		}
		for i := 0; i < b.N; i++ {
			hashAll(files)
		}
	})
}
