package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/term"

	"gpuwiz/matrix"
	"gpuwiz/steps/install"
	"gpuwiz/steps/runner"
)

func printPlan(w io.Writer, p install.Plan, c matrix.Candidate) {
	into := p.Venv
	if p.Conda {
		into += " (a conda env)"
	}
	fmt.Fprintf(w, "Plan: %s %s (%s) into %s\n", c.Framework, c.FrameworkVersion, c.Channel, into)
	for i, s := range p.Steps {
		fmt.Fprintf(w, "  %2d. %s\n", i+1, s.Title)
		if s.Offline != nil {
			fmt.Fprintf(w, "      first, from the cache: %s\n", runner.QuoteArgv(s.Offline))
		}
		if s.Argv != nil {
			fmt.Fprintf(w, "      %s\n", runner.QuoteArgv(s.Argv))
		}
	}
	if len(p.Uninstall) > 0 {
		fmt.Fprintf(w, "uninstall: %s\n", strings.Join(p.Uninstall, " "))
	}
	fmt.Fprintf(w, "install: %s\n", strings.Join(p.Install, " "))
	fmt.Fprintf(w, "wheels from: %s\n", p.Source.Describe())
	for _, n := range p.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	for _, n := range p.Warnings {
		fmt.Fprintf(w, "warning: %s\n", n)
	}
}

func printEvent(w io.Writer, p install.Plan, ev install.Event) {
	switch {
	case ev.State == install.StateRunning:
		fmt.Fprintf(w, "… %s\n", ev.Message)
	case ev.State == install.StateDone:
		fmt.Fprintf(w, "  done: %s\n", ev.StepID)
	case ev.State == install.StateFailed:
		fmt.Fprintf(w, "  failed: %s: %s\n", ev.StepID, ev.Message)
	case ev.State == install.StateSkipped:
		fmt.Fprintf(w, "  skipped: %s %s\n", ev.StepID, ev.Message)
	case ev.Message != "":
		fmt.Fprintf(w, "  %s\n", ev.Message)
	}
}

func printOutcome(w io.Writer, o install.Outcome, tail, activate []string) {
	fmt.Fprintln(w)
	switch o.Result {
	case install.ResultInstalled:
		fmt.Fprintf(w, "Installed %s.\n", strings.Join(o.Installed, " "))
	case install.ResultUnchanged:
		fmt.Fprintf(w, "Failed at %s; nothing was changed: %s\n", o.FailedStep, o.Error)
		if o.VenvRemoved {
			fmt.Fprintln(w, "The venv this run had created was removed again.")
		}
	case install.ResultRestored:
		if o.VenvRemoved {
			fmt.Fprintf(w, "Failed at %s; the venv this run had created was removed again: %s\n", o.FailedStep, o.Error)
		} else {
			fmt.Fprintf(w, "Failed at %s; the previous packages are back (site-packages checked file by file): %s\n", o.FailedStep, o.Error)
		}
	default:
		fmt.Fprintf(w, "Failed at %s, and the venv is damaged: it still differs from before the run: %s\n", o.FailedStep, o.Error)
		if len(o.Leftovers) > 0 {
			fmt.Fprintln(w, "What is left, and the command that clears each:")
			for _, l := range o.Leftovers {
				fmt.Fprintf(w, "  %s %s\n    %s\n", l.What, l.Path, l.Clear)
			}
		}
	}
	if o.Result != install.ResultInstalled && len(tail) > 0 {
		fmt.Fprintln(w, "last output:")
		for _, l := range tail {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	if o.Verify != nil {
		printVerify(w, *o.Verify)
	}
	if o.ConstraintsFile != "" {
		fmt.Fprintf(w, "Keep this build in later installs: pip install -r requirements.txt -c %s\n", o.ConstraintsFile)
	}
	for _, wn := range o.Warnings {
		fmt.Fprintf(w, "warning: %s\n", wn)
	}
	if o.Result == install.ResultInstalled && len(activate) > 0 {
		fmt.Fprintln(w, "Enter the venv:")
		for _, h := range activate {
			fmt.Fprintf(w, "  %s\n", h)
		}
	}
	fmt.Fprintf(w, "log: %s\n", o.LogPath)
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

// progressPrinter draws download progress: one line redrawn in place on a terminal, else a line
// at every tenth of the total (a log stays short).
type progressPrinter struct {
	tty     bool
	open    bool // a progress line is drawn and not yet ended
	lastPct int
	lastAt  time.Time
}

func newProgressPrinter(w io.Writer) *progressPrinter {
	f, ok := w.(*os.File)
	return &progressPrinter{tty: ok && term.IsTerminal(int(f.Fd())), lastPct: -1}
}

func (p *progressPrinter) print(w io.Writer, plan install.Plan, ev install.Event) {
	if ev.Progress == nil {
		if p.open && (ev.State != "" || ev.Message != "") {
			fmt.Fprintln(w)
			p.open = false
		}
		if ev.State == install.StateRunning {
			p.lastPct = -1
		}
		printEvent(w, plan, ev)
		return
	}
	line := progressText(*ev.Progress)
	if p.tty {
		fmt.Fprint(w, "\r  "+line+"\x1b[K")
		p.open = true
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

// progressText is "downloaded 1.2 GiB of 4.5 GiB (27%), 112.0 MiB/s, 30s left".
func progressText(pr runner.Progress) string {
	s := "downloaded " + sizeText(pr.Done)
	if pr.Total > 0 {
		s += fmt.Sprintf(" of %s (%d%%)", sizeText(pr.Total), 100*pr.Done/pr.Total)
	}
	if pr.BytesPerSec > 0 {
		s += ", " + sizeText(int64(pr.BytesPerSec)) + "/s"
	}
	if pr.ETASeconds > 0 {
		s += ", " + time.Duration(pr.ETASeconds*float64(time.Second)).Round(time.Second).String() + " left"
	}
	return s
}

func sizeText(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
