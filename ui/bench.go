package ui

import (
	"fmt"
	"sort"
	"strings"

	"github.com/NimbleMarkets/ntcharts/linechart/streamlinechart"
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/progress"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"gpuwiz/steps/bench"
	"gpuwiz/steps/gpu"
)

// BenchEventMsg carries one benchmark event to the screen.
type BenchEventMsg struct {
	addr
	Event bench.Event
}

// BenchClosedMsg says the benchmark's event channel closed (the run is over).
type BenchClosedMsg struct{ addr }

// GPUSamplesMsg carries one sampler reading of every GPU.
type GPUSamplesMsg struct {
	addr
	Samples []gpu.Sample
}

// SamplerClosedMsg says the sampler's channel closed.
type SamplerClosedMsg struct{ addr }

// BenchFeed turns the benchmark's and the sampler's channels into commands that read one message
// each; the screen re-arms the matching command after every message, so nothing is read in Update.
// Its messages are addressed to the screen that started the run.
type BenchFeed struct {
	Events  <-chan bench.Event
	Samples <-chan []gpu.Sample
	to      screenID
}

// NextEvent waits for the next benchmark event.
func (f BenchFeed) NextEvent() tea.Cmd {
	if f.Events == nil {
		return nil
	}
	return func() tea.Msg {
		e, ok := <-f.Events
		if !ok {
			return BenchClosedMsg{addr{f.to}}
		}
		return BenchEventMsg{addr{f.to}, e}
	}
}

// NextSamples waits for the next sampler reading.
func (f BenchFeed) NextSamples() tea.Cmd {
	if f.Samples == nil {
		return nil
	}
	return func() tea.Msg {
		s, ok := <-f.Samples
		if !ok {
			return SamplerClosedMsg{addr{f.to}}
		}
		return GPUSamplesMsg{addr{f.to}, s}
	}
}

// BenchKeyMap is the screen's own keys.
type BenchKeyMap struct {
	Quit, Rerun, Help key.Binding
}

// ShortHelp is the one-line help.
func (k BenchKeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Rerun, k.Help, k.Quit} }

// FullHelp is the expanded help.
func (k BenchKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// BenchOptions configure the screen.
type BenchOptions struct {
	Framework string // shown until the device line arrives
	GPU       int    // the index whose samples are charted
	ASCII     bool   // no box drawing or Unicode marks
	NoColor   bool
}

// BenchRerunMsg is sent when the user asks to run the benchmark again; the owner starts a new feed.
type BenchRerunMsg struct{}

// chartSpec is one live chart: what it reads from a sample and its fixed range (max 0: automatic).
type chartSpec struct {
	label string
	unit  string
	max   float64
	value func(gpu.Sample) float64
}

var benchCharts = []chartSpec{
	{"GPU busy", "%", 100, func(s gpu.Sample) float64 { return s.UtilizationPct }},
	{"memory", "MiB", 0, func(s gpu.Sample) float64 { return float64(s.MemoryUsedMiB) }},
	{"temperature", "°C", 100, func(s gpu.Sample) float64 { return s.TemperatureC }},
	{"power", "W", 0, func(s gpu.Sample) float64 { return s.PowerW }},
	{"SM clock", "MHz", 0, func(s gpu.Sample) float64 { return s.SMClockMHz }},
}

// BenchModel is the live benchmark screen.
type BenchModel struct {
	opts   BenchOptions
	feed   BenchFeed
	keys   BenchKeyMap
	help   help.Model
	bar    progress.Model
	styles Styles

	width, height int
	tally         *bench.Tally
	summary       *bench.Summary // set when the run is over
	current       string         // the step in progress
	charts        []streamlinechart.Model
	last          *gpu.Sample // latest reading of opts.GPU
	chartMax      []float64
	seen          map[int]gpu.Process // every process seen on the charted GPU, for the bench pid's proof
	closed        bool
}

// NewBenchModel builds the screen reading feed; Init starts reading.
func NewBenchModel(opts BenchOptions, feed BenchFeed) *BenchModel {
	m := &BenchModel{opts: opts, feed: feed, styles: NewStyles(opts.ASCII), tally: bench.NewTally(opts.Framework),
		chartMax: make([]float64, len(benchCharts)), seen: map[int]gpu.Process{}}
	if opts.NoColor {
		m.styles = plainStyles(m.styles)
	}
	m.keys = BenchKeyMap{
		Quit:  key.NewBinding(key.WithKeys("q", "esc", "ctrl+c"), key.WithHelp("q", "quit")),
		Rerun: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "run again"), key.WithDisabled()),
		Help:  key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
	}
	m.help = help.New()
	if opts.ASCII {
		m.help.ShortSeparator, m.help.FullSeparator, m.help.Ellipsis = " | ", "   ", "..."
	}
	profile := lipgloss.ColorProfile() // the bar renders colours itself: follow lipgloss's profile
	if opts.NoColor {
		profile = termenv.Ascii
	}
	m.bar = progress.New(progress.WithoutPercentage(), progress.WithSolidFill("#56D364"), progress.WithColorProfile(profile))
	if opts.ASCII {
		m.bar.Full, m.bar.Empty = '#', '.'
	}
	m.SetSize(80, 24)
	return m
}

