package pyenv

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"unicode/utf8"
)

// PathCheck is the verdict on a venv path before anything runs. Errors block; each message says
// what to do.
type PathCheck struct {
	Errors   []string `json:"errors,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
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
		pc.Errors = append(pc.Errors, "no venv path given: pass a directory such as ./venv")
		return pc
	}
	if goos == "windows" {
		checkWindowsPath(path, &pc)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		pc.Errors = append(pc.Errors, fmt.Sprintf("cannot resolve %q: %v", path, err))
		return pc
	}
	st, err := os.Stat(abs)
	switch {
	case err == nil && !st.IsDir():
		pc.Errors = append(pc.Errors, fmt.Sprintf("%s is a file, not a directory: choose another venv path or move the file away", abs))
		return pc
	case err == nil:
		if (Venv{Root: abs}).Exists() {
			if !writable(abs) {
				pc.Errors = append(pc.Errors, fmt.Sprintf("the venv %s is not writable by you: fix its permissions or choose another path", abs))
			}
			return pc
		}
		if entries, _ := os.ReadDir(abs); len(entries) > 0 {
			// Mixing venv files into someone's folder cannot be undone cleanly if the install fails.
			pc.Errors = append(pc.Errors, fmt.Sprintf("%s exists, is not empty and is not a venv: choose a new or empty directory (for example %s)", abs, filepath.Join(abs, "venv")))
			return pc
		}
		if !writable(abs) {
			pc.Errors = append(pc.Errors, fmt.Sprintf("cannot write in %s: choose a directory you own", abs))
		}
		return pc
	case !os.IsNotExist(err) && !errors.Is(err, syscall.ENOTDIR):
		pc.Errors = append(pc.Errors, fmt.Sprintf("cannot use %s: %v", abs, err))
		return pc
	}
	parent := filepath.Dir(abs)
	for {
		st, err := os.Stat(parent)
		if err == nil {
			if !st.IsDir() {
				pc.Errors = append(pc.Errors, fmt.Sprintf("%s is a file, so %s cannot be made under it: choose another venv path", parent, abs))
			} else if !writable(parent) {
				pc.Errors = append(pc.Errors, fmt.Sprintf("cannot create %s: %s is not writable; choose a directory you own (for example under your home)", abs, parent))
			}
			return pc
		}
		if !os.IsNotExist(err) && !errors.Is(err, syscall.ENOTDIR) {
			pc.Errors = append(pc.Errors, fmt.Sprintf("cannot create %s: %v", abs, err))
			return pc
		}
		up := filepath.Dir(parent)
		if up == parent {
			pc.Errors = append(pc.Errors, fmt.Sprintf("cannot create %s: no part of it exists", abs))
			return pc
		}
		parent = up
	}
}

func checkWindowsPath(path string, pc *PathCheck) {
	for _, r := range path {
		if r >= utf8.RuneSelf {
			pc.Warnings = append(pc.Warnings, fmt.Sprintf("%s has non-ASCII characters, which break some pip and CUDA tools (UnicodeDecodeError): use a short ASCII root such as C:\\venvs\\torch", path))
			break
		}
	}
	if len(path) > windowsLongPath {
		pc.Warnings = append(pc.Warnings, fmt.Sprintf("the venv path is %d characters long; torch's files would pass Windows' 260-character limit (WinError 206): use a short root such as C:\\venvs\\torch, or enable long paths (HKLM\\SYSTEM\\CurrentControlSet\\Control\\FileSystem LongPathsEnabled=1, as administrator)", len(path)))
	}
}

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
