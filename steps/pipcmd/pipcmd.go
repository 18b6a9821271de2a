// Package pipcmd is the one way gpuwiz runs pip against an environment: the environment's own pip
// when it has one, else gpuwiz's own pip (the pip wheel the interpreter's ensurepip carries,
// unpacked once into gpuwiz's cache of unpacked wheels) run by the environment's interpreter, as
// pip's own --python option does it (pip/__pip-runner__.py imports exactly that copy of pip,
// whatever the interpreter's sys.path, so a ._pth file or a missing site-packages entry does not
// matter). gpuwiz never installs pip into an environment that had none.
package pipcmd

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/wheelinst"
)

// Pip runs pip against one interpreter.
type Pip struct {
	Python string // the environment's interpreter
	// Own is gpuwiz's own pip: a folder holding pip/ (an unpacked pip wheel); "" runs the
	// environment's own pip (python -m pip).
	Own string
	// OwnVersion is Own's pip version ("" with the environment's own pip: the caller knows it).
	OwnVersion string
}

// runnerName is the file pip's --python option runs in the other interpreter (pip 22.3 and later).
const runnerName = "__pip-runner__.py"

// Argv is the command line that runs pip with args against p's interpreter: python -m pip ARGS,
// or python OWN/pip/__pip-runner__.py ARGS.
func (p Pip) Argv(args ...string) []string {
	if p.Own == "" {
		return append([]string{p.Python, "-m", "pip"}, args...)
	}
	return append([]string{p.Python, filepath.Join(p.Own, "pip", runnerName)}, args...)
}

// Env is env with what gpuwiz's own pip needs beside it (the installer's launcher helper imports
// pip's script maker from it): unchanged for the environment's own pip.
func (p Pip) Env(env []string) []string {
	if p.Own == "" {
		return env
	}
	if env == nil {
		env = os.Environ()
	}
	return append(slices.Clip(env), wheelinst.OwnPipEnv+"="+p.Own)
}

//go:embed probe.py
var probeScript string

type probe struct {
	HasPip  bool     `json:"has_pip"`
	Bundled []string `json:"bundled"` // ensurepip's pip wheels
}

var (
	memoMu    sync.Mutex
	memo      = map[string]Pip{}
	wheelMemo = map[string]wheelinst.Wheel{} // by interpreter
)

// For is the pip that runs against python: the environment's own when it has one, else gpuwiz's
// own pip unpacked under unpacked (gpuwiz's cache of unpacked wheels). The answer is kept for the
// process's life per interpreter and folder (it costs one Python start).
func For(ctx context.Context, r runner.Runner, python string, env []string, unpacked string) (Pip, error) {
	key := python + "\x00" + unpacked
	memoMu.Lock()
	p, ok := memo[key]
	memoMu.Unlock()
	if ok {
		return p, nil
	}
	pr, err := ask(ctx, r, python, env)
	if err != nil {
		return Pip{}, err
	}
	p = Pip{Python: python}
	if !pr.HasPip {
		if p.Own, err = unpack(ctx, pr.Bundled, unpacked); err != nil {
			return Pip{}, err
		}
		p.OwnVersion = wheelVersion(p.Own)
	}
	memoMu.Lock()
	memo[key] = p
	memoMu.Unlock()
	return p, nil
}

// Wheel is the pip wheel of python's ensurepip (what Own unpacks), with its sha256. The answer is
// kept for the process's life per interpreter: the plan asks which pip a new venv gets, then the
// venv step links that wheel in.
func Wheel(ctx context.Context, r runner.Runner, python string, env []string) (wheelinst.Wheel, error) {
	memoMu.Lock()
	w, ok := wheelMemo[python]
	memoMu.Unlock()
	if ok {
		return w, nil
	}
	pr, err := ask(ctx, r, python, env)
	if err != nil {
		return wheelinst.Wheel{}, err
	}
	if w, err = bundledWheel(pr.Bundled); err != nil {
		return w, err
	}
	memoMu.Lock()
	wheelMemo[python] = w
	memoMu.Unlock()
	return w, nil
}

func ask(ctx context.Context, r runner.Runner, python string, env []string) (probe, error) {
	var out bytes.Buffer
	res := r.Run(ctx, runner.Cmd{Name: "pip probe", Argv: []string{python, "-c", probeScript}, Env: env, Stdout: &out}, nil) //i18n:raw the step's label in the log
	if res.Err != nil {
		return probe{}, fmt.Errorf("%s: %w: %s", python, res.Err, strings.Join(res.Tail, " "))
	}
	var pr probe
	if err := json.Unmarshal(out.Bytes(), &pr); err != nil {
		return probe{}, fmt.Errorf("%s: %w", python, err)
	}
	return pr, nil
}

// distroWheels is where Debian and Ubuntu keep the wheels their ensurepip uses (python3-pip-whl).
var distroWheels = "/usr/share/python-wheels"

func bundledWheel(bundled []string) (wheelinst.Wheel, error) {
	if len(bundled) == 0 {
		more, _ := filepath.Glob(filepath.Join(distroWheels, "pip-*.whl"))
		bundled = more
	}
	if len(bundled) == 0 {
		return wheelinst.Wheel{}, errors.New(i18n.T("pipcmd.err.no_wheel"))
	}
	slices.Sort(bundled)
	w := wheelinst.Wheel{Path: bundled[len(bundled)-1]}
	f, err := os.Open(w.Path)
	if err != nil {
		return w, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return w, err
	}
	w.SHA256 = hex.EncodeToString(h.Sum(nil))
	return w, nil
}

// wheelVersion is the pip version of an unpacked pip wheel (its pip-X.dist-info folder).
func wheelVersion(dir string) string {
	m, _ := filepath.Glob(filepath.Join(dir, "pip-*.dist-info"))
	if len(m) != 1 {
		return ""
	}
	return strings.TrimSuffix(strings.TrimPrefix(filepath.Base(m[0]), "pip-"), ".dist-info")
}

func unpack(ctx context.Context, bundled []string, unpacked string) (string, error) {
	w, err := bundledWheel(bundled)
	if err != nil {
		return "", err
	}
	dir, err := wheelinst.Unpacked(ctx, unpacked, w)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(dir, "pip", runnerName)); err != nil {
		return "", errors.New(i18n.T("pipcmd.err.too_old", i18n.D{"Wheel": filepath.Base(w.Path)}))
	}
	return dir, nil
}