func plainStyles(s Styles) Styles {
	plain := lipgloss.NewStyle()
	s.Title, s.OK, s.Warn, s.Err, s.Dim, s.Selected, s.Code, s.Recommend = plain.Bold(true), plain, plain, plain.Bold(true), plain, plain.Reverse(true), plain, plain.Bold(true)
	return s
}

// Keys returns the screen's key map (for a surrounding help view).
func (m *BenchModel) Keys() BenchKeyMap { return m.keys }

// Summary returns the run's summary once it is over.
func (m *BenchModel) Summary() (bench.Summary, bool) {
	if m.summary == nil {
		return bench.Summary{}, false
	}
	return *m.summary, true
}

// Init starts reading both channels.
func (m *BenchModel) Init() tea.Cmd { return tea.Batch(m.feed.NextEvent(), m.feed.NextSamples()) }

// Restart clears the results and reads a new feed (after BenchRerunMsg).
func (m *BenchModel) Restart(feed BenchFeed) tea.Cmd {
	w, h := m.width, m.height
	*m = *NewBenchModel(m.opts, feed)
	m.SetSize(w, h)
	return m.Init()
}

// SetSize fits the screen, and its charts, to w×h cells.
func (m *BenchModel) SetSize(w, h int) {
	m.width, m.height = max(w, 1), max(h, 1)
	m.help.Width = m.width
	cw, ch := m.chartCell()
	m.bar.Width = max(10, min(30, m.width/2-8))
	if len(m.charts) == 0 {
		m.charts = make([]streamlinechart.Model, len(benchCharts))
		for i, c := range benchCharts {
			opts := []streamlinechart.Option{streamlinechart.WithXYSteps(0, 0)}
			if c.max > 0 {
				opts = append(opts, streamlinechart.WithYRange(0, c.max))
			}
			m.charts[i] = streamlinechart.New(max(cw, 4), max(ch, 2), opts...)
		}
		return
	}
	for i := range m.charts {
		m.charts[i].Resize(max(cw, 4), max(ch, 2))
	}
}

// chartCell is one chart's size in a 3×2 grid (the sixth cell holds the process panel).
func (m *BenchModel) chartCell() (int, int) {
	return m.width/3 - 1, (m.height-topLines-2)/2 - 1
}

// topLines is the height of the progress and results block above the charts.
const topLines = 10

// Update handles events, samples and keys.
func (m *BenchModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.SetSize(msg.Width, msg.Height)
	case BenchEventMsg:
		m.addEvent(msg.Event)
		return m, m.feed.NextEvent()
	case BenchClosedMsg:
		m.closed = true
		m.current = ""
		if m.summary == nil { // the feed ended without Run's final event
			s := m.tally.Summary()
			if !m.tally.Done() && s.Failure == nil {
				// Neither the script's "done" nor a failure came: say it stopped, not "has not finished".
				s.OK, s.Verdict = false, stoppedVerdict(s)
			}
			m.summary = &s
		}
		m.keys.Rerun.SetEnabled(true)
	case GPUSamplesMsg:
		m.addSamples(msg.Samples)
		return m, m.feed.NextSamples()
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, m.keys.Quit):
			return m, tea.Quit
		case key.Matches(msg, m.keys.Help):
			m.help.ShowAll = !m.help.ShowAll
		case key.Matches(msg, m.keys.Rerun):
			return m, func() tea.Msg { return BenchRerunMsg{} }
		}
	}
	return m, nil
}

