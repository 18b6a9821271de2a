package ui

import (
	"context"
	"errors"
	"runtime"
	"time"

	"gpuwiz/matrix"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/indexcheck"
	"gpuwiz/steps/pep"
	"gpuwiz/steps/pyenv"
)

// CheckServed asks the build's index, before anything changes, whether it serves c's wheels for this
// OS and python (an interpreter path). It returns a note when the index could not be read, and an
// error when the build is not served (what is missing, and to pick another build).
func (b *stepsBackend) CheckServed(ctx context.Context, c matrix.Candidate, python string) (string, error) {
	return b.checkServedFrom(ctx, c, python, indexcheck.Source{})
}

// checkServedFrom is CheckServed on the source chosen on the package-source screen (a mirror of the
// channel, a flat page); the zero Source is the build's own index.
func (b *stepsBackend) checkServedFrom(ctx context.Context, c matrix.Candidate, python string, src indexcheck.Source) (string, error) {
	if python == "" {
		return "", nil
	}
	in, err := pyenv.Describe(ctx, python)
	if err != nil {
		return "", nil // the plan reports a broken interpreter itself
	}
	minor := pep.Minor(in.Version)
	v := indexcheck.CheckBuild(ctx, &indexcheck.Fetcher{Timeout: 10 * time.Second}, src, c, runtime.GOOS, minor, nil)
	switch {
	case v.Refused():
		return "", errors.New(i18n.T("ui.backend.not_served", i18n.D{"Reason": v.Message()}))
	case v.Status == indexcheck.CouldNotLook:
		return i18n.T("ui.backend.could_not_look", i18n.D{"Reason": v.Reason()}), nil
	}
	return "", nil
}
