package ui

import (
	"context"
	"errors"
	"path/filepath"
	"runtime"

	"gpuwiz/matrix"
	"gpuwiz/steps/cli"
	"gpuwiz/steps/gpu"
)

// stepsBackend is the real Backend: it calls the steps packages and the CLI's accessors.
type stepsBackend struct {
	env *cli.Env
}

// NewStepsBackend builds the real backend over the CLI's environment (--matrix, --simulate).
func NewStepsBackend(env *cli.Env) Backend { return &stepsBackend{env: env} }

var errNotBuilt = errors.New("not in this build yet")

func (b *stepsBackend) Probe(ctx context.Context) (gpu.Report, error) { return b.env.GPUReport(ctx) }

func (b *stepsBackend) Channels(ctx context.Context, facts matrix.Facts) (matrix.Selection, error) {
	return matrix.Selection{}, errNotBuilt
}

func (b *stepsBackend) Pythons(ctx context.Context) ([]Interpreter, error) { return nil, errNotBuilt }

func (b *stepsBackend) CheckVenv(path string) PathCheck {
	return PathCheck{Errors: []string{errNotBuilt.Error()}}
}

func (b *stepsBackend) InspectVenv(ctx context.Context, path string) (VenvInfo, error) {
	return VenvInfo{}, errNotBuilt
}

func (b *stepsBackend) Plan(ctx context.Context, req PlanRequest) (Plan, error) {
	return Plan{}, errNotBuilt
}

func (b *stepsBackend) Install(ctx context.Context, p Plan, events chan<- InstallEvent) Outcome {
	return Outcome{Result: "failed", Err: errNotBuilt}
}

func (b *stepsBackend) Verify(ctx context.Context, venv string, c matrix.Candidate) (VerifyReport, error) {
	return VerifyReport{}, errNotBuilt
}

func (b *stepsBackend) Doctor(ctx context.Context, venv string) (DoctorReport, error) {
	return DoctorReport{}, errNotBuilt
}

func (b *stepsBackend) RepairPlan(ctx context.Context, venv string, r DoctorReport) (Plan, error) {
	return Plan{}, errNotBuilt
}

func (b *stepsBackend) Activation(venv string) Activation {
	if runtime.GOOS == "windows" {
		return Activation{PowerShell: filepath.Join(venv, "Scripts", "Activate.ps1"), Cmd: filepath.Join(venv, "Scripts", "activate.bat")}
	}
	return Activation{Posix: "source " + filepath.Join(venv, "bin", "activate")}
}