func (m *BenchModel) addEvent(e bench.Event) {
	switch v := e.(type) {
	case bench.Finished:
		s := v.Summary
		m.summary = &s
		m.current = ""
		return
	case bench.Step:
		m.current = v.Name
	case bench.Done, bench.Failure:
		m.current = ""
	}
	m.tally.Add(e)
}

func (m *BenchModel) addSamples(samples []gpu.Sample) {
	for _, s := range samples {
		if s.Index != m.opts.GPU {
			continue
		}
		sample := s
		m.last = &sample
		for _, p := range s.Processes {
			m.seen[p.PID] = p
		}
		for i, c := range benchCharts {
			v := c.value(s)
			if c.max == 0 && v > m.chartMax[i] {
				m.chartMax[i] = v // fixed 0-based range that only grows, so bars never jump
				top := v * 1.1
				if i == 1 && s.MemoryTotalMiB > 0 {
					top = float64(s.MemoryTotalMiB)
				}
				m.charts[i].SetYRange(0, top)
				m.charts[i].SetViewYRange(0, top)
			}
			m.charts[i].Push(v)
			m.charts[i].Draw()
		}
	}
}

// View draws the screen; below 60×16 it drops the charts and keeps the words.
func (m *BenchModel) View() string {
	var b strings.Builder
	b.WriteString(m.header())
	b.WriteString("\n")
	compact := m.width < 60 || m.height < 16
	top := lipgloss.JoinHorizontal(lipgloss.Top,
		lipgloss.NewStyle().Width(m.width/2).Render(m.resultsBlock()),
		lipgloss.NewStyle().Width(m.width-m.width/2).Render(m.sideBlock()))
	if compact {
		top = m.resultsBlock() + "\n" + m.sideBlock() + "\n" + m.liveLine() + "\n" + m.processBlock(m.width, 4)
		return fitBlock(b.String()+top+"\n"+m.help.View(m.keys), m.width, m.height)
	}
	b.WriteString(padLines(fitBlock(top, m.width, topLines), topLines))
	b.WriteString("\n")
	b.WriteString(m.chartGrid())
	b.WriteString("\n")
	b.WriteString(m.help.View(m.keys))
	return fitBlock(b.String(), m.width, m.height)
}

func (m *BenchModel) header() string {
	s := m.tally.Summary()
	title := "Benchmark"
	if d := s.Device; d != nil {
		title = fmt.Sprintf("Benchmark · GPU %d %s · %s %s · CUDA %s", d.Index, d.Name, d.Framework, d.Version, d.CUDA)
	} else if m.opts.Framework != "" {
		title = "Benchmark · " + m.opts.Framework
	}
	if m.opts.ASCII {
		title = strings.ReplaceAll(title, "·", "-")
	}
	return m.styles.Title.Render(title)
}

