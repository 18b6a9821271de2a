package install

import (
	"context"
	"fmt"

	"gpuwiz/steps/pipcmd"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/wheelinst"
)

// CreateVenv makes a new venv at root from python: python -m venv --without-pip (well under a
// second), then pip linked in by gpuwiz's installer from the cache of unpacked wheels under
// unpacked (the pip wheel python's own ensurepip carries, unpacked there once), instead of
// ensurepip unpacking pip anew into every venv. People type pip install in a venv they were given,
// so it has pip. When python carries no usable pip wheel the venv is made by python -m venv as
// before; when linking fails, ensurepip is run in the new venv (what python -m venv runs).
func CreateVenv(ctx context.Context, r runner.Runner, python, root string, env []string, unpacked string) error {
	h, err := createVenv(ctx, r, python, root, env, unpacked)
	if h != nil {
		h.Close()
	}
	return err
}

// createVenv is CreateVenv that hands back the new venv's Python it started to link pip in, still
// running with pip's launcher maker imported (nil where none runs): the install step that follows
// asks it where pip installs and for its launchers instead of starting the same Python again (half
// a second of pip's imports on the journey's path). The caller closes it.
func createVenv(ctx context.Context, r runner.Runner, python, root string, env []string, unpacked string) (*wheelinst.Helper, error) {
	w, err := pipcmd.Wheel(ctx, r, python, env)
	var own string
	if err == nil {
		own, err = wheelinst.Unpacked(ctx, unpacked, w)
	}
	if err != nil {
		runner.Note(r, fmt.Sprintf("new venv: python -m venv with ensurepip (%v)", err)) //i18n:raw the log, for support
		return nil, pyenv.Create(ctx, r, python, root)
	}
	if err := pyenv.CreateWithoutPip(ctx, r, python, root); err != nil {
		return nil, err
	}
	py := pyenv.Venv{Root: root}.Python()
	h, err := linkPip(ctx, py, pipcmd.Pip{Python: py, Own: own}.Env(env), w, unpacked)
	if err != nil {
		runner.Note(r, fmt.Sprintf("new venv: linking pip failed (%v); ensurepip runs", err))                                                 //i18n:raw the log, for support
		res := r.Run(ctx, runner.Cmd{Name: "ensurepip", Argv: []string{py, "-Im", "ensurepip", "--upgrade", "--default-pip"}, Env: env}, nil) //i18n:raw the step's label in the log
		return nil, res.Err
	}
	runner.Note(r, "new venv: pip linked in from "+own) //i18n:raw the log, for support
	return h, nil
}

// linkPip installs the pip wheel w into the venv of py with gpuwiz's installer, one Python for the
// scheme and the launchers (gpuwiz's own pip, named in env, lends them pip's script maker). The
// Python is returned running, for the install step's launchers; the caller closes it.
func linkPip(ctx context.Context, py string, env []string, w wheelinst.Wheel, unpacked string) (*wheelinst.Helper, error) {
	h, err := wheelinst.StartHelper(ctx, py, env)
	if err != nil {
		return nil, err
	}
	w.Requested = true
	if _, err = wheelinst.Install(ctx, wheelinst.CommandPythonEnv(py, env), h.Scheme(), []wheelinst.Wheel{w},
		wheelinst.Options{Cache: unpacked, Launchers: h.Launchers, Workers: 8}); err != nil {
		h.Close()
		return nil, err
	}
	return h, nil
}
