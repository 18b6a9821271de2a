package install

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"time"

	"golang.org/x/sync/errgroup"

	"gpuwiz/steps/atomicfile"
	"gpuwiz/steps/fetch"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/urls"
)

// The wheel cache holds one folder per exact build (framework, version, channel): the wheels of
// that build are the same files whichever index or mirror served them, so a repair or a re-run
// reuses them from any source, and with none at all. cacheFile records, for every wheel in the
// folder, the sha256 it had when it was staged (pip checks a download against the hash the index
// gives) and where it came from; a wheel is reused only when its bytes still have that hash.
// Each record keeps the wheel's stamp as well (size, modification time and the file's id where the
// system gives one): while the stamp is the same, the bytes are, and the check does not read them
// again; a wheel whose stamp differs is hashed whole.
const cacheFile = "gpuwiz-wheels.json"

type cachedWheel struct {
	SHA256 string    `json:"sha256"`
	Size   int64     `json:"size"`
	From   string    `json:"from"` // the index or find-links page it was staged from (credentials removed)
	Staged time.Time `json:"staged"`
	Stamp  string    `json:"stamp,omitempty"` // the file's stamp when its sha256 was last computed or checked (stampOf)
}

// stampOf is a file's stamp: its size, modification time (to the nanosecond) and id (fileID: the
// inode and change time on Linux, the volume and file index on Windows); "" when it cannot be read.
func stampOf(path string) string {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	return fmt.Sprintf("%d:%d:%s", fi.Size(), fi.ModTime().UnixNano(), fileID(path, fi))
}

// stampsOf takes the stamps of files (before they are hashed: a change during the hash shows next time).
func stampsOf(files []string) map[string]string {
	out := make(map[string]string, len(files))
	for _, f := range files {
		out[f] = stampOf(f)
	}
	return out
}

type wheelRecord struct {
	Wheels map[string]cachedWheel `json:"wheels"` // file name → record
}

// StageDir is the wheel cache folder of one exact build.
func StageDir(cache string, t Target) string {
	v := t.FrameworkVersion
	if v == "" && len(t.Packages) > 0 {
		v = t.Packages[0].Version
	}
	return filepath.Join(cache, t.Framework+"-"+v+"-"+t.Channel)
}

func readWheelRecord(dir string) wheelRecord {
	rec := wheelRecord{Wheels: map[string]cachedWheel{}}
	b, err := os.ReadFile(filepath.Join(dir, cacheFile))
	if err != nil {
		return rec
	}
	// A record this version cannot read is as good as none: every wheel is checked again.
	if json.Unmarshal(b, &rec) != nil || rec.Wheels == nil {
		rec.Wheels = map[string]cachedWheel{}
	}
	return rec
}

