package install

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// fakeSpace says every folder has free bytes, on one volume.
type fakeSpace struct{ free uint64 }

func (f fakeSpace) Free(string) (uint64, string, error) { return f.free, "fake", nil }

// lyingSpace says there is a lot of room the first time it is asked (the check before the run),
// and then the truth: a disk that fills up although the check passed.
type lyingSpace struct{ calls atomic.Int32 }

func (l *lyingSpace) Free(dir string) (uint64, string, error) {
	if l.calls.Add(1) == 1 {
		return 1 << 40, "lie", nil
	}
	return osFreeSpace{}.Free(dir)
}

func withSpace(t *testing.T, f FreeSpace) {
	old := spaceReader
	spaceReader = f
	t.Cleanup(func() { spaceReader = old })
}

func TestCheckSpaceAddsUpWhatSharesAVolume(t *testing.T) {
	venv, cache := filepath.Join("/v", "venv"), filepath.Join("/c", "wheels")
	needs := []spaceNeed{{Dir: venv, Bytes: 300 << 20}, {Dir: cache, Bytes: 300 << 20}}
	// One volume with 700 MiB: each fits alone, both with the margin do not.
	err := checkSpace(fakeSpace{free: 700 << 20}, cache, needs)
	var se *SpaceError
	if !errors.As(err, &se) || se.Dir != venv || se.Need != 600<<20+spaceMargin || se.Free != 700<<20 {
		t.Fatalf("want the venv's volume short: %#v", err)
	}
	if err := checkSpace(fakeSpace{free: 1 << 30}, cache, needs); err != nil {
		t.Fatalf("1 GiB is enough: %v", err)
	}
	if err := checkSpace(fakeSpace{free: 1 << 20}, cache, nil); err != nil {
		t.Fatalf("nothing needed, nothing refused: %v", err)
	}
	se = &SpaceError{Dir: cache, Need: 2 << 30, Free: 1 << 30, Cache: true}
	for _, want := range []string{cache, "2.0 GiB", "1.0 GiB", "--cache-dir", "GPUWIZ_CACHE_DIR", "nothing was changed"} {
		if !strings.Contains(se.Error(), want) {
			t.Errorf("%q does not say %q", se.Error(), want)
		}
	}
}

func TestUnpackedSizeReadsTheCentralDirectory(t *testing.T) {
	w := buildWheels(t)["cu126"][0] // torch, padded with 24 MiB
	n, err := unpackedSize(w)
	st, _ := os.Stat(w)
	if err != nil || n < 24<<20 || n < uint64(st.Size()) {
		t.Fatalf("unpacked size of %s: %d (file %d), %v", w, n, st.Size(), err)
	}
}

// A switch whose new build does not fit on the venv's drive (the free-space reader says 100 MiB) is
// refused before the first change: the venv is as it was, and the error names the folder, what is
// needed and what is free.
func TestNoRoomIsRefusedBeforeTheFirstChange(t *testing.T) {
	withSpace(t, fakeSpace{free: 100 << 20})
	ix := serve(t)
	v := userVenv(t)
	before := freeze(t, v)
	_, out, _ := install(t, context.Background(), options(t, v, torchTarget(ix, "cu126"), t.TempDir()), nil)
	var se *SpaceError
	if out.Result != ResultUnchanged || out.FailedStep != StepBackup || !errors.As(out.Err, &se) || se.Dir != v.Root || se.Free != 100<<20 || se.Need < 24<<20 {
		t.Fatalf("want a refusal at the backup, naming the venv: %+v", out)
	}
	if after := freeze(t, v); after != before {
		t.Fatalf("pip freeze changed:\nbefore\n%s\nafter\n%s", before, after)
	}
	if j, _ := ReadJournal(v.Root); j == nil || j.Open() || j.Result != ResultUnchanged {
		t.Fatalf("the journal should be closed: %+v", j)
	}
}
