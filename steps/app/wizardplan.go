package app

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"gpuwiz/steps/doctor"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/install"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/words"
)

// Plan asks for the install session of req (the index's answer, with the next-best build, and the
// engine's plan) and lists it; Install runs that session. A build the index does not serve is
// refused with *ErrNotServed inside the error, for the front end to word.
func (w *Wizard) Plan(ctx context.Context, req PlanRequest) (Plan, error) {
	areq := InstallRequest{Candidate: &req.Candidate, Venv: req.Venv, Python: req.Python,
		IndexURL: req.IndexURL, FindLinks: req.FindLinks, Mirror: req.Mirror}
	if req.IndexURL == "" {
		areq.IndexURL = req.Candidate.IndexURL
	}
	areq.SourceWhy = req.SourceWhy
	sess, err := w.env.PlanInstall(ctx, areq)
	if err != nil {
		return Plan{}, err
	}
	p := sess.Plan
	// Shown with their local labels: what the venv holds ("torch==2.6.0+cu118") and the build that
	// replaces it ("torch==2.6.0+cu126").
	out := Plan{Kind: PlanOfInstall, Venv: req.Venv, Candidate: req.Candidate, Uninstall: p.Removing(), Install: p.Pins,
		Notes: p.Notes, Warnings: p.Warnings, Index: sess.Index, session: sess}
	for _, s := range p.Steps {
		out.Steps = append(out.Steps, PlanStep{ID: s.ID, Title: s.Title})
	}
	for _, argv := range p.ShownCommands() {
		out.Commands = append(out.Commands, PlanCommand{Line: runner.QuoteArgv(argv)})
	}
	return out, nil
}

// RepairPlan asks for the repair session of a diagnosis (doctor's plan and the source its
// reinstall takes the wheels from, as the CLI shows them) and lists it.
func (w *Wizard) RepairPlan(ctx context.Context, venv string, d *Diagnosis) (Plan, error) {
	if d == nil {
		return Plan{}, errors.New(i18n.T("ui.backend.no_doctor_report"))
	}
	sess, err := w.env.PlanRepair(ctx, d, install.ReinstallOptions{})
	if err != nil {
		return Plan{}, err
	}
	p := RepairListing(sess.Plan)
	p.session = sess
	return p, nil
}

// RepairListing lists a repair as the wizard's plan and install screens show it, in the order
// ApplyRepair runs its steps (doctor.Repair.Steps, with its step numbers as the steps' IDs), then
// doctor again.
func RepairListing(rp doctor.Repair) Plan {
	p := Plan{Kind: PlanOfRepair, Venv: rp.Venv, Notes: rp.Notes}
	for _, st := range rp.Steps() {
		id := strconv.Itoa(st.N)
		a := st.Action
		switch {
		case a == nil:
			c := rp.Reinstall
			p.Candidate = *c
			p.Steps = append(p.Steps, PlanStep{ID: id, Kind: PlanStepReinstall})
			for _, pk := range c.Packages {
				p.Install = append(p.Install, pk.Requirement()+pk.LocalLabel)
			}
			p.Commands = append(p.Commands, PlanCommand{Reinstall: true, Source: rp.Source})
			continue
		case a.Restore:
			// Putting back what an interrupted install changed, from its backup: gpuwiz's own step, no command.
			p.Steps = append(p.Steps, PlanStep{ID: id, Title: a.Title})
			continue
		}
		p.Steps = append(p.Steps, PlanStep{ID: id, Title: a.Title})
		switch {
		case a.RemovePath != "":
			p.Uninstall = append(p.Uninstall, a.RemovePath)
			p.Commands = append(p.Commands, PlanCommand{Remove: a.RemovePath})
		case len(a.Argv) > 0:
			p.Commands = append(p.Commands, PlanCommand{Line: runner.QuoteArgv(a.Argv)})
			p.Uninstall = append(p.Uninstall, uninstalled(*a)...)
		}
	}
	if len(p.Steps) > 0 {
		p.Steps = append(p.Steps, PlanStep{ID: "0", Kind: PlanStepDoctorAgain})
	}
	p.LeftToYou = rp.Unfixable
	return p
}

// FrameworkName is the framework's name for people: PyTorch, PaddlePaddle (飞桨 in Chinese), as
// steps/words says it.
var FrameworkName = words.FrameworkName

// applyRepair runs a repair session, its events as install events (the step ID is the repair's
// step number).
func (w *Wizard) applyRepair(ctx context.Context, sess *RepairSession, events chan<- InstallEvent) Outcome {
	rev := make(chan doctor.RepairEvent, 256)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for e := range rev {
			ev := InstallEvent{StepID: strconv.Itoa(e.Step), Line: e.Line}
			switch {
			case e.Err != "":
				ev.State, ev.Line = StepFailed, e.Err
			case e.Done:
				ev.State = StepDone
			case e.Line == "":
				ev.State, ev.Message = StepRunning, e.Title
			}
			events <- ev
		}
	}()
	ran := sess.Run(ctx, rev)
	close(rev)
	<-done
	res, err := ran.Result, ran.Err
	o := Outcome{OK: err == nil && !res.Failed, Result: Repaired, LogPath: ran.LogPath}
	switch {
	case ctx.Err() != nil:
		o.Result, o.Err = Cancelled, ctx.Err()
	case err != nil:
		o.Result, o.Err = Failed, err
	case res.Failed:
		o.Result = RepairFailed
		for _, s := range res.Steps {
			if s.Err != "" {
				o.Err = fmt.Errorf("%s: %s", s.Title, s.Err)
			}
		}
	}
	if res.After != nil {
		v := ChecklistOfDoctor(*res.After)
		o.Verify = &v
	}
	return o
}

// DoctorClean is the ID of the one check of a repair's checklist when doctor finds nothing: it has
// no title of doctor's, the front end words it.
const DoctorClean = "doctor"

// ChecklistOfDoctor is doctor's second run after a repair as the checklist.
func ChecklistOfDoctor(r doctor.Report) Checklist {
	v := Checklist{OK: r.Problems == 0}
	for _, c := range r.FrameworkCheck.Checks {
		v.Checks = append(v.Checks, Check{ID: c.Name, Title: c.Name, OK: c.OK, Evidence: c.Detail})
	}
	for _, f := range r.Findings {
		if !f.IsProblem() {
			v.Context = append(v.Context, Check{ID: f.Code, Title: f.Title, OK: true, Fix: f.Fix})
			continue
		}
		v.Checks = append(v.Checks, Check{ID: f.Code, Title: f.Title, Evidence: i18n.JoinClauses(f.Evidence), Fix: f.Fix}) // no Cause: the code is no word of what went wrong
	}
	if len(v.Checks) == 0 {
		v.Checks = append(v.Checks, Check{ID: DoctorClean, OK: true})
	}
	return v
}

// uninstalled names the dists a repair action removes: its typed list, never its argv read back.
func uninstalled(a doctor.Action) []string {
	return a.Uninstall
}
