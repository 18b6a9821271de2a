package install

import (
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"gpuwiz/steps/pep"
	"gpuwiz/steps/shellquote"
)

// siteState is what a venv's package folders hold, as a restore must give it back: the top-level
// entries of site-packages and of the scripts folder, and every dist-info's RECORD. pip freeze
// alone cannot judge a restore: it skips a dist-info whose metadata a failed pip left broken.
type siteState struct {
	Dirs    map[string][]string `json:"dirs"`    // folder → its entries, sorted ("name/" for a folder)
	Records map[string]string   `json:"records"` // dist-info folder (absolute) → sha256 of its RECORD, "" when it has none
	owned   map[string]bool     // every file a RECORD lists (absolute, cleaned)
	Owned   []string            `json:"owned,omitempty"` // owned, in the snapshot file (a later run's restore reads it back)
}

// ownedList is owned, sorted.
func (s siteState) ownedList() []string {
	out := make([]string, 0, len(s.owned))
	for p := range s.owned {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// loadSiteState reads a snapshot's folder listing back.
func loadSiteState(path string) (siteState, error) {
	var s siteState
	b, err := os.ReadFile(path)
	if err != nil {
		return s, err
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return s, err
	}
	s.owned = map[string]bool{}
	for _, p := range s.Owned {
		s.owned[p] = true
	}
	return s, nil
}

// Leftover is one way the venv differs from its snapshot after a failed restore, and how to clear it.
type Leftover struct {
	Path  string `json:"path"`
	What  string `json:"what"`  // "extra" (the run left it), "missing" (it was there before), "changed"
	Clear string `json:"clear"` // the command that clears it
}

// stateDirs are the folders a restore compares: site-packages and the scripts folder, as the
// interpreter reported them when the plan was made (the venv layout for a venv the run makes).
func (e *engine) stateDirs() []string {
	dirs := append([]string{}, siteDirs(e.plan.Had, e.plan.Venv)...)
	if e.manifest != nil && len(dirs) == 0 {
		dirs = append(dirs, e.manifest.Purelib)
		if e.manifest.Platlib != e.manifest.Purelib {
			dirs = append(dirs, e.manifest.Platlib)
		}
	}
	if s := e.plan.Had.Scripts; s != "" {
		return append(dirs, s)
	}
	return append(dirs, e.plan.venv.BinDir())
}

// ignoredEntry is what Python itself writes while it runs (bytecode caches): never a difference.
func ignoredEntry(name string) bool { return name == "__pycache__" || name == "__pycache__/" }

func readSiteState(dirs []string) (siteState, error) {
	s := siteState{Dirs: map[string][]string{}, Records: map[string]string{}, owned: map[string]bool{}}
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if os.IsNotExist(err) {
			s.Dirs[dir] = []string{}
			continue
		}
		if err != nil {
			return s, err
		}
		list := []string{}
		for _, en := range entries {
			name := en.Name()
			if en.IsDir() {
				name += "/"
			}
			if ignoredEntry(name) {
				continue
			}
			list = append(list, name)
			if !en.IsDir() || !strings.HasSuffix(en.Name(), ".dist-info") {
				continue
			}
			info := filepath.Join(dir, en.Name())
			rec, err := os.ReadFile(filepath.Join(info, "RECORD"))
			if err != nil {
				s.Records[info] = ""
				continue
			}
			sum := sha256.Sum256(rec)
			s.Records[info] = hex.EncodeToString(sum[:])
			rows, _ := csv.NewReader(strings.NewReader(string(rec))).ReadAll()
			for _, row := range rows {
				if len(row) == 0 || row[0] == "" {
					continue
				}
				p := filepath.Clean(filepath.Join(dir, filepath.FromSlash(row[0])))
				if filepath.IsAbs(row[0]) {
					p = filepath.Clean(row[0])
				}
				s.owned[p] = true
			}
		}
		slices.Sort(list)
		s.Dirs[dir] = list
	}
	return s, nil
}

// extraEntries are the top-level entries now present that the snapshot did not have.
func (s siteState) extraEntries(now siteState) []string {
	var out []string
	for dir, entries := range now.Dirs {
		before, ok := s.Dirs[dir]
		if !ok {
			continue
		}
		for _, en := range entries {
			if !slices.Contains(before, en) {
				out = append(out, filepath.Join(dir, strings.TrimSuffix(en, "/")))
			}
		}
	}
	slices.Sort(out)
	return out
}

// compare lists every difference between the snapshot s and now: entries the run left, entries
// that went, RECORDs that changed, and files a snapshot RECORD lists that are gone.
func (s siteState) compare(now siteState, goos, python string) []Leftover {
	var out []Leftover
	for _, p := range s.extraEntries(now) {
		out = append(out, Leftover{Path: p, What: "extra", Clear: removeCommand(goos, p)})
	}
	for dir, entries := range s.Dirs {
		for _, en := range entries {
			if !slices.Contains(now.Dirs[dir], en) {
				p := filepath.Join(dir, strings.TrimSuffix(en, "/"))
				out = append(out, Leftover{Path: p, What: "missing", Clear: reinstallCommand(python, p)})
			}
		}
	}
	for info, sum := range s.Records {
		got, ok := now.Records[info]
		if ok && got != sum {
			out = append(out, Leftover{Path: filepath.Join(info, "RECORD"), What: "changed", Clear: reinstallCommand(python, info)})
		}
	}
	var gone []string
	for p := range s.owned {
		if _, err := os.Lstat(p); err != nil && !strings.Contains(p, "__pycache__") {
			gone = append(gone, p)
		}
	}
	slices.Sort(gone)
	for _, p := range gone {
		out = append(out, Leftover{Path: p, What: "missing", Clear: reinstallCommand(python, p)})
	}
	slices.SortFunc(out, func(a, b Leftover) int { return strings.Compare(a.Path, b.Path) })
	return slices.CompactFunc(out, func(a, b Leftover) bool { return a.Path == b.Path })
}

// removeCommand deletes path in the shell a user of goos has: PowerShell on Windows.
func removeCommand(goos, path string) string {
	if goos == "windows" {
		return shellquote.PowerShell("Remove-Item", "-Recurse", "-Force", "-LiteralPath", path)
	}
	return shellquote.Posix("rm", "-rf", "--", path)
}

// reinstallCommand puts back the dist that owned path: the dist-info's name names it when path is
// in one; otherwise doctor finds the owner.
func reinstallCommand(python, path string) string {
	for p := path; p != filepath.Dir(p); p = filepath.Dir(p) {
		if name, version, ok := pep.DistInfo(filepath.Base(p)); ok {
			return shellquote.Command(hostGOOS(), python, "-m", "pip", "install", "--force-reinstall", "--no-deps", name+"=="+version)
		}
	}
	return shellquote.Command(hostGOOS(), "gpuwiz", "doctor", "--venv", filepath.Dir(filepath.Dir(python)), "--fix")
}

func hostGOOS() string { return runtime.GOOS }
