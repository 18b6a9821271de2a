package ui

import (
	"context"
	"fmt"
	"time"

	"gpuwiz/matrix"
	"gpuwiz/steps/cli"
	"gpuwiz/steps/doctor"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/indexcheck"
	"gpuwiz/steps/install"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
)

// planned is what Install needs back from Plan: the engine's plan and its options.
type planned struct {
	plan install.Plan
	opts install.Options
	cand matrix.Candidate
}

func (b *stepsBackend) Plan(ctx context.Context, req PlanRequest) (Plan, error) {
	venv := pyenv.Venv{Root: req.Venv}
	var have pyenv.Installed
	if venv.Exists() {
		in, err := pyenv.Inspect(ctx, b.run, venv.Python())
		if err != nil {
			return Plan{}, fmt.Errorf("%s: %w", i18n.T("ui.backend.cannot_read_venv", i18n.D{"Venv": req.Venv}), err)
		}
		have = in
	}
	opts := install.Options{Venv: venv, Python: req.Python, Target: install.TargetOf(req.Candidate),
		FindLinks: req.FindLinks, Mirror: req.Mirror}
	if req.IndexURL != "" && req.IndexURL != req.Candidate.IndexURL {
		opts.IndexURLOverride = req.IndexURL // a mirror of the channel chosen on the package-source screen
	}
	if req.Source != "" {
		opts.SourceWhy = i18n.T("ui.backend.source_why", i18n.D{"Source": req.Source})
	}
	p, err := install.MakePlan(opts, have)
	if err != nil {
		return Plan{}, err
	}
	py := req.Python
	if venv.Exists() {
		py = venv.Python()
	}
	if note, err := b.checkServedFrom(ctx, req.Candidate, py, indexcheck.Source{IndexURL: opts.IndexURLOverride, FindLinks: req.FindLinks}); err != nil {
		return Plan{}, err
	} else if note != "" {
		p.Notes = append(p.Notes, note)
	}
	removing := make([]string, 0, len(p.Uninstall))
	for _, name := range p.Uninstall { // shown with the version the venv holds: "torch==2.6.0+cu118"
		if d, ok := have.Dist(name); ok && d.Version != "" {
			name += "==" + d.Version
		}
		removing = append(removing, name)
	}
	out := Plan{Venv: req.Venv, Candidate: req.Candidate, Uninstall: removing, Install: p.Install,
		Notes: p.Notes, Warnings: p.Warnings, Impl: planned{p, opts, req.Candidate}}
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
			ie := InstallEvent{StepID: e.StepID, State: e.State, Line: e.Line, Message: e.Message, Did: e.Did}
			if e.Progress != nil {
				ie.Done, ie.Total = e.Progress.Done, e.Progress.Total
				ie.Rate, ie.ETA = e.Progress.BytesPerSec, time.Duration(e.Progress.ETASeconds*float64(time.Second))
			}
			events <- ie
		}
	}()
	logw, logPath, closeLog := install.OpenLog(install.DefaultLogPath("install"))
	defer closeLog()
	plan := p.plan
	plan.LogPath = logPath
	o := install.Run(ctx, runner.New(logw), plan, ev)
	close(ev)
	<-done
	cand := p.cand
	result, ok := cli.InstallResultWords(o, ctx)
	cli.RecordVenv(ctx, nil, p.opts.Venv.Root, "install", result, ok, &cand)
	return outcomeOf(o, ctx)
}

func outcomeOf(o install.Outcome, ctx context.Context) Outcome {
	out := Outcome{OK: o.Result == install.ResultInstalled, Result: o.Result, Err: o.Err,
		LogPath: o.LogPath, LockFile: o.LockFile, ConstraintsFile: o.ConstraintsFile, VenvRemoved: o.VenvRemoved}
	switch o.Result {
	case install.ResultUnchanged:
		out.Unchanged = true
	case install.ResultRestored:
		out.Restored = true
	}
	for _, l := range o.Leftovers {
		out.Leftovers = append(out.Leftovers, Leftover{What: l.What, Path: l.Path, Clear: l.Clear})
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

// reinstall is the install engine behind a repair's reinstall step, logging through r to logPath.
func reinstallWith(r runner.Runner, logPath string) doctor.ReinstallFunc {
	return func(ctx context.Context, venv, _ string, c matrix.Candidate, lines chan<- runner.Line) error {
		return install.Reinstall(ctx, r, venv, c, install.ReinstallOptions{LogPath: logPath}, lines)
	}
}
