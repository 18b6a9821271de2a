package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/shellquote"
)

func printPlan(w io.Writer, p app.InstallPlan, c app.Candidate) {
	if p.Conda {
		fmt.Fprintln(w, i18n.T("cli.install.plan.header_conda", i18n.D{"Framework": c.Framework, "Version": c.FrameworkVersion, "Channel": c.Channel, "Venv": p.Venv}))
	} else {
		fmt.Fprintln(w, i18n.T("cli.install.plan.header", i18n.D{"Framework": c.Framework, "Version": c.FrameworkVersion, "Channel": c.Channel, "Venv": p.Venv}))
	}
	if !p.NewVenv && p.Env.Kind != "" {
		kind := app.KindWords(app.EnvLayout{Kind: p.Env.Kind, UV: p.Env.UV})
		if p.Env.HasPip {
			fmt.Fprintln(w, i18n.T("cli.install.plan.env", i18n.D{"Kind": kind, "Python": p.Env.Python}))
		} else {
			fmt.Fprintln(w, i18n.T("cli.install.plan.env_no_pip", i18n.D{"Kind": kind, "Python": p.Env.Python}))
		}
	}
	for i, s := range p.Steps {
		fmt.Fprintf(w, "  %2d. %s\n", i+1, s.Title)
		if !p.Shows(s) {
			continue // gpuwiz's own uninstaller or installer: no pip command runs (a note says so)
		}
		if s.Offline != nil {
			fmt.Fprintf(w, "      %s\n", i18n.T("cli.install.plan.offline", i18n.D{"Command": app.QuoteArgv(s.Offline)}))
		}
		if s.Argv != nil {
			fmt.Fprintf(w, "      %s\n", app.QuoteArgv(s.Argv))
		}
	}
	if len(p.Uninstall) > 0 {
		fmt.Fprintln(w, i18n.T("cli.install.plan.uninstall", i18n.D{"Packages": strings.Join(p.Removing(), " ")}))
	}
	fmt.Fprintln(w, i18n.T("cli.install.plan.install", i18n.D{"Packages": strings.Join(p.Pins, " ")}))
	fmt.Fprintln(w, i18n.T("cli.install.plan.source", i18n.D{"Source": p.Source.Describe()}))
	for _, n := range p.Notes {
		fmt.Fprintln(w, i18n.T("cli.install.note", i18n.D{"Text": n}))
	}
	for _, n := range p.Warnings {
		fmt.Fprintln(w, i18n.T("cli.install.warning", i18n.D{"Text": n}))
	}
}

func printEvent(w io.Writer, ev app.InstallEvent) {
	switch {
	case ev.State == app.InstallRunning:
		fmt.Fprintf(w, "… %s\n", ev.Message)
	case ev.State == app.InstallDone:
		fmt.Fprintf(w, "  %s\n", i18n.T("cli.install.event.done", i18n.D{"Step": app.InstallStepName(ev.StepID)}))
	case ev.State == app.InstallFailed:
		fmt.Fprintf(w, "  %s\n", i18n.T("cli.install.event.failed", i18n.D{"Step": app.InstallStepName(ev.StepID), "Message": ev.Message}))
	case ev.State == app.InstallSkipped:
		fmt.Fprintf(w, "  %s\n", i18n.T("cli.install.event.skipped", i18n.D{"Step": app.InstallStepName(ev.StepID), "Message": ev.Message}))
	case ev.Message != "":
		fmt.Fprintf(w, "  %s\n", ev.Message)
	}
}

