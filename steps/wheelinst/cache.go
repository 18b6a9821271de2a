package wheelinst

import (
	"context"
	"encoding/json"
	"errors"
	"gpuwiz/steps/envroot"
	"gpuwiz/steps/i18n"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// The unpacked cache holds each wheel it has installed, unpacked, in a folder named by the wheel's
// sha256: DIR/<sha256>/ holds the archive's files at their archive paths and manifest.json, written
// last, with each file's size and modification time. A wheel found there is installed by hard links
// (no bytes copied). A file edited in place in an environment is the same file in the cache: the
// manifest check before every use finds the changed size or time, and the entry is unpacked again
// before anything links to it. Files gpuwiz itself rewrites after installing (RECORD, INSTALLER,
// REQUESTED, data scripts) are replaced by rename or copied, never written through a link.
const manifestName = "manifest.json"

type cacheManifest struct {
	Wheel   string              `json:"wheel"`
	Created time.Time           `json:"created"`
	Files   map[string][2]int64 `json:"files"` // archive path → size, modification time (ns)
}

// entryDir is where a wheel with this sha256 is unpacked.
func entryDir(root, sha string) string { return filepath.Join(root, strings.ToLower(sha)) }

func readManifest(dir string) (cacheManifest, bool) {
	var m cacheManifest
	b, err := os.ReadFile(filepath.Join(dir, manifestName))
	if err != nil || json.Unmarshal(b, &m) != nil || m.Files == nil {
		return m, false
	}
	return m, true
}

// intact says whether every file of the entry still has the size and time it was unpacked with.
func intact(dir string, a *archive, m cacheManifest) bool {
	if len(m.Files) != len(a.members) {
		return false
	}
	in := envroot.New(dir) // a file reached through a link out of the entry is not the entry's
	for _, f := range a.members {
		want, ok := m.Files[f.Name]
		if !ok {
			return false
		}
		p, inside := in.Join(dir, f.Name)
		if !inside {
			return false
		}
		st, err := os.Lstat(p)
		if err != nil || !st.Mode().IsRegular() || st.Size() != want[0] || st.ModTime().UnixNano() != want[1] {
			return false
		}
	}
	return true
}

// ensureUnpackedAll returns the cache folders of the archives' wheels, unpacking those not there
// whole first: all of them in one pass over every core, largest files first, so that the biggest
// member of each wheel (a CUDA library of a gigabyte, inflated on one core) starts at once instead
// of after the wheels before it.
func ensureUnpackedAll(ctx context.Context, root string, as []*archive, workers, umask int) (map[*archive]string, map[*archive]error) {
	dirs, errs := map[*archive]string{}, map[*archive]error{}
	tmps := map[*archive]string{}
	var files []placed
	for _, a := range as {
		dir := entryDir(root, a.w.SHA256)
		if m, ok := readManifest(dir); ok && intact(dir, a, m) {
			dirs[a] = dir
			continue
		}
		if err := os.MkdirAll(root, 0o755); err != nil {
			errs[a] = err
			continue
		}
		tmp, err := os.MkdirTemp(root, ".unpack-*")
		if err != nil {
			errs[a] = err
			continue
		}
		defer os.RemoveAll(tmp)
		mine, err := unpackPlan(tmp, a)
		if err != nil {
			errs[a] = err
			continue
		}
		tmps[a] = tmp
		files = append(files, mine...)
	}
	if len(tmps) == 0 {
		return dirs, errs
	}
	if _, _, _, err := writeAll(ctx, files, nil, Scheme{Umask: umask}, workers); err != nil {
		for a := range tmps {
			errs[a] = err
		}
		return dirs, errs
	}
	for a, tmp := range tmps {
		dir, err := finishUnpack(root, tmp, a)
		if err != nil {
			errs[a] = err
			continue
		}
		dirs[a] = dir
	}
	return dirs, errs
}

// finishUnpack writes the manifest of a finished unpack in tmp and puts it in its place.
func finishUnpack(root, tmp string, a *archive) (string, error) {
	dir := entryDir(root, a.w.SHA256)
	m := cacheManifest{Wheel: filepath.Base(a.w.Path), Created: time.Now().UTC(), Files: map[string][2]int64{}}
	for _, f := range a.members {
		st, err := os.Lstat(filepath.Join(tmp, filepath.FromSlash(f.Name)))
		if err != nil {
			return "", err
		}
		m.Files[f.Name] = [2]int64{st.Size(), st.ModTime().UnixNano()}
	}
	b, _ := json.Marshal(m)
	if err := os.WriteFile(filepath.Join(tmp, manifestName), b, 0o644); err != nil {
		return "", err
	}
	// Another gpuwiz may have unpacked the same wheel meanwhile, or a damaged entry is in the way.
	old := dir + ".old-" + filepath.Base(tmp)
	if err := os.Rename(dir, old); err == nil {
		defer os.RemoveAll(old)
	}
	if err := os.Rename(tmp, dir); err != nil {
		return "", err
	}
	return dir, nil
}

// unpackPlan is every member of a, placed under dir with the mode pip gives it.
func unpackPlan(dir string, a *archive) ([]placed, error) {
	var files []placed
	for _, f := range a.members {
		p := placed{a: a, f: f, exec: isExecutable(f), dest: filepath.Join(dir, filepath.FromSlash(f.Name))}
		if rel, err := filepath.Rel(dir, p.dest); err != nil || strings.HasPrefix(rel, "..") {
			return nil, errors.New(i18n.T("wheelinst.err.outside", i18n.D{"Wheel": filepath.Base(a.w.Path), "File": f.Name, "Dir": dir}))
		}
		files = append(files, p)
	}
	return files, nil
}

// Entry is one unpacked wheel in the cache.
type Entry struct {
	SHA256  string    `json:"sha256"`
	Wheel   string    `json:"wheel"`
	Files   int       `json:"files"`
	Bytes   int64     `json:"bytes"`
	Created time.Time `json:"created"`
	Dir     string    `json:"dir"`
}

// List reads the cache's entries (a folder without a manifest is a broken unpack: left out, and
// removed by Prune).
func List(root string) ([]Entry, error) {
	ents, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, e := range ents {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") || strings.Contains(e.Name(), ".old-") {
			continue
		}
		dir := filepath.Join(root, e.Name())
		m, ok := readManifest(dir)
		if !ok {
			continue
		}
		en := Entry{SHA256: e.Name(), Wheel: m.Wheel, Files: len(m.Files), Created: m.Created, Dir: dir}
		for _, f := range m.Files {
			en.Bytes += f[0]
		}
		out = append(out, en)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Wheel < out[j].Wheel })
	return out, nil
}

