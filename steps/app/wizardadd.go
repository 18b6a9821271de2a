package app

import (
	"context"

	"gpuwiz/steps/install"
)

// AddPreview is what installing a project's requirements would change, from pip's dry run.
type AddPreview struct {
	Framework string   // "torch" or "paddle"
	Channel   string   // "cu126"
	Build     []string // the framework pins the venv keeps ("torch==2.6.0+cu126")
	Changes   []AddChange
	Troubles  []AddTrouble
	Refusal   *AddRefusal
	WayOut    string // the framework version on Channel that satisfies a refused requirement ("" none)
	Plan      Plan   // what Install runs (no steps when there is nothing to do or it was refused)
}

// PlanAdd previews installing a project's requirements into a venv gpuwiz installed a framework
// into: pip's dry run under the venv's constraints, nothing changed. A refusal (a requirement that
// needs another framework build) comes back as a preview with Refusal set, not as an error.
// Install runs the preview's Plan.
func (w *Wizard) PlanAdd(ctx context.Context, req AddRequest) (AddPreview, error) {
	sess, err := w.env.PlanAdd(ctx, req)
	if sess == nil || (err != nil && CodeOf(err, ExitFailure) != ExitIncompatible) {
		return AddPreview{}, err
	}
	p := sess.Preview
	out := AddPreview{Framework: p.Framework, Channel: p.Channel, Build: p.Build, WayOut: sess.WayOut,
		Changes: p.Changes, Troubles: p.Troubles, Refusal: p.Refusal}
	if p.Refusal != nil {
		return out, nil
	}
	out.Plan = Plan{Kind: PlanOfAdd, Venv: req.Venv, session: sess}
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

// AddSources is where an add into venv would take the project's packages from, and the other
// places to choose from (Env.AddSources).
func (w *Wizard) AddSources(ctx context.Context, venv string) AddSources {
	return w.env.AddSources(venv)
}

// runAdd runs the add session.
func (w *Wizard) runAdd(ctx context.Context, sess *AddSession, events chan<- InstallEvent) Outcome {
	var res AddResult
	var err error
	forwarding(events, func(ev chan<- install.Event) { res, err = sess.Run(ctx, ev) })
	if err != nil {
		return Outcome{Result: Unchanged, Unchanged: true, Err: err, LogPath: sess.LogPath}
	}
	return outcomeOf(InstallResult{Outcome: res.Outcome, Result: res.Result, Cancelled: ctx.Err() != nil && res.Outcome.Result != install.ResultInstalled})
}
