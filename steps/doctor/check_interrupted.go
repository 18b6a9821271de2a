package doctor

import (
	"context"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/install"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/shellquote"
)

// CodeInterrupted is an install whose journal is still open: gpuwiz or the machine stopped in the
// middle of it (a kill, a power loss, a closed window), and the venv may be between two builds.
const CodeInterrupted = "interrupted-install"

// checkInterrupted names a run the venv's journal says did not finish: what it was doing, when it
// started, the step it stopped in, what it had changed, and the two ways out. A run whose gpuwiz
// still holds the venv is under way: a warning, with nothing to fix.
func checkInterrupted(e *Evidence) []Finding {
	in := e.Interrupted
	if in == nil {
		return nil
	}
	j := in.Journal
	ev := []string{
		i18n.T("doctor.interrupted.started", i18n.D{"Started": j.Started.Local().Format("2006-01-02 15:04:05"), "PID": j.PID}),
		i18n.T("doctor.interrupted.step", i18n.D{"Step": install.StepName(j.Step)}),
		i18n.T("doctor.interrupted.changed", i18n.D{"Changes": j.Changes()}),
		i18n.T("doctor.interrupted.journal", i18n.D{"File": install.JournalPath(j.Venv)}),
	}
	if j.Backup != "" && j.Changed && !j.NewVenv {
		ev = append(ev, i18n.T("doctor.interrupted.backup", i18n.D{"Backup": j.Backup, "Snapshot": j.Snapshot}))
	}
	if in.Running {
		return []Finding{{Code: CodeInterrupted, Severity: SeverityWarning, Title: in.Summary(), Evidence: ev,
			Fix: i18n.T("doctor.interrupted.fix_running")}}
	}
	// The commands as a shell takes them, whatever the path holds (spaces, quotes).
	putBack := shellquote.Command(e.GOOS, "gpuwiz", "doctor", "--venv", j.Venv, "--fix")
	fix := i18n.T("doctor.interrupted.fix", i18n.D{"Fix": putBack, "Finish": shellquote.Command(e.GOOS, "gpuwiz", "doctor", "--venv", j.Venv, "--fix", "--finish"),
		"Framework": j.Framework, "Version": j.Version, "Channel": j.Channel})
	if j.NewVenv {
		fix = i18n.T("doctor.interrupted.fix_new", i18n.D{"Fix": putBack, "Framework": j.Framework, "Version": j.Version, "Channel": j.Channel})
	}
	return []Finding{{Code: CodeInterrupted, Severity: SeverityError, Title: in.Summary(), Evidence: ev, Fix: fix}}
}

// RecoverFunc puts back what an interrupted run changed in venv, reporting output lines.
type RecoverFunc func(ctx context.Context, venv string, lines chan<- runner.Line) error

// recoverWithInstall is the install engine's Recover, its events as lines.
func recoverWithInstall(ctx context.Context, r runner.Runner, venv string, lines chan<- runner.Line) error {
	events := make(chan install.Event, 256)
	done := make(chan struct{})
	go func() {
		for ev := range events {
			text := ev.Line
			if text == "" {
				text = ev.Message
			}
			if text != "" && lines != nil {
				select {
				case lines <- runner.Line{Text: text}:
				default:
				}
			}
		}
		close(done)
	}()
	out := install.Recover(ctx, r, venv, events)
	close(events)
	<-done
	if out.Err != nil {
		return out.Err
	}
	return nil
}

// interruptedRepair is the plan for a venv with an unfinished run: put back what was there before,
// from the run's backup (no network); with finish, then install the build the run was installing.
// The other findings are most likely the run's doing: doctor looks again afterwards.
func interruptedRepair(rep Report, o RepairOptions, r Repair) Repair {
	j := rep.Interrupted.Journal
	r.Restore = true
	title := i18n.T("doctor.repair.restore", i18n.D{"Backup": j.Backup})
	if j.NewVenv {
		title = i18n.T("doctor.repair.restore_new", i18n.D{"Venv": j.Venv})
	}
	r.Actions = append(r.Actions, Action{Title: title, Fixes: CodeInterrupted, Restore: true})
	if o.Finish && !j.NewVenv {
		if o.Matrix == nil {
			r.Notes = append(r.Notes, i18n.T("doctor.repair.no_matrix"))
		} else if c, ok := o.Matrix.Lookup(j.Framework, j.Version, j.Channel); ok {
			r.Reinstall = &c
		} else {
			r.Notes = append(r.Notes, i18n.T("doctor.repair.finish_unknown", i18n.D{"Framework": j.Framework, "Version": j.Version, "Channel": j.Channel}))
		}
	}
	for _, f := range rep.Findings {
		if f.IsProblem() && f.Code != CodeInterrupted {
			r.Unfixable = append(r.Unfixable, f)
		}
	}
	r.Notes = append(r.Notes, i18n.T("doctor.repair.restore_note"))
	return r
}
