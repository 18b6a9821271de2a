package ui

import (
	"context"

	"gpuwiz/steps/app"
	"gpuwiz/steps/install"
)

// PlanAdd asks the application layer for the add session (pip's dry run under the venv's
// constraints) and, when there is something to install, the engine's plan for it.
func (b *stepsBackend) PlanAdd(ctx context.Context, req AddRequest) (AddPreview, error) {
	sess, err := b.env.PlanAdd(ctx, app.AddRequest{Venv: req.Venv, Requirements: req.Requirements, Packages: req.Packages})
	if sess == nil || (err != nil && app.CodeOf(err, app.ExitFailure) != app.ExitIncompatible) {
		return AddPreview{}, err
	}
	p := sess.Preview
	out := AddPreview{Framework: p.Framework, Channel: p.Channel, Build: p.Build, WayOut: sess.WayOut}
	for _, c := range p.Changes {
		out.Changes = append(out.Changes, AddChange{Name: c.Name, From: c.From, To: c.To})
	}
	for _, t := range p.Troubles {
		out.Troubles = append(out.Troubles, AddTrouble{Code: t.Code, Dists: t.Dists})
	}
	if r := p.Refusal; r != nil {
		out.Refusal = &AddRefusal{Requirement: r.Requirement, Needs: r.Needs, Installed: r.Installed}
		return out, nil
	}
	out.Plan = Plan{Venv: req.Venv, Impl: sess}
	if len(p.Changes) == 0 {
		return out, nil
	}
	plan, err := sess.Prepare(ctx)
	if err != nil {
		return AddPreview{}, err
	}
	for _, s := range plan.Steps {
		out.Plan.Steps = append(out.Plan.Steps, PlanStep{ID: s.ID, Title: s.Title})
	}
	out.Plan.Install = plan.Install
	return out, nil
}

// runAdd runs the add session, translating its events for the install screen.
func (b *stepsBackend) runAdd(ctx context.Context, sess *app.AddSession, events chan<- InstallEvent) Outcome {
	var res app.AddResult
	var err error
	forwarding(events, func(ev chan<- install.Event) { res, err = sess.Run(ctx, ev) })
	if err != nil {
		return Outcome{Result: app.Unchanged, Unchanged: true, Err: err, LogPath: sess.LogPath}
	}
	return outcomeOf(app.InstallResult{Outcome: res.Outcome, Result: res.Result, Cancelled: ctx.Err() != nil && res.Outcome.Result != install.ResultInstalled})
}
