package ui

import (
	"context"
	"fmt"

	"gpuwiz/matrix"
	"gpuwiz/steps/doctor"
	"gpuwiz/steps/install"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
)

// planned is what Install needs back from Plan: the engine's plan and its options.
type planned struct {
	plan install.Plan
	opts install.Options
}

func (b *stepsBackend) Plan(ctx context.Context, req PlanRequest) (Plan, error) {
	venv := pyenv.Venv{Root: req.Venv}
	var have pyenv.Installed
	if venv.Exists() {
		in, err := pyenv.Inspect(ctx, b.run, venv.Python())
		if err != nil {
			return Plan{}, fmt.Errorf("cannot read what %s holds: %w", req.Venv, err)
		}
		have = in
	}
	opts := install.Options{Venv: venv, Python: req.Python, Target: install.TargetOf(req.Candidate)}
	p, err := install.MakePlan(opts, have)
	if err != nil {
		return Plan{}, err
	}
	out := Plan{Venv: req.Venv, Candidate: req.Candidate, Uninstall: p.Uninstall, Install: p.Install,
		Notes: p.Notes, Warnings: p.Warnings, Impl: planned{p, opts}}
	for _, s := range p.Steps {
		out.Steps = append(out.Steps, PlanStep{ID: s.ID, Title: s.Title})
	}
	for _, argv := range p.Commands {
		out.Commands = append(out.Commands, runner.QuoteArgv(argv))
	}
	return out, nil
}

// runInstall runs the engine's plan, translating its events for the install screen.
func (b *stepsBackend) runInstall(ctx context.Context, p planned, events chan<- InstallEvent) Outcome {
	ev := make(chan install.Event, 256)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for e := range ev {
			ie := InstallEvent{StepID: e.StepID, State: e.State, Line: e.Line, Message: e.Message}
			if e.Progress != nil {
				ie.Done, ie.Total = e.Progress.Done, e.Progress.Total
			}
			events <- ie
		}
	}()
	o := install.Run(ctx, b.run, p.plan, ev)
	close(ev)
	<-done
	return outcomeOf(o, ctx)
}

func outcomeOf(o install.Outcome, ctx context.Context) Outcome {
	out := Outcome{OK: o.Result == install.ResultInstalled, Result: o.Result, Err: o.Err,
		LogPath: o.LogPath, LockFile: o.LockFile, ConstraintsFile: o.ConstraintsFile}
	switch o.Result {
	case install.ResultUnchanged, install.ResultRestored:
		out.Restored = true
	}
	if ctx.Err() != nil && !out.OK {
		out.Result = "cancelled"
	}
	if o.Verify != nil {
		v := verifyReportOf(*o.Verify)
		out.Verify = &v
	}
	return out
}

// reinstall is the install engine behind a repair's reinstall step: plan against what the venv
// holds now, run, pass the output lines on.
func (b *stepsBackend) reinstall() doctor.ReinstallFunc {
	return func(ctx context.Context, venv, python string, c matrix.Candidate, lines chan<- runner.Line) error {
		v := pyenv.Venv{Root: venv}
		have, err := pyenv.Inspect(ctx, b.run, v.Python())
		if err != nil {
			return err
		}
		p, err := install.MakePlan(install.Options{Venv: v, Target: install.TargetOf(c)}, have)
		if err != nil {
			return err
		}
		ev := make(chan install.Event, 256)
		done := make(chan struct{})
		go func() {
			defer close(done)
			for e := range ev {
				if e.Line != "" {
					select {
					case lines <- runner.Line{Text: e.Line}:
					default: // ApplyRepair's reader is slow: the line stays in the log
					}
				}
			}
		}()
		o := install.Run(ctx, b.run, p, ev)
		close(ev)
		<-done
		if o.Result != install.ResultInstalled {
			if o.Err != nil {
				return fmt.Errorf("%s: %w", o.Result, o.Err)
			}
			return fmt.Errorf("install %s", o.Result)
		}
		return nil
	}
}
