package doctor

import (
	"context"

	"gpuwiz/steps/runner"
)

// verifyWithVerify is the framework's own check; channel is what the build should be ("cu126").
func verifyWithVerify(ctx context.Context, r runner.Runner, python, framework, channel string) (FrameworkCheck, error) {
	return probeFramework(ctx, r, python, framework)
}
