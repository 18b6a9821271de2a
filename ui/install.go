package ui

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/progress"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

// logTailLines is how many lines of output the install screen keeps; the full log is in the file.
const logTailLines = 500

// installScreen runs the plan: its steps with state, a download bar, a spinner with the elapsed
// time and a bounded tail of the live log. Ctrl+C asks first, then cancels the child tree.
type installScreen struct {
	frame
	plan       app.Plan
	wg         *sync.WaitGroup
	job        *installJob
	states     map[string]string
	did        map[string]string // step ID → what it really did, shown in place of its title (InstallEvent.Did)
	current    string
	log        *logRing
	scroll     int // lines above the newest; 0 follows the tail
	download       // the rate is 0 from pip
	spin       spinner.Model
	started    time.Time
	now        time.Time
	confirming bool
	cancelled  bool
	outcome    *app.Outcome
	message    string
	keys       struct{ cancel, stop, keep, verify key.Binding }
	// finish is the message the root gets when the user goes on (nil: installFinishMsg); next is the
	// key that does it after a success (nil binding: keys.verify).
	finish func(app.Outcome) tea.Msg
	next   key.Binding
}

func newInstallScreen(c *Common, p app.Plan, wg *sync.WaitGroup) *installScreen {
	s := &installScreen{frame: newFrame(c), plan: p, wg: wg, states: map[string]string{}, did: map[string]string{}, log: newLogRing(logTailLines),
		spin: newSpinner(c), download: download{bar: c.Styles.NewBar()}}
	for _, st := range p.Steps {
		s.states[st.ID] = app.StepPending
	}
	k := c.Keys
	s.keys.cancel, s.keys.stop, s.keys.keep = relabel(k.ForceQuit, i18n.T("ui.install.key_cancel")), relabel(k.Confirm, i18n.T("ui.install.key_stop")), relabel(k.Deny, i18n.T("ui.install.key_keep"))
	s.keys.verify = relabel(k.Select, i18n.T("ui.install.key_verify"))
	return s
}

func (s *installScreen) Init() tea.Cmd {
	if s.job != nil {
		return nil
	}
	ctx, cancel := context.WithCancel(s.c.Ctx)
	b, plan := s.c.Backend, s.plan
	s.job = newJob[app.InstallEvent, app.Outcome](s.id, cancel, installDrainLimit)
	s.started = s.c.now()
	s.now = s.started
	run := s.job.start(s.wg, func(ev chan<- app.InstallEvent) app.Outcome { return b.Install(ctx, plan, ev) })
	return tea.Batch(run, s.job.tick(), s.spin.Tick)
}

func (s *installScreen) Busy() bool    { return s.outcome == nil }
func (s *installScreen) Title() string { return i18n.T("ui.install.title") }
func (s *installScreen) ShortHelp() []key.Binding {
	k := s.c.Keys
	switch {
	case s.outcome != nil:
		next := s.keys.verify
		if s.finish != nil {
			next = s.next
		}
		if !s.outcome.OK {
			next = k.Select
		}
		return []key.Binding{next, k.Up, k.Down}
	case s.confirming:
		return []key.Binding{s.keys.stop, s.keys.keep}
	case s.cancelled:
		return []key.Binding{k.Up, k.Down}
	}
	return []key.Binding{s.keys.cancel, k.Up, k.Down}
}
func (s *installScreen) FullHelp() [][]key.Binding {
	k := s.c.Keys
	return [][]key.Binding{s.ShortHelp(), {k.PageUp, k.PageDown}}
}

func (s *installScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case installBatchMsg:
		s.now = s.c.now()
		s.apply(msg.events)
		s.outcome = msg.result
		return s, s.job.after(msg)
	case spinner.TickMsg:
		if s.outcome != nil {
			return s, nil
		}
		s.now = s.c.now()
		var cmd tea.Cmd
		s.spin, cmd = s.spin.Update(msg)
		return s, cmd
	case tea.KeyMsg:
		return s, s.key(msg)
	}
	return s, nil
}