func writeWheelRecord(dir string, rec wheelRecord) error {
	b, err := json.MarshalIndent(rec, "", " ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, cacheFile), b, 0o644)
}

// hashAll hashes files on every core: a torch build is 2.5–4.5 GB.
func hashAll(files []string) map[string]string {
	sums := make([]string, len(files))
	var g errgroup.Group
	g.SetLimit(max(1, runtime.NumCPU()))
	for i, f := range files {
		g.Go(func() error {
			if sum, err := fetch.FileSHA256(f); err == nil {
				sums[i] = sum // "" when it cannot be read
			}
			return nil
		})
	}
	_ = g.Wait()
	out := make(map[string]string, len(files))
	for i, f := range files {
		out[f] = sums[i]
	}
	return out
}

// cacheCheck is what the wheel cache holds of a build, after checking every wheel's bytes.
type cacheCheck struct {
	Verified []string // wheels whose sha256 matches the record (or the venv's lock)
	Bad      []string // wheels whose bytes changed since they were staged: never reused
	Unknown  []string // wheels with no recorded hash: never reused
	Bytes    int64    // size of the verified wheels
	Hashed   []string // wheels whose bytes were read (their stamp was not the recorded one)
}

// checkCache checks every wheel in dir against the cache's record, else against the hash the venv's
// lock recorded for that file name (wheels copied from another machine): a wheel whose stamp is the
// one recorded with its sha256 is taken as it is; any other is hashed (on every core) and compared,
// and its new stamp recorded when the hash matches.
func checkCache(dir string, lockHashes map[string]string) cacheCheck {
	var c cacheCheck
	staged, _ := stagedWheels(dir)
	if len(staged) == 0 {
		return c
	}
	rec := readWheelRecord(dir)
	var files []string
	stamps := map[string]string{}
	for _, w := range staged {
		r := rec.Wheels[filepath.Base(w.file)]
		st := stampOf(w.file)
		if r.SHA256 != "" && r.Stamp != "" && st == r.Stamp {
			continue
		}
		stamps[w.file] = st
		files = append(files, w.file)
	}
	sums := hashAll(files)
	changed := false
	for _, w := range staged {
		base := filepath.Base(w.file)
		r, inRecord := rec.Wheels[base]
		want := r.SHA256
		if want == "" {
			want = lockHashes[base]
		}
		got, hashed := sums[w.file]
		if !hashed {
			got = want // its stamp vouches for it
		} else {
			c.Hashed = append(c.Hashed, base)
		}
		switch {
		case want == "":
			c.Unknown = append(c.Unknown, base)
		case got != want:
			c.Bad = append(c.Bad, base)
		default:
			c.Verified = append(c.Verified, base)
			c.Bytes += w.size
			if hashed && inRecord && r.SHA256 != "" && stamps[w.file] != "" && r.Stamp != stamps[w.file] {
				r.Stamp = stamps[w.file]
				rec.Wheels[base] = r
				changed = true
			}
		}
	}
	if changed {
		_ = writeWheelRecord(dir, rec) // without it the next check hashes those wheels again
	}
	return c
}

// quarantine moves wheels that must not be reused out of the folder pip reads, so neither the
// offline try nor the download can pick them up; a download then fetches them again.
func quarantine(dir string, files []string) error {
	if len(files) == 0 {
		return nil
	}
	q := filepath.Join(dir, ".rejected")
	if err := os.MkdirAll(q, 0o755); err != nil {
		return err
	}
	for _, f := range files {
		if err := os.Rename(filepath.Join(dir, f), filepath.Join(q, f)); err != nil {
			return i18n.Wrap(err, i18n.T("install.err.quarantine", i18n.D{"File": f, "Err": err}))
		}
	}
	return nil
}

// recordNew adds to the cache's record every wheel in dir it does not list yet, with its sha256 and
// the source it was staged from.
func recordNew(dir, from string) error {
	rec := readWheelRecord(dir)
	staged, _ := stagedWheels(dir)
	var todo []string
	for _, w := range staged {
		r, ok := rec.Wheels[filepath.Base(w.file)]
		if !ok || r.Size != w.size {
			todo = append(todo, w.file)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	stamps := stampsOf(todo)
	sums := hashAll(todo)
	now := time.Now().UTC()
	for _, f := range todo {
		st, err := os.Stat(f)
		if err != nil || sums[f] == "" {
			continue
		}
		rec.Wheels[filepath.Base(f)] = cachedWheel{SHA256: sums[f], Size: st.Size(), From: urls.Strip(from), Staged: now, Stamp: stamps[f]}
	}
	return writeWheelRecord(dir, rec)
}

// Source is where an install takes its wheels from, and why.
type Source struct {
	Kind      string `json:"kind"`                 // "cache": every wheel is staged already; "index": some must be downloaded
	IndexURL  string `json:"index_url"`            // where what the cache lacks comes from
	FindLinks string `json:"find_links,omitempty"` // a flat page of the framework's wheels, searched with the index
	Why       string `json:"why"`
}

// cachedBuild says, from the cache's record alone (no hashing: the stage step checks every byte),
// whether the cache holds a wheel for every pin that a Python pyVersion on goos can install (see
// wheelRuns), and how many files and bytes it has.
func cachedBuild(dir string, pins []string, pyVersion, goos string) (ok bool, files int, bytes int64, from []string) {
	rec := readWheelRecord(dir)
	staged, _ := stagedWheels(dir)
	var known []wheelInfo
	seen := map[string]bool{}
	for _, w := range staged {
		r, ok := rec.Wheels[filepath.Base(w.file)]
		if !ok || r.Size != w.size || !wheelRuns(w.file, pyVersion, goos) {
			continue
		}
		known = append(known, w)
		files++
		bytes += w.size
		if r.From != "" && !seen[r.From] {
			seen[r.From] = true
			from = append(from, r.From)
		}
	}
	for _, p := range pins {
		if _, ok := wheelFor(known, p); !ok {
			return false, files, bytes, from
		}
	}
	sort.Strings(from)
	return len(pins) > 0, files, bytes, from
}
