package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"gpuwiz/matrix"
	"gpuwiz/steps/doctor"
	"gpuwiz/steps/install"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/verify"
	"gpuwiz/steps/words"
)

// DoctorDeps wires doctor to this machine (or the --simulate GPU report), its commands logged to
// log. A matrix that cannot be read is a note, not the end: doctor checks what it can without it.
func (e *Env) DoctorDeps(log io.Writer) (doctor.Deps, []words.Note) {
	var notes []words.Note
	m, err := e.Matrix()
	if err != nil {
		notes = append(notes, words.Note{Code: words.NoteNoMatrix, Err: err})
		m = nil
	}
	return doctor.Deps{
		Runner:   runner.New(log),
		GPU:      e.GPUReport,
		Matrix:   m,
		Registry: doctor.SystemRegistry(),
		Env:      doctor.OSEnviron{},
		FS:       doctor.OSFS{},
	}, notes
}

// Diagnosis is doctor's report on one environment, with the deps it ran with (a repair reuses them).
type Diagnosis struct {
	Report doctor.Report
	Notes  []words.Note // the diagnosis's own notes (a matrix that could not be read)
	deps   doctor.Deps
	opts   doctor.Options
	took   time.Duration // how long the diagnosis took
}

// Diagnose runs doctor on opts' venv or Python, its commands logged to log (nil: nowhere). Bad input
// (a path that is no environment) is a usage error (exit 2).
func (e *Env) Diagnose(ctx context.Context, opts doctor.Options, log io.Writer) (*Diagnosis, error) {
	if log == nil {
		log = io.Discard
	}
	deps, notes := e.DoctorDeps(log)
	began := time.Now()
	rep, err := doctor.Run(ctx, deps, opts)
	var inErr *doctor.InputError
	if errors.As(err, &inErr) {
		return nil, Usagef("%s", inErr.Msg)
	}
	if err != nil {
		return nil, err
	}
	return &Diagnosis{Report: rep, Notes: notes, deps: deps, opts: opts, took: time.Since(began)}, nil
}

// RepairSession is the repair of a diagnosed environment: doctor's plan, with the source its reinstall
// takes the wheels from, ready to run once.
type RepairSession struct {
	Report doctor.Report
	Plan   doctor.Repair
	deps   doctor.Deps
	src    install.ReinstallOptions
	cmdLog io.Writer
	// diagnosed is how long the diagnosis before the plan took: the log says it, beside the repair's
	// own steps, so a slow repair shows where its time went.
	diagnosed time.Duration
}

// PlanRepair makes the repair plan of d: doctor's actions, and for a reinstall the source (the
// user's src, else what the venv's lock recorded, else the channel's index), in Plan.Source. Both
// front ends show this plan. A bad source is a usage error (exit 2).
func (e *Env) PlanRepair(ctx context.Context, d *Diagnosis, src install.ReinstallOptions) (*RepairSession, error) {
	return e.PlanRepairFinishing(ctx, d, src, false)
}

