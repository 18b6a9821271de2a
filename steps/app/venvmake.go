package app

import (
	"context"
	"io"
	"runtime"
	"strings"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/install"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
)

// EnvRootOf is the environment a path names: an interpreter's path names the environment it
// belongs to (Scripts\python.exe of a venv, python_embeded\python.exe of a portable bundle,
// bin/python3 of a prefix); any other path is itself.
func EnvRootOf(path string) string {
	return pyenv.EnvRootOf(pyenv.OSFiles{}, path, runtime.GOOS)
}

// PythonPath is a --python as an interpreter's absolute path (a path, or a name on PATH such as
// python3), or a usage error that says which lookup failed.
func PythonPath(python string) (string, error) {
	p, err := pyenv.Executable(python)
	if err != nil {
		return "", Usagef("%s", i18n.T("cli.python.bad_path", i18n.D{"Path": python, "Err": err}))
	}
	return p, nil
}

// NoPythonAdvice names the Python to install: the minor most of the matrix's releases for this OS support.
func (e *Env) NoPythonAdvice() string {
	return pyenv.NoPythonAdvice(runtime.GOOS, e.RecommendedPython())
}

// ChooseBasePython is the interpreter a new venv is made from: explicit (a --python) when given,
// else the first interpreter found that is a real 64-bit install (not a venv, not the Store's).
func ChooseBasePython(ctx context.Context, explicit string) (pyenv.Interpreter, error) {
	if explicit != "" {
		p, err := PythonPath(explicit)
		if err != nil {
			return pyenv.Interpreter{}, err
		}
		explicit = p
		in, err := pyenv.Describe(ctx, explicit)
		if err != nil {
			return in, Usagef("%v", err)
		}
		in.Warnings = pyenv.SupportWarnings(in, "", "")
		pyenv.NoteVenvSupport(&in, pyenv.ReadDistro())
		if len(in.VenvMissing) > 0 {
			return in, Usagef("--python %s: %s", explicit, pyenv.NoVenvWarning(in, pyenv.ReadDistro()))
		}
		return in, nil
	}
	found, err := pyenv.Discover(ctx, pyenv.DiscoverOptions{})
	if err != nil {
		return pyenv.Interpreter{}, err
	}
	var noVenv []string
	for _, in := range found {
		if len(in.VenvMissing) > 0 {
			noVenv = append(noVenv, in.Path+": "+pyenv.NoVenvWarning(in, pyenv.ReadDistro()))
			continue
		}
		if in.Kind != "venv" && in.Kind != "store" && in.Bits == 64 {
			return in, nil
		}
	}
	if len(noVenv) > 0 {
		return pyenv.Interpreter{}, Exitf(ExitFailure, "%s", i18n.T("cli.venv.no_venv_python", i18n.D{"Found": strings.Join(noVenv, i18n.T("cli.matrix.check.separator"))}))
	}
	if len(found) > 0 && found[0].Version != "" {
		return found[0], nil
	}
	return pyenv.Interpreter{}, Exitf(ExitFailure, "%s", i18n.T("cli.venv.no_python"))
}

// VenvMade is what MakeVenv did: whether it made the venv, from which interpreter and with what
// warnings about it, and whether the list of venvs could not be written (a warning, not a failure).
type VenvMade struct {
	Created    bool
	BasePython string   // the interpreter that made it; "" when an existing venv was reused
	Warnings   []string // about the base interpreter
	RecordErr  error
}

// MakeVenv makes a venv at root (absolute, its path checked by CheckVenvPath) from python (a
// --python; "": ChooseBasePython's pick) unless one is there, under the venv's lock, and puts a
// new one on the list of venvs.
func MakeVenv(ctx context.Context, root, python string) (VenvMade, error) {
	var made VenvMade
	unlock, err := pyenv.Lock(root)
	if err != nil {
		return made, Exitf(ExitFailure, "%v", err)
	}
	defer unlock()
	if (pyenv.Venv{Root: root}).Exists() {
		return made, nil
	}
	base, err := ChooseBasePython(ctx, python)
	if err != nil {
		return made, err
	}
	made.BasePython, made.Warnings = base.Path, base.Warnings
	if err := install.CreateVenv(ctx, runner.New(io.Discard), base.Path, root, nil, install.UnpackedDir(install.DefaultCacheDir())); err != nil {
		return made, Exitf(ExitFailure, "%v", err)
	}
	made.Created = true
	made.RecordErr = RecordVenv(ctx, root, ActionCreate, Created, true, nil)
	return made, nil
}
