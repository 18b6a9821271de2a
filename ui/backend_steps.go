package ui

import (
	"context"
	"errors"
	"runtime"
	"strings"

	"gpuwiz/matrix"
	"gpuwiz/steps/app"
	"gpuwiz/steps/bench"
	"gpuwiz/steps/doctor"
	"gpuwiz/steps/gpu"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/install"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/venvs"
	"gpuwiz/steps/verify"
)

// stepsBackend is the real Backend: it calls the application layer's sessions (steps/app) and, for
// what only reads, the steps packages.
type stepsBackend struct {
	env *app.Env
	run runner.Runner
}

// NewStepsBackend builds the real backend over the run's environment (--matrix, --sources, --simulate).
func NewStepsBackend(env *app.Env) Backend { return &stepsBackend{env: env, run: runner.New(nil)} }

func (b *stepsBackend) Probe(ctx context.Context) (gpu.Report, error) { return b.env.GPUReport(ctx) }

func (b *stepsBackend) Channels(ctx context.Context, facts matrix.Facts) (matrix.Selection, error) {
	m, err := b.env.Matrix()
	if err != nil {
		return matrix.Selection{}, err
	}
	return m.Select(facts), nil
}

func (b *stepsBackend) Pythons(ctx context.Context) ([]Interpreter, error) {
	found, err := pyenv.Discover(ctx, pyenv.DiscoverOptions{})
	out := make([]Interpreter, 0, len(found))
	for _, p := range found {
		if p.Kind == "venv" {
			continue // a venv's python is not a base for a new venv
		}
		out = append(out, Interpreter{Path: p.Path, Version: p.Version, Bits: p.Bits, Kind: p.Kind, Source: p.Source, Prefix: p.Prefix, Warnings: p.Warnings})
	}
	return out, err
}

func (b *stepsBackend) CheckVenv(path string) PathCheck {
	pc := pyenv.CheckVenvPath(path, runtime.GOOS)
	v := pyenv.Venv{Root: path}
	return PathCheck{Errors: pc.Errors, Warnings: pc.Warnings, Exists: strings.TrimSpace(path) != "" && v.Exists(), Conda: strings.TrimSpace(path) != "" && v.IsConda()}
}

func (b *stepsBackend) InspectVenv(ctx context.Context, path string) (VenvInfo, error) {
	v := pyenv.Venv{Root: path}
	in, err := pyenv.Inspect(ctx, b.run, v.Python())
	if err != nil {
		return VenvInfo{}, err
	}
	info := VenvInfo{Path: path, PythonVersion: in.Python.Version}
	for _, d := range in.Dists {
		info.Packages = append(info.Packages, d.Name+"=="+d.Version)
	}
	held := in.Held()
	info.Framework, info.FrameworkVersion, info.Channel = held.Framework, held.Public(), held.Channel()
	if held.Framework == "paddle" {
		info.Channel = paddleChannel(held.Package, info.FrameworkVersion, install.ReadLockSources(path))
	}
	return info, nil
}

// paddleChannel is the channel of the Paddle build a venv holds: Paddle's version carries no local
// label (torch's +cu126), so it comes from the lock file gpuwiz wrote when that names this build;
// the CPU package is "cpu"; otherwise it is unknown ("").
func paddleChannel(dist, version string, lock install.LockSources) string {
	switch {
	case lock.Framework == "paddle" && lock.Version == version && lock.Channel != "":
		return lock.Channel
	case dist == "paddlepaddle":
		return "cpu"
	}
	return ""
}

func (b *stepsBackend) KnownVenvs(ctx context.Context) ([]KnownVenv, string) {
	found, warning := app.KnownVenvs(ctx)
	out := make([]KnownVenv, 0, len(found))
	for _, f := range found {
		out = append(out, KnownVenv{Path: f.Path, Framework: f.Holds.Framework, Line: app.VenvLine(f),
			Nearby: f.Source == venvs.SourceNearby || f.Source == venvs.SourceComfyDesktop})
	}
	return out, warning
}

func (b *stepsBackend) Install(ctx context.Context, p Plan, events chan<- InstallEvent) Outcome {
	switch impl := p.Impl.(type) {
	case *app.RepairSession:
		return b.applyRepair(ctx, impl, events)
	case *app.InstallSession:
		return b.runInstall(ctx, impl, events)
	case *app.AddSession:
		return b.runAdd(ctx, impl, events)
	}
	return Outcome{Result: app.Failed, Err: errors.New(i18n.T("ui.backend.unknown_plan"))}
}

func (b *stepsBackend) Verify(ctx context.Context, venv string, c matrix.Candidate) (VerifyReport, error) {
	r, err := app.Verify(ctx, venv, c.Framework, c.Channel)
	if err != nil {
		return VerifyReport{}, err
	}
	return verifyReportOf(r), nil
}

func verifyReportOf(r verify.Report) VerifyReport {
	out := VerifyReport{OK: r.OK}
	for _, c := range r.Checks {
		out.Checks = append(out.Checks, Check{ID: c.ID, Title: c.Title, OK: c.OK, Evidence: c.Evidence, Cause: c.Cause, Fix: c.Fix})
	}
	return out
}

func (b *stepsBackend) Doctor(ctx context.Context, venv string) (DoctorReport, error) {
	d, err := b.env.Diagnose(ctx, doctor.Options{Venv: venv}, nil)
	if err != nil {
		return DoctorReport{}, err
	}
	out := DoctorReport{Impl: d}
	for _, f := range d.Report.Findings {
		out.Findings = append(out.Findings, Finding{Code: f.Code, Severity: string(f.Severity), Title: f.Title,
			Evidence: strings.Join(f.Evidence, "\n"), Fix: f.Fix})
	}
	return out, nil
}

func (b *stepsBackend) Activation(venv string) Activation { return activationFor(venv, runtime.GOOS) }

// activationFor is the environment's activation commands (values from pyenv, one per shell) as the
// done screen's fields.
func activationFor(venv, goos string) Activation {
	var a Activation
	for _, c := range (pyenv.Venv{Root: venv, GOOS: goos}).Activations() {
		switch c.Shell {
		case pyenv.ShellPowerShell:
			a.PowerShell = c.Command
		case pyenv.ShellCmd:
			a.Cmd = c.Command
		case pyenv.ShellPosix:
			a.Posix = c.Command
		case pyenv.ShellConda:
			a.Conda = c.Command
		}
	}
	return a
}

func (b *stepsBackend) Bench(ctx context.Context, venv string, gpuIndex int) (BenchFeed, string, error) {
	run, err := b.env.StartBench(ctx, app.BenchRequest{Python: pyenv.Venv{Root: venv}.Python(),
		Options: bench.Options{Quick: true, GPU: gpuIndex}, SimulatedReadings: true})
	if err != nil {
		return BenchFeed{}, "", err
	}
	return BenchFeed{Events: run.Events, Samples: run.Samples}, run.Framework, nil
}