// PlanRepairFinishing is PlanRepair; with finish, a venv whose last install was interrupted gets the
// build that install was making once the old one is back (doctor --fix --finish), from the index that
// install used unless src names another.
func (e *Env) PlanRepairFinishing(ctx context.Context, d *Diagnosis, src install.ReinstallOptions, finish bool) (*RepairSession, error) {
	g, _ := e.GPUReport(ctx)
	plan := doctor.RepairPlan(d.Report, doctor.RepairOptions{Matrix: d.deps.Matrix, GPU: g, Finish: finish})
	if d.Report.FrameworkCheck.Deferred && plan.Reinstall == nil && !plan.Restore {
		// The framework's check was left to after a reinstall or a restore that this plan does not
		// make: it runs now, and the plan is made from the whole diagnosis.
		opts := d.opts
		opts.RepairFollows = false
		began := time.Now()
		rep, err := doctor.Run(ctx, d.deps, opts)
		if err != nil {
			return nil, err
		}
		d = &Diagnosis{Report: rep, Notes: d.Notes, deps: d.deps, opts: opts, took: d.took + time.Since(began)}
		plan = doctor.RepairPlan(d.Report, doctor.RepairOptions{Matrix: d.deps.Matrix, GPU: g, Finish: finish})
	}
	if in := d.Report.Interrupted; plan.Restore && plan.Reinstall != nil && src.IndexURL == "" && src.FindLinks == "" && in.Journal.IndexURL != plan.Reinstall.IndexURL {
		src.IndexURL = in.Journal.IndexURL
	}
	if c := plan.Reinstall; c != nil {
		s, err := install.RepairSource(plan.Venv, *c, src)
		if err != nil {
			return nil, Usagef("%s", strings.TrimPrefix(err.Error(), install.ErrBadInput.Error()+": "))
		}
		plan.Source = s.Describe()
	}
	src.Dists = plan.ReinstallDists
	if src.Net == nil && plan.Venv != "" {
		src.Net = e.Net(plan.Venv) // the run's one set of proxy rules for this Python
	}
	return &RepairSession{Report: d.Report, Plan: plan, deps: d.deps, src: src, diagnosed: d.took}, nil
}

// LogTo sends the repair's commands to w as well as to the log file (the CLI's bundle log).
func (s *RepairSession) LogTo(w io.Writer) { s.cmdLog = w }

// RepairOutcome is how a repair session ended.
type RepairOutcome struct {
	Result doctor.RepairResult
	Err    error  // the repair could not run (a step's failure is Result.Failed)
	Ended  Result // Repaired, ProblemsLeft, RepairFailed or Cancelled
	// ExitCode: 0 repaired, 5 problems left, 1 failed, 130 interrupted.
	ExitCode  int
	LogPath   string
	RecordErr error // the list of venvs could not be written: a warning
}

// Run applies the plan with its log file ("doctor-fix-<time>.log"), the install engine as the
// reinstall step, and records the venv on the list of venvs.
func (s *RepairSession) Run(ctx context.Context, events chan<- doctor.RepairEvent) RepairOutcome {
	w, logPath, closeLog := install.OpenLog(install.DefaultLogPath("doctor-fix"))
	defer closeLog()
	logw := w
	if s.cmdLog != nil {
		logw = io.MultiWriter(s.cmdLog, w)
	}
	deps := s.deps
	r := runner.New(logw)
	deps.Runner = r
	began := time.Now()
	runner.Note(r, fmt.Sprintf("diagnosis before the repair: %.3f s", s.diagnosed.Seconds())) //i18n:raw the log, for support
	src := s.src
	src.LogPath = logPath
	deps.Reinstall = func(ctx context.Context, venv, _ string, c matrix.Candidate, lines chan<- runner.Line, installed func()) (*verify.Report, error) {
		src := src
		src.Installed = installed
		return install.Reinstall(ctx, r, venv, c, src, lines)
	}
	res, err := doctor.ApplyRepair(ctx, deps, s.Plan, events)
	runner.Note(r, fmt.Sprintf("repair and the check after it: %.3f s", time.Since(began).Seconds())) //i18n:raw the log, for support
	out := RepairOutcome{Result: res, Err: err, Ended: RepairResult(res, err, ctx), LogPath: logPath}
	switch {
	case err != nil && ctx.Err() != nil:
		out.ExitCode = ExitInterrupted
	case err != nil || res.Failed:
		out.ExitCode = ExitFailure
	case res.After != nil && res.After.Problems > 0:
		out.ExitCode = ExitProblems
	}
	if s.Plan.Venv != "" {
		out.RecordErr = RecordVenv(ctx, s.Plan.Venv, ActionRepair, out.Ended, err == nil && !res.Failed, s.Plan.Reinstall)
	}
	return out
}