func (m *BenchModel) resultsBlock() string {
	s := m.tally.Summary()
	if m.summary != nil {
		s = *m.summary
	}
	var lines []string
	done, planned := s.Steps, s.PlannedSteps
	if m.summary != nil && s.OK {
		done = planned
	}
	pct := 0.0
	if planned > 0 {
		pct = min(1, float64(max(done-1, 0))/float64(planned))
		if m.summary != nil {
			pct = float64(done) / float64(planned)
		}
	}
	state := m.current
	switch {
	case m.summary != nil && (s.OK || m.tally.Done()):
		state = "finished"
	case m.summary != nil: // it crashed, timed out or its output ended early
		state = "stopped"
	case state == "" && s.Device == nil:
		state = "starting Python and " + frameworkOrWords(m.opts.Framework)
	}
	if planned > 0 {
		lines = append(lines, fmt.Sprintf("%s %d/%d", m.bar.ViewAs(pct), min(done, planned), planned), state)
	} else {
		lines = append(lines, state)
	}
	if s.Device == nil && m.summary != nil {
		return strings.Join(lines, "\n") // it failed before the GPU answered: no table to show
	}
	lines = append(lines, m.styles.Label.Render(fmt.Sprintf("%-6s %7s %7s %7s", "TFLOPS", "2048", "4096", "8192")))
	for _, dt := range []string{"fp32", "fp16", "bf16"} {
		row := fmt.Sprintf("%-6s", dt)
		any := false
		for _, n := range []int{2048, 4096, 8192} {
			cell := "      -"
			for _, r := range s.Results {
				if r.Op == "matmul" && r.Device == "cuda" && r.DType == dt && r.N == n {
					cell, any = fmt.Sprintf("%7.1f", r.TFLOPS), true
				}
			}
			row += " " + cell
		}
		if any || s.Device == nil || dt == "fp32" {
			lines = append(lines, row)
		}
	}
	for _, r := range s.Results {
		switch {
		case r.Op == "matmul" && r.Device == "cpu":
			lines = append(lines, fmt.Sprintf("CPU fp32 %d: %.2f TFLOPS", r.N, r.TFLOPS))
		case r.Op == "copy":
			lines = append(lines, fmt.Sprintf("copy: %.0f GB/s", r.GBps))
		}
	}
	if len(s.Checks) > 0 {
		var cs []string
		for _, c := range s.Checks {
			mark := m.styles.OK.Render(m.styles.Pass)
			if !c.OK {
				mark = m.styles.Err.Render(m.styles.Fail)
			}
			cs = append(cs, c.DType+" "+mark)
		}
		// "fp64", not "float64": the line must fit the results column, half of the wizard's 78 columns
		lines = append(lines, "answers vs fp64: "+strings.Join(cs, " "))
	}
	for _, o := range s.OOMs {
		lines = append(lines, m.styles.Warn.Render(fmt.Sprintf("out of memory at %d %s: retried at %d", o.N, o.DType, o.RetryN)))
	}
	return strings.Join(lines, "\n")
}

// stoppedVerdict is the verdict for a run whose events ended with neither the script's "done" nor
// Run's summary: the run could not start or was cut off. Its last words, if any, say why.
func stoppedVerdict(s bench.Summary) string {
	v := "the benchmark stopped before it finished"
	if s.LastStep != "" {
		v += " (during " + s.LastStep + ")"
	}
	if n := len(s.Log); n > 0 {
		return v + "; last output: " + strings.TrimSpace(s.Log[n-1])
	}
	return v + "; press r to run it again"
}

func frameworkOrWords(s string) string {
	if s == "" {
		return "the framework"
	}
	return s
}

// sideBlock is the device while running and the summary with the verdict once over.
func (m *BenchModel) sideBlock() string {
	w := m.width - m.width/2 - 1
	if m.summary == nil {
		s := m.tally.Summary()
		if s.Device == nil {
			return m.styles.Dim.Render("waiting for the GPU…")
		}
		d := s.Device
		tf32 := "off"
		if d.TF32 {
			tf32 = "on"
		}
		return strings.Join([]string{
			fmt.Sprintf("compute capability %s", d.Capability),
			fmt.Sprintf("%d of %d MiB free", d.FreeMiB, d.TotalMiB),
			fmt.Sprintf("TF32 %s, benchmark pid %d", tf32, d.PID),
		}, "\n")
	}
	s := *m.summary
	var lines []string
	if s.SpeedupFP32 > 0 {
		lines = append(lines, fmt.Sprintf("GPU vs CPU (fp32): %.0f× faster", s.SpeedupFP32))
	}
	var tf []string
	for _, dt := range bench.DTypes(s.TFLOPS) {
		tf = append(tf, fmt.Sprintf("%s %.0f", dt, s.TFLOPS[dt]))
	}
	if len(tf) > 0 {
		lines = append(lines, "TFLOPS "+strings.Join(tf, " · "))
	}
	if s.CopyGBps > 0 {
		lines = append(lines, fmt.Sprintf("copy %.0f GB/s", s.CopyGBps))
	}
	style, mark := m.styles.OK, m.styles.Pass
	if !s.OK {
		style, mark = m.styles.Err, m.styles.Fail
	}
	lines = append(lines, style.Render(lipgloss.NewStyle().Width(w).Render(mark+" "+s.Verdict)))
	out := strings.Join(lines, "\n")
	if m.opts.ASCII {
		out = strings.ReplaceAll(strings.ReplaceAll(out, "×", "x"), "·", "-")
	}
	return out
}

