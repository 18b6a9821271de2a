package ui

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"gpuwiz/steps/cli"
	"gpuwiz/steps/doctor"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/install"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/urls"
)

// repairDeps are doctor's dependencies for this run: the CLI's GPU report and matrix, the real
// runner, the install engine for the reinstall step.
func (b *stepsBackend) repairDeps(r runner.Runner, logPath string) (doctor.Deps, error) {
	m, err := b.env.Matrix()
	if err != nil {
		return doctor.Deps{}, err
	}
	return doctor.Deps{Runner: r, GPU: b.env.GPUReport, Matrix: m, Registry: doctor.SystemRegistry(), Reinstall: reinstallWith(r, logPath)}, nil
}

func (b *stepsBackend) RepairPlan(ctx context.Context, venv string, r DoctorReport) (Plan, error) {
	rep, ok := r.Impl.(doctor.Report)
	if !ok {
		return Plan{}, errors.New(i18n.T("ui.backend.no_doctor_report"))
	}
	m, err := b.env.Matrix()
	if err != nil {
		return Plan{}, err
	}
	g, _ := b.env.GPUReport(ctx)
	rp := doctor.RepairPlan(rep, doctor.RepairOptions{Matrix: m, GPU: g})
	if c := rp.Reinstall; c != nil {
		if src, err := install.RepairSource(rp.Venv, *c, install.ReinstallOptions{}); err == nil {
			rp.Source = src.Describe()
		}
	}
	return planOfRepair(rp), nil
}

// planOfRepair lists a repair as the plan screen and the install screen show it.
func planOfRepair(rp doctor.Repair) Plan {
	p := Plan{Venv: rp.Venv, Impl: rp, Notes: rp.Notes}
	// In the order ApplyRepair runs them, with its step numbers: the engine's removals and the
	// install, then doctor's own steps.
	stepOf, installStep := rp.StepNumbers()
	add := func(i int) {
		a := rp.Actions[i]
		p.Steps = append(p.Steps, PlanStep{ID: strconv.Itoa(stepOf[i]), Title: a.Title})
		switch {
		case a.RemovePath != "":
			p.Uninstall = append(p.Uninstall, a.RemovePath)
			p.Commands = append(p.Commands, i18n.T("ui.backend.delete", i18n.D{"Path": a.RemovePath}))
		default:
			p.Commands = append(p.Commands, runner.QuoteArgv(a.Argv))
			p.Uninstall = append(p.Uninstall, uninstalled(a.Argv)...)
		}
	}
	for i, a := range rp.Actions {
		if a.Engine {
			add(i)
		}
	}
	if c := rp.Reinstall; c != nil {
		p.Candidate = *c
		p.Steps = append(p.Steps, PlanStep{ID: strconv.Itoa(installStep), Title: i18n.T("ui.backend.install_step",
			i18n.D{"Framework": frameworkName(c.Framework), "Version": c.FrameworkVersion, "Channel": c.Channel})})
		for _, pk := range c.Packages {
			p.Install = append(p.Install, pk.Requirement()+pk.LocalLabel)
		}
		from := rp.Source
		if from == "" {
			from = i18n.T("ui.backend.index_only", i18n.D{"URL": urls.Redact(c.IndexURL)})
		}
		p.Commands = append(p.Commands, i18n.T("ui.backend.engine_install", i18n.D{"Framework": c.Framework, "Version": c.FrameworkVersion, "From": from}))
	}
	for i, a := range rp.Actions {
		if !a.Engine {
			add(i)
		}
	}
	if len(p.Steps) > 0 {
		p.Steps = append(p.Steps, PlanStep{ID: "0", Title: i18n.T("ui.backend.doctor_again")})
	}
	for _, f := range rp.Unfixable {
		p.Warnings = append(p.Warnings, i18n.T("ui.backend.left_to_you", i18n.D{"Title": f.Title, "Code": f.Code, "Fix": f.Fix}))
	}
	return p
}

// applyRepair runs a repair plan, translating doctor's events for the install screen.
func (b *stepsBackend) applyRepair(ctx context.Context, rp doctor.Repair, events chan<- InstallEvent) Outcome {
	logw, logPath, closeLog := install.OpenLog(install.DefaultLogPath("repair"))
	defer closeLog()
	deps, err := b.repairDeps(runner.New(logw), logPath)
	if err != nil {
		return Outcome{Result: "failed", Err: err, LogPath: logPath}
	}
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
	res, err := doctor.ApplyRepair(ctx, deps, rp, rev)
	close(rev)
	<-done
	o := Outcome{OK: err == nil && !res.Failed, Result: "repaired", LogPath: logPath}
	switch {
	case ctx.Err() != nil:
		o.Result, o.Err = "cancelled", ctx.Err()
	case err != nil:
		o.Result, o.Err = "failed", err
	case res.Failed:
		o.Result = "repair failed" //i18n:raw the result word (like "failed"), matched by the done screen and the summary
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
	if rp.Venv != "" {
		cli.RecordVenv(ctx, nil, rp.Venv, "repair", cli.RepairResultWords(res, err, ctx), err == nil && !res.Failed, rp.Reinstall)
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
			continue
		}
		v.Checks = append(v.Checks, Check{ID: f.Code, Title: f.Title, Evidence: strings.Join(f.Evidence, "; "), Cause: f.Code, Fix: f.Fix})
	}
	if len(v.Checks) == 0 {
		v.Checks = append(v.Checks, Check{ID: "doctor", Title: i18n.T("ui.backend.doctor_clean"), OK: true})
	}
	return v
}

// uninstalled names the dists a "pip uninstall -y a b" argv removes.
func uninstalled(argv []string) []string {
	for i, a := range argv {
		if a == "uninstall" {
			var out []string
			for _, n := range argv[i+1:] {
				if !strings.HasPrefix(n, "-") {
					out = append(out, n)
				}
			}
			return out
		}
	}
	return nil
}
