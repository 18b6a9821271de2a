package install

import (
	"context"

	"gpuwiz/steps/pyenv"
)

// freezeAll is `pip freeze --all` of the venv: read from its dist-info folders in Go when that is
// certain to be pip's answer byte for byte (pyenv.FreezeAll; one Python start for sys.path, no pip),
// else pip's own (argv).
func (e *engine) freezeAll(ctx context.Context, label string, argv []string) ([]byte, error) {
	return e.freezeWith(ctx, label, argv, pyenv.FreezeAll)
}

// freezeLock is `pip freeze` (without --all) of the venv, the lock file's list, the same way.
func (e *engine) freezeLock(ctx context.Context, label string, argv []string) ([]byte, error) {
	return e.freezeWith(ctx, label, argv, pyenv.Freeze)
}

func (e *engine) freezeWith(ctx context.Context, label string, argv []string, read func(pyenv.PathFacts) ([]byte, error)) ([]byte, error) {
	facts, err := pyenv.AskPathFacts(ctx, e.r, e.py, e.plan.env)
	if err == nil {
		var out []byte
		if out, err = read(facts); err == nil {
			e.note(label + ": read from the dist-info folders") //i18n:raw the log, for support
			return out, nil
		}
	}
	e.note(label + ": pip, " + err.Error()) //i18n:raw the log, for support
	return e.capture(ctx, label, argv)
}
