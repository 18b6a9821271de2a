package ui

import (
	"context"
	"errors"
	"time"

	"gpuwiz/matrix"
	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/install"
	"gpuwiz/steps/runner"
)

// Plan asks the application layer for the install session (the index's answer, with the next-best
// build, and the engine's plan) and lists it for the plan screen; Install runs that session.
func (b *stepsBackend) Plan(ctx context.Context, req PlanRequest) (Plan, error) {
	areq := app.InstallRequest{Candidate: &req.Candidate, Venv: req.Venv, Python: req.Python,
		IndexURL: req.IndexURL, FindLinks: req.FindLinks, Mirror: req.Mirror}
	if req.IndexURL == "" {
		areq.IndexURL = req.Candidate.IndexURL
	}
	if req.Source != "" {
		areq.SourceWhy = i18n.T("ui.backend.source_why", i18n.D{"Source": req.Source})
	}
	sess, err := b.env.PlanInstall(ctx, areq)
	var notServed *app.ErrNotServed
	if errors.As(err, &notServed) {
		return Plan{}, errors.New(notServedText(notServed.Check))
	}
	if err != nil {
		return Plan{}, err
	}
	p := sess.Plan
	notes := p.Notes
	if n := indexNote(sess.Index); n != "" {
		notes = append(notes, n)
	}
	// Shown with their local labels: what the venv holds ("torch==2.6.0+cu118") and the build that
	// replaces it ("torch==2.6.0+cu126").
	out := Plan{Venv: req.Venv, Candidate: req.Candidate, Uninstall: p.Removing(), Install: p.Pins,
		Notes: notes, Warnings: p.Warnings, Impl: sess}
	for _, s := range p.Steps {
		out.Steps = append(out.Steps, PlanStep{ID: s.ID, Title: s.Title})
	}
	for _, argv := range p.ShownCommands() {
		out.Commands = append(out.Commands, runner.QuoteArgv(argv))
	}
	return out, nil
}

// CheckServed asks the build's own index, before anything changes, whether it serves c's wheels for
// this OS and python (an interpreter path). It returns a note when the index could not be read, and
// an error when the build is not served (what is missing, the next-best build, and to pick another).
func (b *stepsBackend) CheckServed(ctx context.Context, c matrix.Candidate, python string) (string, error) {
	check, err := b.env.CheckServed(ctx, app.IndexQuery{Candidate: c, Python: python})
	switch {
	case err != nil:
		return "", err
	case check.Refused():
		return "", errors.New(notServedText(check))
	}
	return indexNote(check), nil
}

// notServedText is the refusal of a build the index does not serve, with the next-best build it
// serves when there is one.
func notServedText(c app.IndexCheck) string {
	v := c.Verdict
	if n := v.NextBest; n != nil {
		return i18n.T("ui.backend.not_served_next_best", i18n.D{"Reason": v.Reason(), "Framework": frameworkName(v.Framework), "Version": v.Version, "Channel": v.Channel,
			"NextVersion": n.FrameworkVersion, "NextChannel": n.Channel})
	}
	return i18n.T("ui.backend.not_served", i18n.D{"Reason": v.Message()})
}

// indexNote is the plan's note on an index that could not be read ("" when there is none).
func indexNote(c app.IndexCheck) string {
	if c.CouldNotLook() {
		return i18n.T("ui.backend.could_not_look", i18n.D{"Reason": c.Verdict.Reason()})
	}
	return ""
}

// runInstall runs the install session, translating its events for the install screen.
func (b *stepsBackend) runInstall(ctx context.Context, sess *app.InstallSession, events chan<- InstallEvent) Outcome {
	var res app.InstallResult
	forwarding(events, func(ev chan<- install.Event) { res = sess.Run(ctx, ev) })
	return outcomeOf(res)
}

// forwarding calls run with a channel of install events and passes each on to events, translated
// for the install screen; it returns once run has and every event is passed on.
func forwarding(events chan<- InstallEvent, run func(chan<- install.Event)) {
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
	run(ev)
	close(ev)
	<-done
}

func outcomeOf(res app.InstallResult) Outcome {
	o := res.Outcome
	out := Outcome{OK: o.Result == install.ResultInstalled, Result: app.Result(o.Result), Err: o.Err,
		LogPath: o.LogPath, LockFile: o.LockFile, ConstraintsFile: o.ConstraintsFile, VenvRemoved: o.VenvRemoved, Protected: o.Protected}
	switch o.Result {
	case install.ResultUnchanged:
		out.Unchanged = true
	case install.ResultRestored:
		out.Restored = true
	}
	for _, l := range o.Leftovers {
		out.Leftovers = append(out.Leftovers, Leftover{What: l.What, Path: l.Path, Clear: l.Clear})
	}
	for _, x := range o.Outside {
		out.Outside = append(out.Outside, OutsideFiles{Dist: x.Dist, Paths: x.Paths})
	}
	if res.Cancelled {
		out.Result = app.Cancelled
	}
	if o.Verify != nil {
		v := verifyReportOf(*o.Verify)
		out.Verify = &v
	}
	return out
}