func (s *installScreen) key(msg tea.KeyMsg) tea.Cmd {
	k := s.c.Keys
	switch {
	case key.Matches(msg, k.Up):
		s.scroll = min(s.scroll+1, max(s.log.Len()-s.logHeight(), 0))
	case key.Matches(msg, k.Down):
		s.scroll = max(s.scroll-1, 0)
	case key.Matches(msg, k.PageUp):
		s.scroll = min(s.scroll+s.logHeight(), max(s.log.Len()-s.logHeight(), 0))
	case key.Matches(msg, k.PageDown):
		s.scroll = max(s.scroll-s.logHeight(), 0)
	case s.outcome != nil:
		if key.Matches(msg, k.Select) {
			if s.finish != nil {
				return navigate(s.finish(*s.outcome))
			}
			return navigate(installFinishMsg{*s.outcome})
		}
	case s.confirming && key.Matches(msg, s.keys.stop):
		s.confirming, s.cancelled = false, true
		s.job.cancel()
	case s.confirming && key.Matches(msg, s.keys.keep, k.Back):
		s.confirming = false
	case key.Matches(msg, s.keys.cancel) && !s.cancelled:
		s.confirming = true
	}
	return nil
}

func (s *installScreen) apply(events []app.InstallEvent) {
	for _, e := range events {
		if e.StepID != "" && e.State != "" {
			s.states[e.StepID] = e.State
			if e.Did != "" {
				s.did[e.StepID] = e.Did
			}
			if e.State == app.StepRunning {
				s.current = e.StepID
				s.done, s.total = 0, 0
			}
		}
		if e.Line != "" {
			s.log.Add(e.Line)
			if s.scroll > 0 {
				s.scroll++ // keep the lines the user is reading in place
			}
		}
		if p := e.Progress; p != nil && (p.Total > 0 || p.Done > 0) {
			s.done, s.total = p.Done, p.Total
			s.rate, s.eta = p.BytesPerSec, time.Duration(p.ETASeconds*float64(time.Second))
		}
		if e.Message != "" {
			s.message = e.Message
		}
	}
}

func (s *installScreen) logHeight() int { return max(s.h-len(s.plan.Steps)-6, 2) }

func (s *installScreen) View() string {
	st := s.c.Styles
	var b strings.Builder
	for _, step := range s.plan.Steps {
		running := s.spin.View()
		if s.outcome != nil || s.cancelled {
			running = st.Running
		}
		title := stepTitle(s.plan, step)
		if d := s.did[step.ID]; d != "" {
			title = d // what the step really did, not what the plan said it would
		}
		b.WriteString(stepLine(st, s.states[step.ID], running, st.Selected, ansi.Truncate(title, max(s.w-4, 0), s.ellipsis())))
	}
	elapsed := s.now.Sub(s.started).Truncate(time.Second)
	pathLines := 0 // the log's path is read in full: wrapped, and the log's tail gives way for it
	switch {
	case s.outcome != nil:
		b.WriteString(s.outcomeLine() + "\n")
		if s.outcome.LogPath != "" {
			p := wrap(i18n.T("ui.install.full_log", i18n.D{"Path": s.outcome.LogPath}), s.w)
			pathLines = strings.Count(p, "\n")
			b.WriteString(st.Dim.Render(p) + "\n")
		}
	case s.confirming:
		b.WriteString(st.Warn.Render(wrap(i18n.T("ui.install.confirm_cancel"), s.w)) + "\n")
	case s.cancelled:
		b.WriteString(st.Warn.Render(s.statusLine(elapsed, i18n.T("ui.install.cancelling"))) + "\n")
	case s.total > 0:
		b.WriteString(s.barLine(s.statusLine(elapsed, ""), s.w, 60))
	case s.done > 0:
		b.WriteString(s.statusLine(elapsed, i18n.T("ui.install.downloaded", i18n.D{"Size": i18n.Size(s.done)})) + "\n")
	default:
		msg := s.message
		if msg == "" {
			msg = i18n.T("ui.install.working")
		}
		b.WriteString(s.statusLine(elapsed, msg) + "\n")
	}
	b.WriteString(st.HRule(s.w) + "\n")
	tail := s.log.Tail(max(s.logHeight()-pathLines, 1), s.scroll)
	for _, l := range tail { // a cut line ends with … : the whole line is in the log file
		b.WriteString(st.Dim.Render(ansi.Truncate(ansi.Strip(l), s.w, s.ellipsis())) + "\n")
	}
	if s.scroll > 0 {
		b.WriteString(st.Dim.Render(i18n.N("ui.install.scrolled", s.scroll)))
	} else if hidden := s.log.total - len(tail); hidden > 0 {
		b.WriteString(st.Dim.Render(i18n.N("ui.install.hidden_lines", hidden)))
	}
	return b.String()
}

