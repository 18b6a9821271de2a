package ui

import (
	"cmp"
	"context"
	"strings"
	"sync"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/words"
)

// driverStory is what the GPU and channel screens say once about the driver: what it runs now,
// and what the update would add, with the exact version.
type driverStory struct {
	current string   // the installed driver ("" none)
	runs    []string // CUDA versions whose builds it runs for the card(s)
	version string   // the update's driver
	adds    []string // CUDA versions the update adds
	ready   bool     // u can install it here
}

// storyOf is the story of an offer: nil when there is nothing to say (no update would add a CUDA
// version and a driver is installed, or no installer is known).
func storyOf(o *app.DriverOffer) *driverStory {
	if o == nil || o.Version == "" {
		return nil
	}
	st := &driverStory{current: o.Check.Current, version: o.Version, ready: o.Ready}
	for _, n := range o.Check.Needs {
		if !n.CardOK {
			continue
		}
		switch {
		case n.CurrentOK:
			st.runs = append(st.runs, n.CUDA)
		case n.ChosenOK:
			st.adds = append(st.adds, n.CUDA)
		}
	}
	if len(st.adds) == 0 && st.current != "" {
		return nil
	}
	return st
}

// lines are the story in words, one sentence each.
func (d *driverStory) lines() []string {
	var out []string
	switch {
	case d.current == "":
		out = append(out, i18n.T("ui.driver.story.none"))
	case len(d.runs) == 0:
		out = append(out, i18n.T("ui.driver.story.runs_nothing", i18n.D{"Driver": d.current}))
	default:
		out = append(out, i18n.T("ui.driver.story.runs", i18n.D{"Driver": d.current, "CUDA": cudaList(d.runs)}))
	}
	if len(d.adds) > 0 {
		out = append(out, i18n.T("ui.driver.story.adds", i18n.D{"Version": d.version, "CUDA": cudaList(d.adds)}))
	}
	return out
}

// cudaList is CUDA versions in words: "11.8", "12.6, 12.8", "12.1 to 12.9" (a run of them: the
// versions a driver runs are always the oldest up to some newest).
func cudaList(vs []string) string {
	if len(vs) > 2 {
		return i18n.T("ui.driver.cuda_range", i18n.D{"From": vs[0], "To": vs[len(vs)-1]})
	}
	return strings.Join(vs, ", ")
}

// driverRequestMsg is the GPU screen's u: the driver screen next.
type driverRequestMsg struct{ offer app.DriverOffer }

// driverReprobeMsg: the driver was installed with no restart asked: the GPU screen probes again.
type driverReprobeMsg struct{}

// driverScreen shows the chosen installer (version, file, why), then fetches, checks and starts it
// with progress, and says how it ended.
type driverScreen struct {
	frame
	offer  app.DriverOffer
	wg     *sync.WaitGroup
	job    *driverJob
	states map[string]string
	download
	result *app.DriverResult
	keys   struct{ start, again key.Binding }
}

func newDriverScreen(c *Common, o app.DriverOffer, wg *sync.WaitGroup) *driverScreen {
	s := &driverScreen{frame: newFrame(c), offer: o, wg: wg, states: map[string]string{}, download: download{bar: c.Styles.NewBar()}}
	s.keys.start = relabel(c.Keys.Select, i18n.T("ui.driver.key_start"))
	s.keys.again = relabel(c.Keys.Rerun, i18n.T("ui.key.probe_again"))
	return s
}

func (s *driverScreen) Init() tea.Cmd { return nil }
func (s *driverScreen) Title() string { return i18n.T("ui.driver.title") }
func (s *driverScreen) Busy() bool    { return s.job != nil && s.result == nil }

func (s *driverScreen) ShortHelp() []key.Binding {
	switch {
	case s.job == nil && s.offer.Ready:
		return []key.Binding{s.keys.start}
	case s.result != nil && s.result.Failure == nil && !s.result.Restart && s.result.Ran:
		return []key.Binding{s.keys.again}
	}
	return nil
}
func (s *driverScreen) FullHelp() [][]key.Binding { return [][]key.Binding{s.ShortHelp()} }

