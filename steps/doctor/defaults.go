package doctor

import (
	"context"
	"errors"

	"gpuwiz/steps/runner"
)

// Interim default until verify.Run lands; replaced by an adapter over it.
func verifyWithVerify(ctx context.Context, r runner.Runner, python, framework, channel string) (FrameworkCheck, error) {
	return FrameworkCheck{}, errors.New("verify.Run is not in this build yet")
}