// Prune removes entries whose sha256 keep does not name (nil keep: all of them), and leftovers of
// unpacks that did not finish. It stays inside root: a link there goes as a link, never followed. It returns what it removed. Environments linked to a removed entry
// keep their files (a hard link outlives the cache's name for it).
func Prune(root string, keep func(Entry) bool) ([]Entry, error) {
	list, err := List(root)
	if err != nil {
		return nil, err
	}
	var gone []Entry
	listed := map[string]bool{} // read whole by List: not leftovers
	for _, e := range list {
		if keep != nil && keep(e) {
			listed[e.Dir] = true
			continue
		}
		if err := os.RemoveAll(e.Dir); err != nil {
			return gone, err
		}
		gone = append(gone, e)
	}
	ents, _ := os.ReadDir(root)
	for _, e := range ents {
		dir := filepath.Join(root, e.Name())
		if listed[dir] {
			continue
		}
		if !e.IsDir() {
			os.Remove(dir) // a link or a file is no entry; removing a link leaves what it points to
			continue
		}
		if _, ok := readManifest(dir); !ok || strings.Contains(e.Name(), ".old-") || strings.HasPrefix(e.Name(), ".unpack-") {
			os.RemoveAll(dir)
		}
	}
	return gone, nil
}

// OwnPipEnv names the variable that points the launcher helper at a folder holding pip/ (gpuwiz's
// own pip), for an environment that has no pip of its own: it is searched after the environment's
// own paths.
const OwnPipEnv = "GPUWIZ_OWN_PIP"

// Unpacked returns the folder of the unpacked cache under root that holds w (its SHA256 set) whole,
// unpacking it there first when it is missing or no longer intact.
func Unpacked(ctx context.Context, root string, w Wheel) (string, error) {
	if w.SHA256 == "" {
		return "", errors.New("wheelinst: Unpacked needs the wheel's sha256") //i18n:raw a programming error
	}
	a, err := openWheel(w)
	if err != nil {
		return "", err
	}
	defer a.close()
	dirs, errs := ensureUnpackedAll(ctx, root, []*archive{a}, 4, 0o022)
	if err := errs[a]; err != nil {
		return "", err
	}
	return dirs[a], nil
}