// statusLine is the spinner and the elapsed time first, where the window cannot cut them off, then
// text, shortened with an ellipsis to what is left of the line (long step titles name whole URLs).
func (s *installScreen) statusLine(elapsed time.Duration, text string) string {
	lead := strings.TrimRight(s.spin.View(), " ") + " " + elapsed.String() + "  "
	return lead + ansi.Truncate(text, max(s.w-ansi.StringWidth(lead), 0), s.ellipsis())
}

func (s *installScreen) ellipsis() string {
	if s.c.Styles.ASCII {
		return "..."
	}
	return "…"
}

func (s *installScreen) outcomeLine() string {
	st := s.c.Styles
	o := s.outcome
	switch {
	case o.OK && s.finish != nil:
		return st.OK.Render(wrap(st.Pass+" "+i18n.T("ui.add.installed"), s.w))
	case o.OK:
		return st.OK.Render(wrap(st.Pass+" "+i18n.T("ui.install.installed"), s.w))
	case s.cancelled || o.Result == app.Cancelled:
		switch { // what the engine did, not what a cancel usually does
		case o.VenvRemoved:
			return st.Warn.Render(wrap(i18n.T("ui.install.cancelled_venv_removed"), s.w))
		case o.Unchanged:
			return st.Warn.Render(wrap(i18n.T("ui.install.cancelled_unchanged"), s.w))
		case o.Restored:
			return st.Warn.Render(wrap(i18n.T("ui.install.cancelled_restored"), s.w))
		}
		return st.Err.Render(wrap(i18n.T("ui.install.cancelled_damaged"), s.w))
	}
	// One sentence per way it ended; {{.Err}} is the engine's error, when it gave one.
	errText := ""
	if o.Err != nil {
		errText = o.Err.Error()
	}
	var msg string
	switch {
	case o.VenvRemoved && o.Err != nil:
		msg = i18n.T("ui.install.failed_err_venv_removed", i18n.D{"Err": errText})
	case o.VenvRemoved:
		msg = i18n.T("ui.install.failed_venv_removed")
	case o.Result == app.Unchanged && o.Err != nil:
		msg = i18n.T("ui.install.failed_err_unchanged", i18n.D{"Err": errText})
	case o.Result == app.Unchanged:
		msg = i18n.T("ui.install.failed_unchanged")
	case o.Restored && o.Err != nil:
		msg = i18n.T("ui.install.failed_err_restored", i18n.D{"Err": errText})
	case o.Restored:
		msg = i18n.T("ui.install.failed_restored")
	case o.Err != nil:
		msg = i18n.T("ui.install.failed_err", i18n.D{"Err": errText})
	default:
		msg = i18n.T("ui.install.failed")
	}
	return st.Err.Render(wrap(msg, s.w))
}

// stepLine is a session's step as a screen lists it: its mark and style by its state (running's
// given: a spinner, or a mark once it stopped turning) and its title.
func stepLine(st Styles, state, running string, runStyle lipgloss.Style, title string) string {
	mark, style := st.Pending, st.Dim
	switch state {
	case app.StepRunning:
		mark, style = running, runStyle
	case app.StepDone:
		mark, style = st.Pass, st.OK
	case app.StepFailed:
		mark, style = st.Fail, st.Err
	case app.StepSkipped:
		mark = st.Skipped
	}
	return " " + style.Render(i18n.Pad(mark, 2)+" "+title) + "\n"
}

// download is how far a session's download is: bytes done of total, and the downloader's rate
// (bytes/s) and time left at that rate when it knows them.
type download struct {
	done, total int64
	rate        float64
	eta         time.Duration
	bar         progress.Model
}

// barLine is lead, the bar (at most widest cells) and the sizes, cut to w.
func (d *download) barLine(lead string, w, widest int) string {
	size := fmt.Sprintf(" %s / %s", i18n.Size(d.done), i18n.Size(d.total)) + rateText(d.rate, d.eta)
	bar := d.bar
	bar.Width = max(min(w-ansi.StringWidth(lead)-ansi.StringWidth(size), widest), 10)
	return ansi.Truncate(lead+bar.ViewAs(float64(d.done)/float64(d.total))+size, w, "") + "\n"
}

// rateText is " · 12.3 MiB/s · 42s left" when the downloader knows them, else "".
func rateText(rate float64, eta time.Duration) string {
	if rate <= 0 {
		return ""
	}
	out := " · " + i18n.Size(int64(rate)) + "/s"
	if eta > 0 {
		out += " · " + i18n.T("ui.install.eta", i18n.D{"ETA": i18n.Left(eta)})
	}
	return out
}
