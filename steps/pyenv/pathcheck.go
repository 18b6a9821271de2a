package pyenv

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"unicode/utf8"

	"gpuwiz/steps/i18n"
)

// PathCheck is the verdict on a venv path before anything runs. Errors block; each message says
// what to do.
type PathCheck struct {
	Errors   []string `json:"errors,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
	// NotEnv: a folder with files in it that is no Python environment (Errors says to pick a new or
	// empty one, as a new venv needs; where an existing environment was asked for, it is not one).
	NotEnv bool `json:"not_env,omitempty"`
	// File: the path is a file (Errors says to choose another venv path; where an existing
	// environment was asked for, it is no environment's interpreter).
	File bool `json:"file,omitempty"`
}

// OK reports no blocking errors.
func (p PathCheck) OK() bool { return len(p.Errors) == 0 }

// windowsLongPath is where a venv path is too long for torch's deep file tree: site-packages adds
// about 60 characters and the longest torch files another ~120, against MAX_PATH 260.
const windowsLongPath = 200

// CheckVenvPath checks a venv location: not a file, an existing venv or a new directory whose
// nearest existing ancestor is a writable directory; on Windows, non-ASCII or long paths warn.
func CheckVenvPath(path, goos string) PathCheck {
	var pc PathCheck
	if strings.TrimSpace(path) == "" {
		pc.Errors = append(pc.Errors, i18n.T("pyenv.path.empty"))
		return pc
	}
	if goos == "windows" {
		checkWindowsPath(path, &pc)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		pc.Errors = append(pc.Errors, i18n.T("pyenv.path.unresolvable", i18n.D{"Path": strconv.Quote(path), "Err": err}))
		return pc
	}
	st, err := os.Stat(abs)
	switch {
	case err == nil && !st.IsDir():
		pc.Errors = append(pc.Errors, i18n.T("pyenv.path.is_file", i18n.D{"Path": abs}))
		pc.File = true
		return pc
	case err == nil:
		if (Venv{Root: abs}).Exists() {
			if !writable(abs) {
				pc.Errors = append(pc.Errors, i18n.T("pyenv.path.venv_not_writable", i18n.D{"Path": abs}))
			}
			return pc
		}
		if entries, _ := os.ReadDir(abs); len(entries) > 0 {
			// Mixing venv files into someone's folder cannot be undone cleanly if the install fails.
			pc.Errors = append(pc.Errors, i18n.T("pyenv.path.not_empty", i18n.D{"Path": abs, "Example": filepath.Join(abs, "venv")}))
			pc.NotEnv = true
			return pc
		}
		if !writable(abs) {
			pc.Errors = append(pc.Errors, i18n.T("pyenv.path.dir_not_writable", i18n.D{"Path": abs}))
		}
		return pc
	case !os.IsNotExist(err) && !errors.Is(err, syscall.ENOTDIR):
		pc.Errors = append(pc.Errors, i18n.T("pyenv.path.unusable", i18n.D{"Path": abs, "Err": err}))
		return pc
	}
	parent := filepath.Dir(abs)
	for {
		st, err := os.Stat(parent)
		if err == nil {
			if !st.IsDir() {
				pc.Errors = append(pc.Errors, i18n.T("pyenv.path.parent_is_file", i18n.D{"Parent": parent, "Path": abs}))
			} else if !writable(parent) {
				pc.Errors = append(pc.Errors, i18n.T("pyenv.path.parent_not_writable", i18n.D{"Path": abs, "Parent": parent}))
			}
			return pc
		}
		if !os.IsNotExist(err) && !errors.Is(err, syscall.ENOTDIR) {
			pc.Errors = append(pc.Errors, i18n.T("pyenv.path.cannot_create", i18n.D{"Path": abs, "Err": err}))
			return pc
		}
		up := filepath.Dir(parent)
		if up == parent {
			pc.Errors = append(pc.Errors, i18n.T("pyenv.path.no_part_exists", i18n.D{"Path": abs}))
			return pc
		}
		parent = up
	}
}

func checkWindowsPath(path string, pc *PathCheck) {
	for _, r := range path {
		if r >= utf8.RuneSelf {
			pc.Warnings = append(pc.Warnings, i18n.T("pyenv.path.non_ascii", i18n.D{"Path": path}))
			break
		}
	}
	if len(path) > windowsLongPath && !longPathsOn() {
		pc.Warnings = append(pc.Warnings, i18n.T("pyenv.path.too_long", i18n.D{"Length": len(path)}))
	}
}

// longPathsOn reads LongPathsEnabled (never on off Windows); tests replace it.
var longPathsOn = func() bool { lp := ReadLongPaths(); return lp.Known && lp.Enabled }

// writable tries a real file, since permission bits lie for root, ACLs and read-only mounts.
func writable(dir string) bool {
	f, err := os.CreateTemp(dir, ".gpuwiz-write-test-*")
	if err != nil {
		return false
	}
	name := f.Name()
	f.Close()
	os.Remove(name)
	return true
}
