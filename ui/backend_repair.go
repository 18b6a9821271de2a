package ui

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"gpuwiz/steps/app"
	"gpuwiz/steps/doctor"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/install"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/urls"
)

// RepairPlan asks the application layer for the repair session of a diagnosis (doctor's plan and
// the source its reinstall takes the wheels from, as the CLI shows them) and lists it.
func (b *stepsBackend) RepairPlan(ctx context.Context, venv string, r DoctorReport) (Plan, error) {
	d, ok := r.Impl.(*app.Diagnosis)
	if !ok {
		return Plan{}, errors.New(i18n.T("ui.backend.no_doctor_report"))
	}
	sess, err := b.env.PlanRepair(ctx, d, install.ReinstallOptions{})
	if err != nil {
		return Plan{}, err
	}
	p := planOfRepair(sess.Plan)
	p.Impl = sess
	return p, nil
}

// planOfRepair lists a repair as the plan screen and the install screen show it.
func planOfRepair(rp doctor.Repair) Plan {
	p := Plan{Venv: rp.Venv, Impl: rp, Notes: rp.Notes}
	for _, st := range rp.Steps() { // in the order ApplyRepair runs them, with its step numbers
		id := strconv.Itoa(st.N)
		a := st.Action
		switch {
		case a == nil:
			c := rp.Reinstall
			p.Candidate = *c
			p.Steps = append(p.Steps, PlanStep{ID: id, Title: i18n.T("ui.backend.install_step",
				i18n.D{"Framework": frameworkName(c.Framework), "Version": c.FrameworkVersion, "Channel": c.Channel})})
			for _, pk := range c.Packages {
				p.Install = append(p.Install, pk.Requirement()+pk.LocalLabel)
			}
			from := rp.Source
			if from == "" {
				from = i18n.T("ui.backend.index_only", i18n.D{"URL": urls.Redact(c.IndexURL)})
			}
			p.Commands = append(p.Commands, i18n.T("ui.backend.engine_install", i18n.D{"Framework": c.Framework, "Version": c.FrameworkVersion, "From": from}))
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
			p.Commands = append(p.Commands, i18n.T("ui.backend.delete", i18n.D{"Path": a.RemovePath}))
		case len(a.Argv) > 0:
			p.Commands = append(p.Commands, runner.QuoteArgv(a.Argv))
			p.Uninstall = append(p.Uninstall, uninstalled(*a)...)
		}
	}
	if len(p.Steps) > 0 {
		p.Steps = append(p.Steps, PlanStep{ID: "0", Title: i18n.T("ui.backend.doctor_again")})
	}
	for _, f := range rp.Unfixable {
		p.Warnings = append(p.Warnings, i18n.T("ui.backend.left_to_you", i18n.D{"Title": f.Title, "Fix": f.Fix}))
	}
	return p
}

// applyRepair runs a repair session, translating doctor's events for the install screen.
func (b *stepsBackend) applyRepair(ctx context.Context, sess *app.RepairSession, events chan<- InstallEvent) Outcome {
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
	o := Outcome{OK: err == nil && !res.Failed, Result: app.Repaired, LogPath: ran.LogPath}
	switch {
	case ctx.Err() != nil:
		o.Result, o.Err = app.Cancelled, ctx.Err()
	case err != nil:
		o.Result, o.Err = app.Failed, err
	case res.Failed:
		o.Result = app.RepairFailed
		for _, s := range res.Steps {
			if s.Err != "" {
				o.Err = fmt.Errorf("%s: %s", s.Title, s.Err)
			}
		}
	}
	if res.After != nil {
		v := verifyOfDoctor(*res.After)
		o.Verify = &v
	}
	return o
}

// verifyOfDoctor turns doctor's second run into the verify checklist.
func verifyOfDoctor(r doctor.Report) VerifyReport {
	v := VerifyReport{OK: r.Problems == 0}
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
		v.Checks = append(v.Checks, Check{ID: "doctor", Title: i18n.T("ui.backend.doctor_clean"), OK: true})
	}
	return v
}

// uninstalled names the dists a repair action removes: its typed list, never its argv read back.
func uninstalled(a doctor.Action) []string {
	return a.Uninstall
}