func (s *driverScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case driverBatchMsg:
		for _, e := range msg.events {
			if e.State != "" {
				s.states[e.Step] = e.State
			}
			if e.Step == "download" && e.Total > 0 {
				s.done, s.total, s.rate, s.eta = e.Done, e.Total, e.Rate, e.ETA
			}
		}
		s.result = msg.result
		return s, s.job.after(msg)
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, s.keys.start) && s.job == nil && s.offer.Ready:
			ctx, cancel := context.WithCancel(s.c.Ctx)
			b, o := s.c.Backend, s.offer
			s.job = newJob[app.DriverEvent, app.DriverResult](s.id, cancel, driverDrainLimit)
			run := s.job.start(s.wg, func(ev chan<- app.DriverEvent) app.DriverResult { return b.RunDriver(ctx, o, ev) })
			return s, tea.Batch(run, s.job.tick())
		case key.Matches(msg, s.keys.again) && s.result != nil && s.result.Failure == nil && s.result.Ran && !s.result.Restart:
			return s, navigate(driverReprobeMsg{})
		}
	}
	return s, nil
}

func (s *driverScreen) View() string {
	st := s.c.Styles
	var b strings.Builder
	line := func(text string) { b.WriteString(wrap(text, s.w) + "\n") }
	o := s.offer
	if o.Version != "" || o.File != "" {
		line(st.Label.Render(i18n.T("ui.driver.label.card")) + " " + o.Card)
		line(st.Label.Render(i18n.T("ui.driver.label.driver")) + " " + cmp.Or(o.Version, "?"))
		line(st.Label.Render(i18n.T("ui.driver.label.file")) + " " + o.File)
		for _, r := range o.Why {
			line(st.Bullet + " " + r.Words())
		}
	}
	if s.job == nil {
		b.WriteString("\n")
		if o.Failure != nil {
			line(st.Warn.Render(driverFailureWords(o.Failure, o)))
			return b.String()
		}
		if o.Have > 0 {
			line(i18n.T("ui.driver.have", i18n.D{"Size": i18n.Size(o.Have)}))
		}
		line(i18n.T("ui.driver.will"))
		line(st.Dim.Render(i18n.T("ui.driver.press_enter")))
		return b.String()
	}
	b.WriteString("\n")
	for _, step := range []struct{ id, title string }{
		{"download", i18n.T("ui.driver.step.download")}, {"check", i18n.T("ui.driver.step.check")}, {"install", i18n.T("ui.driver.step.install")},
	} {
		b.WriteString(stepLine(st, s.states[step.id], st.Running, st.Label, step.title))
		if step.id == "download" && s.states["download"] == app.StepRunning && s.total > 0 {
			b.WriteString(s.barLine("    ", s.w, 50))
		}
	}
	if r := s.result; r != nil {
		b.WriteString("\n")
		switch {
		case r.Failure != nil:
			line(st.Err.Render(driverFailureWords(r.Failure, o)))
		case r.Restart:
			line(st.OK.Render(i18n.T("ui.driver.installed", i18n.D{"Version": o.Version})))
			line(i18n.T("ui.driver.restart"))
		default:
			line(st.OK.Render(i18n.T("ui.driver.installed", i18n.D{"Version": o.Version})))
			line(i18n.T("ui.driver.probe_again"))
		}
	}
	return b.String()
}

// driverFailureWords words why the driver session cannot go on or stopped, with the next step
// (the same sentences as gpuwiz driver).
func driverFailureWords(f *app.DriverFailure, o app.DriverOffer) string {
	if w, ok := words.DriverFailure(f.Code); ok {
		return w
	}
	switch f.Code {
	case app.DriverFailLinux:
		return i18n.T("ui.driver.linux")
	case app.DriverFailNotWindows:
		return i18n.T("ui.driver.not_windows")
	case app.DriverFailNoNetwork:
		return i18n.T("ui.driver.no_network", i18n.D{"File": o.File})
	case app.DriverFailDownload:
		return i18n.T("ui.driver.download", i18n.D{"Err": f.Detail})
	case app.DriverFailExitCode:
		return i18n.T("ui.driver.exit_code", i18n.D{"Code": f.ExitCode})
	case app.DriverFailStart:
		return i18n.T("ui.driver.start", i18n.D{"Err": f.Detail})
	case app.DriverFailRefused:
		return f.Refusal.Words() + " " + i18n.T("ui.driver.refused")
	}
	return f.Code
}
