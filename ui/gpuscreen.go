package ui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	"github.com/charmbracelet/bubbles/table"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

// gpuScreen shows the probe's report: a table of cards and plain words about the driver.
type gpuScreen struct {
	frame
	journey Journey
	report  *app.GPUReport
	err     error
	probes  int // answers received; more than one: r asked again
	spin    spinner.Model
	table   table.Model
	sel     int              // position in the card choice: 0 is every card, i is the i-th card (several cards only)
	offer   *app.DriverOffer // the driver step's answer (nil until it comes, or when it failed)
	keys    struct{ up, down, probe, driver key.Binding }
}

func newGPUScreen(c *Common, j Journey) *gpuScreen {
	s := &gpuScreen{frame: newFrame(c), journey: j, spin: newSpinner(c)}
	k := c.Keys
	s.keys.up, s.keys.down, s.keys.probe = relabel(k.Up, i18n.T("ui.key.card")), relabel(k.Down, i18n.T("ui.key.card")), relabel(k.Rerun, i18n.T("ui.key.probe_again"))
	s.keys.driver = k.Driver
	return s
}

func newSpinner(c *Common) spinner.Model {
	sp := spinner.New()
	sp.Spinner = spinner.Dot
	if c.Styles.ASCII {
		sp.Spinner = spinner.Line
	}
	return sp
}

func (s *gpuScreen) Init() tea.Cmd {
	if s.report != nil {
		return nil
	}
	return tea.Batch(s.spin.Tick, probeCmd(s.id, s.c.Ctx, s.c.Backend))
}

func (s *gpuScreen) Title() string { return i18n.T("ui.gpu.title") }

func (s *gpuScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	if s.report != nil {
		s.table = s.buildTable()
	}
}

func (s *gpuScreen) ShortHelp() []key.Binding {
	var out []key.Binding
	if s.several() {
		out = append(out, s.keys.up, s.keys.down)
	}
	if s.canUpdate() {
		out = append(out, s.keys.driver)
	}
	if s.report != nil {
		out = append(out, s.c.Keys.Select)
	}
	if s.report != nil || s.err != nil {
		out = append(out, s.keys.probe)
	}
	return out
}
func (s *gpuScreen) FullHelp() [][]key.Binding { return [][]key.Binding{s.ShortHelp()} }

// story is what the screen says about the driver: what it runs now and what the update adds.
func (s *gpuScreen) story() *driverStory { return storyOf(s.offer) }

// canUpdate: u works (the driver is missing or older than current builds need, and an installer
// can be fetched and started here).
func (s *gpuScreen) canUpdate() bool {
	st := s.story()
	return s.report != nil && st != nil && st.ready
}

// several is true when there is a card to choose: more than one GPU.
func (s *gpuScreen) several() bool { return s.report != nil && len(s.report.GPUs) > 1 }

// chosen is the GPU index the choice stands for: -1 for every card (and for no card at all).
func (s *gpuScreen) chosen() int {
	if s.report == nil || len(s.report.GPUs) == 0 {
		return -1
	}
	if !s.several() {
		return s.report.GPUs[0].Index
	}
	if s.sel == 0 {
		return -1
	}
	return s.report.GPUs[s.sel-1].Index
}

func (s *gpuScreen) move(d int) {
	n := len(s.report.GPUs) + 1
	s.sel = ((s.sel+d)%n + n) % n
	s.table = s.buildTable()
}

func (s *gpuScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case probeMsg:
		s.probes++
		s.err = msg.err
		if msg.err == nil {
			r := msg.value
			s.report = &r
			s.table = s.buildTable()
			return s, driverOfferCmd(s.id, s.c.Ctx, s.c.Backend)
		}
		return s, nil
	case driverOfferMsg:
		s.offer, _ = answer(msg.value, msg.err)
		return s, nil
	case spinner.TickMsg:
		if s.report == nil && s.err == nil {
			var cmd tea.Cmd
			s.spin, cmd = s.spin.Update(msg)
			return s, cmd
		}
	case tea.KeyMsg:
		k := s.c.Keys
		switch {
		case key.Matches(msg, k.Select) && s.report != nil:
			return s, navigate(gpuDoneMsg{*s.report, s.chosen(), s.story()})
		case key.Matches(msg, s.keys.driver) && s.canUpdate():
			return s, navigate(driverRequestMsg{*s.offer})
		case key.Matches(msg, k.Up) && s.several():
			s.move(-1)
		case key.Matches(msg, k.Down) && s.several():
			s.move(1)
		case key.Matches(msg, s.keys.probe) && (s.report != nil || s.err != nil):
			s.report, s.err, s.sel, s.offer = nil, nil, 0, nil
			return s, s.Init()
		}
	}
	return s, nil
}