func printOutcome(w io.Writer, o app.InstallOutcome, tail, activate []string) {
	fmt.Fprintln(w)
	cancelled := errors.Is(o.Err, context.Canceled) // the user's own cancel: what happened, without Go's words
	switch {
	case cancelled && o.Result == app.EngineUnchanged && !o.VenvRemoved:
		fmt.Fprintln(w, i18n.T("cli.install.result.cancelled_unchanged"))
	case cancelled && o.Result != app.EngineDamaged && o.VenvRemoved:
		fmt.Fprintln(w, i18n.T("cli.install.result.cancelled_venv_removed"))
	case cancelled && o.Result == app.EngineRestored:
		fmt.Fprintln(w, i18n.T("cli.install.result.cancelled_restored"))
	case o.Result == app.EngineInstalled:
		fmt.Fprintln(w, i18n.T("cli.install.result.installed", i18n.D{"Packages": strings.Join(o.Installed, " ")}))
	case o.Result == app.EngineUnchanged:
		fmt.Fprintln(w, i18n.T("cli.install.result.unchanged", i18n.D{"Step": app.InstallStepName(o.FailedStep), "Err": o.Error}))
		if o.VenvRemoved {
			fmt.Fprintln(w, i18n.T("cli.install.result.venv_removed"))
		}
	case o.Result == app.EngineRestored:
		if o.VenvRemoved {
			fmt.Fprintln(w, i18n.T("cli.install.result.restored_venv_removed", i18n.D{"Step": app.InstallStepName(o.FailedStep), "Err": o.Error}))
		} else {
			fmt.Fprintln(w, i18n.T("cli.install.result.restored", i18n.D{"Step": app.InstallStepName(o.FailedStep), "Err": o.Error}))
		}
	default:
		fmt.Fprintln(w, i18n.T("cli.install.result.damaged", i18n.D{"Step": app.InstallStepName(o.FailedStep), "Err": o.Error}))
		if len(o.Leftovers) > 0 {
			fmt.Fprintln(w, i18n.T("cli.install.result.leftovers"))
			for _, l := range o.Leftovers {
				fmt.Fprintf(w, "  %s %s\n    %s\n", leftoverWord(l.What), l.Path, l.Clear)
			}
		}
	}
	if o.Result != app.EngineInstalled && len(tail) > 0 {
		fmt.Fprintln(w, i18n.T("cli.install.result.last_output"))
		for _, l := range tail {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	if o.Verify != nil {
		printVerify(w, *o.Verify)
	}
	notVenv := o.EnvKind != "" && o.EnvKind != app.EnvVenv // a bundle's embedded Python, a conda env
	venv := filepath.Dir(o.ConstraintsFile)
	off, doctor := gpuwizLine("protect", "--off", "--venv", venv), gpuwizLine("doctor", "--venv", venv)
	switch {
	case o.Protected != "" && notVenv:
		fmt.Fprintln(w, i18n.T("cli.install.result.protected_env", i18n.D{"Config": o.Protected, "File": o.ConstraintsFile, "Off": off}))
	case o.Protected != "":
		fmt.Fprintln(w, i18n.T("cli.install.result.protected", i18n.D{"Config": o.Protected, "File": o.ConstraintsFile, "Off": off}))
	case o.Result == app.EngineInstalled && o.Verify != nil && !o.Verify.OK && notVenv:
		fmt.Fprintln(w, i18n.T("cli.install.result.not_kept_env", i18n.D{"Doctor": doctor}))
	case o.Result == app.EngineInstalled && o.Verify != nil && !o.Verify.OK:
		fmt.Fprintln(w, i18n.T("cli.install.result.not_kept", i18n.D{"Doctor": doctor}))
	case o.ConstraintsFile != "":
		fmt.Fprintln(w, i18n.T("cli.install.result.constraints", i18n.D{"File": shellquote.Command(runtime.GOOS, o.ConstraintsFile)}))
	}
	for _, wn := range o.Warnings {
		fmt.Fprintln(w, i18n.T("cli.install.warning", i18n.D{"Text": wn}))
	}
	for _, x := range o.Outside {
		fmt.Fprintln(w, i18n.T("cli.install.warning", i18n.D{"Text": i18n.N("install.own.outside", len(x.Paths), i18n.D{"Dist": x.Dist})}))
		for _, p := range x.Paths {
			fmt.Fprintf(w, "  %s\n", p)
		}
	}
	if o.Result == app.EngineInstalled && len(activate) > 0 {
		fmt.Fprintln(w, i18n.T("cli.install.result.activate"))
		for _, h := range activate {
			fmt.Fprintf(w, "  %s\n", h)
		}
	}
	fmt.Fprintln(w, i18n.T("cli.install.log", i18n.D{"Path": o.LogPath}))
}

// leftoverWord is a leftover's kind in the reader's language ("extra", "missing", "changed").
func leftoverWord(what string) string { return leftoverWords.Say(what, what) }

var leftoverWords = i18n.Words[string]{
	"extra":   func() string { return i18n.T("cli.install.leftover.extra") },
	"missing": func() string { return i18n.T("cli.install.leftover.missing") },
	"changed": func() string { return i18n.T("cli.install.leftover.changed") },
}

// lineTail keeps the last lines of output for a failure message.
type lineTail struct {
	max   int
	lines []string
}

func (t *lineTail) add(l string) {
	t.lines = append(t.lines, l)
	if len(t.lines) > t.max {
		t.lines = t.lines[len(t.lines)-t.max:]
	}
}

// followRun runs run with a channel for the engine's events and prints them as they come (none when
// quiet: --json); it returns once run has returned and every event is handled, with the last lines
// of output for a failure message.
func followRun(w io.Writer, quiet bool, run func(events chan<- app.InstallEvent)) (tail []string) {
	events := make(chan app.InstallEvent, 512)
	done := make(chan struct{})
	t := &lineTail{max: 15}
	progress := newProgressPrinter(w)
	go func() {
		defer close(done)
		for ev := range events {
			if ev.Line != "" {
				t.add(ev.Line)
			}
			if !quiet {
				progress.print(w, ev)
			}
		}
	}()
	run(events)
	close(events)
	<-done
	return t.lines
}

// progressPrinter draws download progress: one line redrawn in place on a terminal, else a line
// at every tenth of the total (a log stays short).
type progressPrinter struct {
	tty     bool
	open    bool // a progress line is drawn and not yet ended
	width   int  // its width in cells, to blank what a shorter line would leave
	lastPct int
	lastAt  time.Time
}

func newProgressPrinter(w io.Writer) *progressPrinter {
	_, tty := app.Terminal(w)
	return &progressPrinter{tty: tty, lastPct: -1}
}

func (p *progressPrinter) print(w io.Writer, ev app.InstallEvent) {
	if ev.Progress == nil {
		if p.open && (ev.State != "" || ev.Message != "") {
			fmt.Fprintln(w)
			p.open = false
		}
		if ev.State == app.InstallRunning {
			p.lastPct = -1
		}
		printEvent(w, ev)
		return
	}
	line := progressText(*ev.Progress)
	if p.tty {
		// A carriage return and spaces, not an erase-line escape: Windows 10's console shows escapes
		// as text unless a program turns its VT mode on.
		wd := i18n.Width(line)
		if !p.open {
			p.width = 0
		}
		fmt.Fprint(w, "\r  "+line+strings.Repeat(" ", max(0, p.width-wd)))
		p.open, p.width = true, wd
		return
	}
	pct := -1
	if ev.Progress.Total > 0 {
		pct = int(10 * ev.Progress.Done / ev.Progress.Total)
	}
	if pct > p.lastPct || pct < 0 && time.Since(p.lastAt) >= 10*time.Second {
		fmt.Fprintln(w, "  "+line)
		p.lastPct, p.lastAt = pct, time.Now()
	}
}

// progressText is "downloaded 1.2 GiB of 4.5 GiB (27%), 112.0 MiB/s, 30s left"; the parts not
// known are left out.
func progressText(pr app.Progress) string {
	var total, pct, rate, left string
	if pr.Total > 0 {
		total, pct = i18n.Size(pr.Total), strconv.FormatInt(100*pr.Done/pr.Total, 10)
	}
	if pr.BytesPerSec > 0 {
		rate = i18n.Size(int64(pr.BytesPerSec))
	}
	left = i18n.Left(time.Duration(pr.ETASeconds * float64(time.Second)))
	return i18n.T("cli.install.progress", i18n.D{"Done": i18n.Size(pr.Done), "Total": total, "Pct": pct, "Rate": rate, "Left": left})
}
