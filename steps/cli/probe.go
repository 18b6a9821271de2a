package cli

import (
	"context"

	"gpuwiz/steps/gpu"
)

// GPUReport returns the GPU facts every command uses: the --simulate file when given, else the probe.
// Scaffold until the probe lands (owned by the GPU work): reports no driver.
func (e *Env) GPUReport(ctx context.Context) (gpu.Report, error) {
	return gpu.Report{Backend: "none", Message: "no GPU probe in this build yet"}, nil
}