func (s *gpuScreen) buildTable() table.Model {
	r := s.report
	nameW := max(s.w-44, 10)
	cols := []table.Column{{Title: "#", Width: 2}, {Title: i18n.T("ui.gpu.col.card"), Width: nameW}, {Title: i18n.T("ui.gpu.col.arch"), Width: 5},
		{Title: i18n.T("ui.gpu.col.memory"), Width: 15}, {Title: i18n.T("ui.gpu.col.procs"), Width: 5}}
	rows := make([]table.Row, 0, len(r.GPUs))
	for _, g := range r.GPUs {
		cc := g.ComputeCapability
		if cc == "" {
			cc = "?"
		}
		rows = append(rows, table.Row{strconv.Itoa(g.Index), g.Name, cc,
			fmt.Sprintf("%d / %d", g.MemoryUsedMiB, g.MemoryTotalMiB), strconv.Itoa(len(g.Processes))})
	}
	st := table.DefaultStyles()
	border := lipgloss.NormalBorder()
	if s.c.Styles.ASCII {
		border = lipgloss.ASCIIBorder()
	}
	st.Header = st.Header.BorderStyle(border).BorderBottom(true).Bold(true)
	st.Selected = lipgloss.NewStyle()
	if s.several() && s.sel > 0 {
		st.Selected = lipgloss.NewStyle().Reverse(true) // the chosen card
	}
	t := table.New(table.WithColumns(cols), table.WithRows(rows), table.WithStyles(st),
		table.WithHeight(min(len(rows)+2, max(s.h-9, 3))), table.WithFocused(false))
	if s.sel > 0 {
		t.SetCursor(s.sel - 1)
	}
	return t
}

func (s *gpuScreen) View() string {
	st := s.c.Styles
	if s.err != nil {
		return st.Err.Render(i18n.T("ui.gpu.probe_failed", i18n.D{"Err": s.err.Error()})) + "\n\n" + wrap(i18n.T("ui.gpu.probe_failed_hint"), s.w)
	}
	if s.report == nil {
		return s.spin.View() + " " + i18n.T("ui.gpu.probing")
	}
	r := s.report
	var b strings.Builder
	if r.Available {
		fmt.Fprintf(&b, "%s %s   %s %s   %s %s\n", st.Label.Render(i18n.T("ui.gpu.label.driver")), r.DriverVersion,
			st.Label.Render(i18n.T("ui.gpu.label.cuda")), r.CUDAMax, st.Label.Render(i18n.T("ui.gpu.label.via")), backendWords(r.Backend))
	}
	if len(r.GPUs) > 0 {
		b.WriteString(s.table.View() + "\n")
	}
	if s.several() {
		arrows := "↑/↓"
		if st.ASCII {
			arrows = "up/down"
		}
		var use string
		if i := s.chosen(); i < 0 {
			use = i18n.T("ui.gpu.use.every", i18n.D{"Count": len(r.GPUs), "First": r.GPUs[0].Index, "Arrows": arrows})
		} else {
			use = i18n.T("ui.gpu.use.one", i18n.D{"Index": i, "Arrows": arrows})
		}
		b.WriteString(wrap(st.Label.Render(i18n.T("ui.gpu.label.use"))+" "+use, s.w) + "\n")
	}
	story := s.story()
	// about the card(s) the builds will be judged for; a story says what the driver runs and what the
	// update adds, instead of the age sentence
	words := driverWords(forCards(*r, s.chosen()), reportOS(*r, s.c.OS), story == nil)
	if story != nil {
		if story.ready {
			words = slices.DeleteFunc(words, isNoDriverAdvice)
		}
		words = append(story.lines(), words...)
		if story.ready {
			words = append(words, i18n.T("ui.driver.story.offer"))
		} else if f := s.offer.Failure; f != nil {
			words = append(words, driverFailureWords(f, *s.offer)) // why u is not offered here
		}
	}
	if len(words) == 0 {
		words = []string{i18n.T("ui.gpu.fine")}
	}
	b.WriteString("\n")
	for _, w := range words {
		b.WriteString(wrap(w, s.w) + "\n")
	}
	for _, w := range screenWarnings(*r) {
		if slices.ContainsFunc(words, func(said string) bool { return strings.Contains(said, w) || strings.Contains(w, said) }) {
			continue // the advice is said once (the no-driver screen said it twice)
		}
		b.WriteString(st.Warn.Render(wrap("! "+w, s.w)) + "\n")
	}
	if s.probes > 1 { // r was pressed: say that the answer is a new one, even when it reads the same
		b.WriteString(st.Dim.Render(wrap(i18n.N("ui.gpu.probed_again", s.probes), s.w)) + "\n")
	}
	next := i18n.T("ui.gpu.next.framework")
	switch s.journey {
	case JourneyCheck:
		next = i18n.T("ui.gpu.next.check")
	case JourneyChange:
		next = i18n.T("ui.gpu.next.change")
	}
	b.WriteString("\n" + st.Dim.Render(next))
	return b.String()
}

// isNoDriverAdvice is whether w is driverWords' advice to install a driver by hand: it goes with u
// on offer.
func isNoDriverAdvice(w string) bool {
	return w == i18n.T("ui.gpu.driver.none") || w == i18n.T("ui.gpu.driver.none_hint")
}

// screenWarnings are the probe's warnings less its per-card architecture ones: the screen says what
// fits each card in its own words, from the matrix (driverWords). A warning is matched against the
// card's architecture warning in every language, so a report made before a language switch still
// loses them.
func screenWarnings(r app.GPUReport) []string {
	var out []string
	for _, w := range r.Warnings {
		if !slices.ContainsFunc(r.GPUs, func(g app.GPU) bool { return isArchWarning(g, w) }) {
			out = append(out, w)
		}
	}
	return out
}

// isArchWarning is whether w is the probe's architecture warning about card g, in any language.
func isArchWarning(g app.GPU, w string) bool {
	for _, l := range i18n.Langs {
		if a := app.ArchWarningIn(l, g); a != "" && a == w {
			return true
		}
	}
	return false
}

// backendWords is how the GPU facts were read, for the header: the query's own name (nvml,
// nvidia-smi), or in words for the --simulate file, which is no query at all.
func backendWords(backend string) string {
	if backend == "simulated" {
		return i18n.T("ui.gpu.backend_simulated")
	}
	return backend
}
