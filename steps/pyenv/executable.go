package pyenv

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"gpuwiz/steps/i18n"
)

// Executable is the interpreter a user means by --python: a path to one, or a bare name such as
// python3 or python that a shell would find on PATH (on Windows with PATHEXT, so "python" finds
// python.exe). It is returned as an absolute path; the error says which of the two failed.
func Executable(s string) (string, error) {
	st, err := os.Stat(s)
	switch {
	case err == nil && st.IsDir():
		return "", errors.New(i18n.T("pyenv.executable.is_dir"))
	case err == nil:
		return filepath.Abs(s)
	case filepath.IsAbs(s) || strings.ContainsAny(s, `/\`):
		return "", errors.New(i18n.T("pyenv.executable.no_file"))
	}
	p, lerr := exec.LookPath(s)
	if lerr != nil {
		return "", errors.New(i18n.T("pyenv.executable.not_on_path", i18n.D{"Name": s}))
	}
	return filepath.Abs(p)
}