func (m *BenchModel) liveLine() string {
	if m.last == nil {
		return m.styles.Dim.Render("no live readings yet")
	}
	s := m.last
	return fmt.Sprintf("GPU %.0f%% · %d MiB · %.0f°C · %.0f W · %.0f MHz", s.UtilizationPct, s.MemoryUsedMiB, s.TemperatureC, s.PowerW, s.SMClockMHz)
}

func (m *BenchModel) chartGrid() string {
	cw, ch := m.chartCell()
	cells := make([]string, 0, 6)
	for i, c := range benchCharts {
		label := c.label
		if m.last != nil {
			label = fmt.Sprintf("%s %.0f %s", c.label, c.value(*m.last), c.unit)
		}
		chart := m.charts[i].View()
		if m.last == nil {
			chart = ""
		}
		if m.opts.ASCII {
			chart = asciiLines.Replace(chart)
			label = strings.ReplaceAll(label, "°", "")
		}
		cell := m.styles.Label.Render(label) + "\n" + padLines(chart, ch)
		cells = append(cells, lipgloss.NewStyle().Width(cw+1).Height(ch+1).MaxHeight(ch+1).Render(cell))
	}
	cells = append(cells, m.processBlock(cw, ch+1))
	row1 := lipgloss.JoinHorizontal(lipgloss.Top, cells[0], cells[1], cells[2])
	row2 := lipgloss.JoinHorizontal(lipgloss.Top, cells[3], cells[4], cells[5])
	return row1 + "\n" + row2
}

// asciiLines maps the charts' line runes to ASCII for --ascii consoles.
var asciiLines = strings.NewReplacer("─", "-", "│", "|", "╭", ".", "╮", ".", "╰", "'", "╯", "'",
	"┌", ".", "┐", ".", "└", "'", "┘", "'", "┼", "+", "├", "+", "┤", "+", "┬", "+", "┴", "+")

// processBlock lists the charted GPU's processes; the benchmark's own Python is highlighted.
func (m *BenchModel) processBlock(w, h int) string {
	pid := m.tally.Summary().PID
	lines := []string{m.styles.Label.Render("GPU processes")}
	var procs []gpu.Process
	if m.last != nil {
		procs = append(procs, m.last.Processes...)
	}
	benchNow := false
	for _, p := range procs {
		benchNow = benchNow || p.PID == pid
	}
	if p, ok := m.seen[pid]; ok && pid != 0 && !benchNow {
		p.Name = "ended" // it ran on the GPU and has exited: still the proof
		p.UsedMemoryMiB = nil
		procs = append(procs, p)
	}
	if len(procs) == 0 {
		lines = append(lines, m.styles.Dim.Render("none reported"))
	} else {
		sort.SliceStable(procs, func(i, j int) bool { return procs[i].PID == pid && procs[j].PID != pid })
		for _, p := range procs {
			mem := ""
			if p.UsedMemoryMiB != nil {
				mem = fmt.Sprintf(" %dMiB", *p.UsedMemoryMiB)
			}
			line := fmt.Sprintf("%d %s%s", p.PID, p.Name, mem)
			if p.PID == pid && pid != 0 {
				line = m.styles.Selected.Render(m.styles.Cursor + fmt.Sprintf("%d bench %s%s", p.PID, p.Name, mem))
			} else {
				line = m.styles.NoCursor + line
			}
			lines = append(lines, line)
		}
	}
	return fitBlock(strings.Join(lines, "\n"), w, h)
}
