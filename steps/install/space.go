package install

import (
	"archive/zip"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"gpuwiz/steps/fetch"
	"gpuwiz/steps/i18n"
)

// FreeSpace reads how much room the volume holding a folder has left for this user, and names the
// volume (two folders with the same name share their free space).
type FreeSpace interface {
	Free(dir string) (free uint64, volume string, err error)
}

// spaceReader is the machine's FreeSpace; tests replace it.
var spaceReader FreeSpace = osFreeSpace{}

// spaceMargin is room kept free beyond what a build needs: pip's temporary files, the .pyc files
// Python writes on first import, the log.
const spaceMargin = 256 << 20

// spaceNeed is one folder and how many bytes going into it.
type spaceNeed struct {
	Dir   string
	Bytes uint64
}

// SpaceError says that a folder's volume has not enough room: how much is needed and how much free.
type SpaceError struct {
	Dir    string // the folder the bytes go into
	Need   uint64
	Free   uint64
	Cache  bool  // the folder is the wheel cache
	During bool  // the disk filled up while the run went on (pip's "No space left on device")
	Cause  error // During: the error the step failed with
}

func (e *SpaceError) Unwrap() error { return e.Cause }

func (e *SpaceError) Error() string {
	todo := i18n.T("faults.space.todo_venv")
	if e.Cache {
		todo = i18n.T("faults.space.todo_cache")
	}
	if e.During {
		cause := ""
		if e.Cause != nil {
			cause = e.Cause.Error()
		}
		if e.Need == 0 {
			return i18n.T("faults.space.filled_unknown", i18n.D{"Dir": e.Dir, "Free": i18n.Size(int64(e.Free)), "Todo": todo, "Err": cause})
		}
		return i18n.T("faults.space.filled", i18n.D{"Dir": e.Dir, "Need": i18n.Size(int64(e.Need)), "Free": i18n.Size(int64(e.Free)), "Todo": todo, "Err": cause})
	}
	return i18n.T("faults.space.short", i18n.D{"Dir": e.Dir, "Need": i18n.Size(int64(e.Need)), "Free": i18n.Size(int64(e.Free)), "Todo": todo})
}

// checkSpace adds up what goes onto each volume (the venv and the wheel cache may share one) and
// returns a SpaceError for the first folder whose volume cannot take it with spaceMargin to spare.
// A volume whose free space cannot be read is not checked.
func checkSpace(fsr FreeSpace, cacheDir string, needs []spaceNeed) error {
	type vol struct {
		free  uint64
		need  uint64
		dir   string
		cache bool
	}
	vols := map[string]*vol{}
	var order []string
	for _, n := range needs {
		if n.Bytes == 0 {
			continue
		}
		free, id, err := fsr.Free(existingParent(n.Dir))
		if err != nil {
			continue
		}
		v, ok := vols[id]
		if !ok {
			v = &vol{free: free, dir: n.Dir, cache: n.Dir == cacheDir || strings.HasPrefix(n.Dir, cacheDir+string(filepath.Separator))}
			vols[id] = v
			order = append(order, id)
		}
		v.need += n.Bytes
	}
	for _, id := range order {
		v := vols[id]
		if v.need+spaceMargin > v.free {
			return &SpaceError{Dir: v.dir, Need: v.need + spaceMargin, Free: v.free, Cache: v.cache}
		}
	}
	return nil
}

// existingParent is dir, or its nearest parent that exists (a venv not yet made).
func existingParent(dir string) string {
	for p := dir; ; p = filepath.Dir(p) {
		if _, err := os.Stat(p); err == nil || filepath.Dir(p) == p {
			return p
		}
	}
}

// unpackedSize is what a wheel's files take once installed, from its zip central directory (no
// member is read).
func unpackedSize(wheel string) (uint64, error) {
	r, err := zip.OpenReader(wheel)
	if err != nil {
		return 0, err
	}
	defer r.Close()
	var n uint64
	for _, f := range r.File {
		n += f.UncompressedSize64
	}
	return n, nil
}

// installNeed is what the staged wheels of the build take in the venv once pip has unpacked them:
// every staged wheel but those of a dist already installed at that version (pip leaves those).
// The old files stay in the backup as hard links on the same volume, so nothing is freed before the
// new ones are written.
func (e *engine) installNeed() uint64 {
	staged, err := stagedWheels(e.plan.StageDir)
	if err != nil {
		return 0
	}
	have := freezeSet(e.snapshot)
	var n uint64
	for _, w := range staged {
		if line := have[w.name]; line != "" && strings.HasSuffix(line, "=="+w.version) {
			continue
		}
		if size, err := unpackedSize(w.file); err == nil {
			n += size
		}
	}
	return n
}

// checkVenvSpace checks, before the first change, that the venv's volume can take the build.
func (e *engine) checkVenvSpace() error {
	need := e.installNeed()
	e.spaceNeed = need
	return checkSpace(spaceReader, e.plan.StageDir, []spaceNeed{{Dir: e.plan.Venv, Bytes: need}})
}

// diskFull says whether err (and pip's output) is a full disk: ENOSPC, "No space left on device",
// or Windows's "There is not enough space on the disk".
func diskFull(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, syscall.ENOSPC) {
		return true
	}
	s := err.Error()
	return strings.Contains(s, "No space left on device") || strings.Contains(s, "[Errno 28]") ||
		strings.Contains(s, "not enough space on the disk") || strings.Contains(s, "磁盘空间不足")
}

// fullDiskError names the folder whose disk filled up during the step, with the numbers as the
// check before the run gives them: the wheel cache for a download, else the venv.
func (e *engine) fullDiskError(stepID string) *SpaceError {
	dir, cache, need := e.plan.Venv, false, e.spaceNeed
	if stepID == StepStage || stepID == StepStageDeps || stepID == StepStageOpt {
		dir, cache, need = e.plan.StageDir, true, 0
	}
	free, _, err := spaceReader.Free(existingParent(dir))
	if err != nil {
		return nil
	}
	if need > 0 {
		need += spaceMargin
	}
	return &SpaceError{Dir: dir, Need: need, Free: free, Cache: cache, During: true}
}

// checkCacheSpace checks, before a download, that the wheel cache's volume can take the files
// whose sizes the index gave and that are not in the cache whole already.
func (e *engine) checkCacheSpace(files []fetch.File) error {
	var n uint64
	for _, f := range files {
		if st, err := os.Stat(filepath.Join(e.plan.StageDir, f.Name)); err == nil && st.Size() == f.Size {
			continue
		}
		if f.Size > 0 {
			n += uint64(f.Size)
		}
	}
	return checkSpace(spaceReader, e.plan.StageDir, []spaceNeed{{Dir: e.plan.StageDir, Bytes: n}})
}
