package ui

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/progress"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

// BenchEventMsg carries one benchmark event to the screen.
type BenchEventMsg struct {
	addr
	Event app.BenchEvent
}

// BenchClosedMsg says the benchmark's event channel closed (the run is over).
type BenchClosedMsg struct{ addr }

// GPUSamplesMsg carries one sampler reading of every GPU.
type GPUSamplesMsg struct {
	addr
	Samples []app.GPUSample
}

// SamplerClosedMsg says the sampler's channel closed.
type SamplerClosedMsg struct{ addr }

// BenchFeed turns the benchmark's and the sampler's channels into commands that read one message
// each; the screen re-arms the matching command after every message, so nothing is read in Update.
// Its messages are addressed to the screen that started the run.
type BenchFeed struct {
	Events  <-chan app.BenchEvent
	Samples <-chan []app.GPUSample
	to      screenID
}

// NextEvent waits for the next benchmark event.
func (f BenchFeed) NextEvent() tea.Cmd {
	return next(f.Events, func(e app.BenchEvent) tea.Msg { return BenchEventMsg{addr{f.to}, e} }, BenchClosedMsg{addr{f.to}})
}

// NextSamples waits for the next sampler reading.
func (f BenchFeed) NextSamples() tea.Cmd {
	return next(f.Samples, func(s []app.GPUSample) tea.Msg { return GPUSamplesMsg{addr{f.to}, s} }, SamplerClosedMsg{addr{f.to}})
}

// next is a command that reads one value from ch: msg of it, or closed once ch has closed; none
// for no channel.
func next[T any](ch <-chan T, msg func(T) tea.Msg, closed tea.Msg) tea.Cmd {
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		v, ok := <-ch
		if !ok {
			return closed
		}
		return msg(v)
	}
}

// BenchOptions configure the screen.
type BenchOptions struct {
	Framework string // shown until the device line arrives
	GPU       int    // the index whose samples are charted
}

// BenchRerunMsg is sent when the user asks to run the benchmark again; the root starts a new screen.
type BenchRerunMsg struct{}

// BenchModel is the live benchmark: progress, results, the verdict, the GPU's charts and processes.
// It draws in the body the root gives it, with the wizard's styles and keys; the root draws the
// title (Title) and the help bar (ShortHelp, FullHelp).
type BenchModel struct {
	c    *Common
	opts BenchOptions
	feed BenchFeed
	bar  progress.Model

	width, height int
	tally         *app.BenchTally
	summary       *app.BenchSummary // set when the run is over
	current       string            // the step in progress
	charts        []*benchChart
	last          *app.GPUSample // latest reading of opts.GPU
	first         time.Time      // time of the first reading: the charts' second 0
	readings      int
	seen          map[int]app.GPUProcess // every process seen on the charted GPU, for the bench pid's proof
	closed        bool
}

// NewBenchModel builds the screen reading feed; Init starts reading.
func NewBenchModel(c *Common, opts BenchOptions, feed BenchFeed) *BenchModel {
	m := &BenchModel{c: c, opts: opts, feed: feed, tally: app.NewBenchTally(opts.Framework), seen: map[int]app.GPUProcess{},
		bar: c.Styles.NewBar()}
	for _, spec := range benchCharts {
		m.charts = append(m.charts, newBenchChart(spec, c.Styles.ASCII, 4, 3))
	}
	m.SetSize(80, 20)
	return m
}

// over is true once the run has ended: then r runs it again.
func (m *BenchModel) over() bool { return m.closed }

// ShortHelp is the benchmark's own keys: r once the run is over.
func (m *BenchModel) ShortHelp() []key.Binding {
	if !m.over() {
		return nil
	}
	return []key.Binding{m.c.Keys.Rerun}
}

// FullHelp is ShortHelp in one column.
func (m *BenchModel) FullHelp() [][]key.Binding {
	if !m.over() {
		return nil
	}
	return [][]key.Binding{m.ShortHelp()}
}

// Summary returns the run's summary once it is over.
func (m *BenchModel) Summary() (app.BenchSummary, bool) {
	if m.summary == nil {
		return app.BenchSummary{}, false
	}
	return *m.summary, true
}

// Init starts reading both channels.
func (m *BenchModel) Init() tea.Cmd { return tea.Batch(m.feed.NextEvent(), m.feed.NextSamples()) }

// SetSize fits the screen, and its charts, to w×h cells.
func (m *BenchModel) SetSize(w, h int) {
	m.width, m.height = max(w, 1), max(h, 1)
	cw, ch := m.chartCell()
	m.bar.Width = max(10, min(30, m.width/2-8))
	for _, c := range m.charts {
		c.resize(cw, ch-1) // a line for the chart's title
	}
}

// chartCell is one chart's cell in a 3×2 grid (the sixth cell holds the process panel): the title
// line, then the chart with its axes.
func (m *BenchModel) chartCell() (int, int) {
	return m.width/3 - 1, (m.height - topLines) / 2
}

// topLines is the height of the progress and results block above the charts.
const topLines = 8

// Update handles events, samples and r once the run is over; the root answers the other keys.
func (m *BenchModel) Update(msg tea.Msg) (*BenchModel, tea.Cmd) {
	switch msg := msg.(type) {
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
	case GPUSamplesMsg:
		m.addSamples(msg.Samples)
		return m, m.feed.NextSamples()
	case tea.KeyMsg:
		if m.over() && key.Matches(msg, m.c.Keys.Rerun) {
			return m, navigate(BenchRerunMsg{})
		}
	}
	return m, nil
}

func (m *BenchModel) addEvent(e app.BenchEvent) {
	switch v := e.(type) {
	case app.BenchFinished:
		s := v.Summary
		m.summary = &s
		m.current = ""
		return
	case app.BenchStep:
		m.current = v.Name
	case app.BenchDone, app.BenchFailure:
		m.current = ""
	}
	m.tally.Add(e)
}

func (m *BenchModel) addSamples(samples []app.GPUSample) {
	for _, s := range samples {
		if s.Index != m.opts.GPU {
			continue
		}
		sample := s
		m.last = &sample
		for _, p := range s.Processes {
			m.seen[p.PID] = p
		}
		if m.readings == 0 {
			m.first = s.Time
		}
		at := s.Time.Sub(m.first).Seconds()
		if s.Time.IsZero() || m.first.IsZero() { // a reading without a time: the sampler's period
			at = float64(m.readings) * app.BenchSampleEvery.Seconds()
		}
		m.readings++
		for i, c := range m.charts {
			c.add(at, c.spec.value(s), s.MemoryTotalMiB)
			m.charts[i] = c
		}
	}
}

// View draws the screen; below 60×16 it drops the charts and keeps the words.
func (m *BenchModel) View() string {
	if m.width < 60 || m.height < 16 {
		out := m.resultsBlock() + "\n" + m.sideBlock() + "\n" + m.liveLine() + "\n" + m.processBlock(m.width, 4)
		return fitBlock(out, m.width, m.height)
	}
	top := lipgloss.JoinHorizontal(lipgloss.Top,
		lipgloss.NewStyle().Width(m.width/2).Render(m.resultsBlock()),
		lipgloss.NewStyle().Width(m.width-m.width/2).Render(m.sideBlock()))
	return fitBlock(padLines(fitBlock(top, m.width, topLines), topLines)+"\n"+m.chartGrid(), m.width, m.height)
}

// Title names the run for the root's title line: the card, the framework and its CUDA.
func (m *BenchModel) Title() string {
	s := m.tally.Summary()
	title := i18n.T("ui.bench.title")
	if d := s.Device; d != nil {
		title = i18n.T("ui.bench.title_device", i18n.D{"Index": d.Index, "Name": d.Name, "Framework": d.Framework, "Version": d.Version, "CUDA": d.CUDA})
	} else if m.opts.Framework != "" {
		title = i18n.T("ui.bench.title_framework", i18n.D{"Framework": m.opts.Framework})
	}
	if m.c.Styles.ASCII {
		title = strings.ReplaceAll(title, "·", "-")
	}
	return title
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
		state = i18n.T("ui.bench.finished")
	case m.summary != nil: // it crashed, timed out or its output ended early
		state = i18n.T("ui.bench.stopped")
	case state == "" && s.Device == nil && m.opts.Framework == "":
		state = i18n.T("ui.bench.starting")
	case state == "" && s.Device == nil:
		state = i18n.T("ui.bench.starting_framework", i18n.D{"Framework": m.opts.Framework})
	}
	if planned > 0 {
		lines = append(lines, fmt.Sprintf("%s %d/%d", m.bar.ViewAs(pct), min(done, planned), planned), state)
	} else {
		lines = append(lines, state)
	}
	if s.Device == nil && m.summary != nil {
		return strings.Join(lines, "\n") // it failed before the GPU answered: no table to show
	}
	lines = append(lines, m.c.Styles.Label.Render(fmt.Sprintf("%-6s %7s %7s %7s", "TFLOPS", "2048", "4096", "8192")))
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
	var more []string // one line, so that the charts keep their room at 80×24
	for _, r := range s.Results {
		switch {
		case r.Op == "matmul" && r.Device == "cpu":
			more = append(more, fmt.Sprintf("CPU fp32 %.2f TFLOPS", r.TFLOPS)) //i18n:raw a measurement: device, dtype and unit
		case r.Op == "copy":
			more = append(more, i18n.T("ui.bench.copy", i18n.D{"GBps": fmt.Sprintf("%.0f", r.GBps)}))
		}
	}
	if len(more) > 0 {
		lines = append(lines, i18n.Join(more))
	}
	if len(s.Checks) > 0 {
		var cs []string
		for _, c := range s.Checks {
			mark := m.c.Styles.OK.Render(m.c.Styles.Pass)
			if !c.OK {
				mark = m.c.Styles.Err.Render(m.c.Styles.Fail)
			}
			cs = append(cs, c.DType+" "+mark)
		}
		// "fp64", not "float64": the line must fit the results column, half of the wizard's 78 columns
		lines = append(lines, i18n.T("ui.bench.answers", i18n.D{"Checks": strings.Join(cs, " ")}))
	}
	for _, o := range s.OOMs {
		lines = append(lines, m.c.Styles.Warn.Render(i18n.T("ui.bench.oom", i18n.D{"N": o.N, "DType": o.DType, "RetryN": o.RetryN})))
	}
	return strings.Join(lines, "\n")
}

// stoppedVerdict is the verdict for a run whose events ended with neither the script's "done" nor
// Run's summary: the run could not start or was cut off. Its last words, if any, say why.
func stoppedVerdict(s app.BenchSummary) string {
	n := len(s.Log)
	switch {
	case s.LastStep != "" && n > 0:
		return i18n.T("ui.bench.stopped_during_output", i18n.D{"Step": s.LastStep, "Output": strings.TrimSpace(s.Log[n-1])})
	case s.LastStep != "":
		return i18n.T("ui.bench.stopped_during", i18n.D{"Step": s.LastStep})
	case n > 0:
		return i18n.T("ui.bench.stopped_output", i18n.D{"Output": strings.TrimSpace(s.Log[n-1])})
	}
	return i18n.T("ui.bench.stopped_verdict")
}

// sideBlock is the device while running and the summary with the verdict once over.
func (m *BenchModel) sideBlock() string {
	w := m.width - m.width/2 - 1
	if m.summary == nil {
		s := m.tally.Summary()
		if s.Device == nil {
			return m.c.Styles.Dim.Render(i18n.T("ui.bench.waiting"))
		}
		d := s.Device
		tf32 := i18n.T("ui.bench.tf32_off", i18n.D{"PID": d.PID})
		if d.TF32 {
			tf32 = i18n.T("ui.bench.tf32_on", i18n.D{"PID": d.PID})
		}
		return strings.Join([]string{
			i18n.T("ui.bench.capability", i18n.D{"Capability": d.Capability}),
			i18n.T("ui.bench.free", i18n.D{"Free": d.FreeMiB, "Total": d.TotalMiB}),
			tf32,
		}, "\n")
	}
	s := *m.summary
	var lines []string
	if s.SpeedupFP32 > 0 {
		lines = append(lines, i18n.T("ui.bench.speedup", i18n.D{"Times": fmt.Sprintf("%.0f", s.SpeedupFP32)}))
	}
	var tf []string
	for _, dt := range app.BenchDTypes(s.TFLOPS) {
		tf = append(tf, fmt.Sprintf("%s %.0f", dt, s.TFLOPS[dt]))
	}
	if len(tf) > 0 {
		lines = append(lines, "TFLOPS "+strings.Join(tf, " · "))
	}
	if s.CopyGBps > 0 {
		lines = append(lines, i18n.T("ui.bench.copy", i18n.D{"GBps": fmt.Sprintf("%.0f", s.CopyGBps)}))
	}
	style, mark := m.c.Styles.OK, m.c.Styles.Pass
	if !s.OK {
		style, mark = m.c.Styles.Err, m.c.Styles.Fail
	}
	lines = append(lines, style.Render(lipgloss.NewStyle().Width(w).Render(mark+" "+s.Verdict)))
	out := strings.Join(lines, "\n")
	if m.c.Styles.ASCII {
		out = strings.ReplaceAll(strings.ReplaceAll(out, "×", "x"), "·", "-")
	}
	return out
}

func (m *BenchModel) liveLine() string {
	if m.last == nil {
		return m.c.Styles.Dim.Render(i18n.T("ui.bench.no_readings"))
	}
	s := m.last
	line := fmt.Sprintf("GPU %.0f%% · %d MiB · %.0f°C · %.0f W · %.0f MHz", s.UtilizationPct, s.MemoryUsedMiB, s.TemperatureC, s.PowerW, s.SMClockMHz)
	if s.Simulated {
		line = i18n.T("ui.bench.made_up_line", i18n.D{"Line": line})
	}
	if m.c.Styles.ASCII {
		line = strings.NewReplacer("·", "-", "°", "").Replace(line)
	}
	return line
}

// chartGrid is the five charts and the process panel, three to a row; each chart is titled with
// its latest reading.
func (m *BenchModel) chartGrid() string {
	cw, ch := m.chartCell()
	cells := make([]string, 0, 6)
	for _, c := range m.charts {
		label := c.spec.label()
		switch {
		case m.last != nil && m.last.Simulated: // no figure: it was never measured
			label = i18n.T("ui.bench.made_up_label", i18n.D{"Label": label})
		case m.last != nil:
			label = fmt.Sprintf("%s %.0f %s", c.spec.label(), c.spec.value(*m.last), c.unit())
		}
		label = ansi.Truncate(label, cw, ellipsis(m.c.Styles)) // one line: cut with … , never wrapped
		cell := m.c.Styles.Label.Render(label) + "\n" + c.view()
		cells = append(cells, lipgloss.NewStyle().Width(cw+1).Height(ch).MaxHeight(ch).Render(cell))
	}
	cells = append(cells, m.processBlock(cw, ch))
	row1 := lipgloss.JoinHorizontal(lipgloss.Top, cells[0], cells[1], cells[2])
	row2 := lipgloss.JoinHorizontal(lipgloss.Top, cells[3], cells[4], cells[5])
	return row1 + "\n" + row2
}

// processBlock lists the charted GPU's processes; the benchmark's own Python is highlighted.
func (m *BenchModel) processBlock(w, h int) string {
	pid := m.tally.Summary().PID
	lines := []string{m.c.Styles.Label.Render(i18n.T("ui.bench.processes"))}
	var procs []app.GPUProcess
	if m.last != nil {
		procs = append(procs, m.last.Processes...)
	}
	benchNow := false
	for _, p := range procs {
		benchNow = benchNow || p.PID == pid
	}
	if p, ok := m.seen[pid]; ok && pid != 0 && !benchNow {
		p.Name = i18n.T("ui.bench.process_ended") // it ran on the GPU and has exited: still the proof
		p.UsedMemoryMiB = nil
		procs = append(procs, p)
	}
	if len(procs) == 0 {
		lines = append(lines, m.c.Styles.Dim.Render(i18n.T("ui.bench.no_processes")))
	} else {
		sort.SliceStable(procs, func(i, j int) bool { return procs[i].PID == pid && procs[j].PID != pid })
		for _, p := range procs {
			mem := ""
			if p.UsedMemoryMiB != nil {
				mem = fmt.Sprintf(" %dMiB", *p.UsedMemoryMiB)
			}
			line := fmt.Sprintf("%d %s%s", p.PID, p.Name, mem)
			if p.PID == pid && pid != 0 {
				line = m.c.Styles.Selected.Render(m.c.Styles.Cursor + i18n.T("ui.bench.process_bench", i18n.D{"PID": p.PID, "Name": p.Name, "Memory": mem}))
			} else {
				line = m.c.Styles.NoCursor + line
			}
			lines = append(lines, line)
		}
	}
	return fitBlock(strings.Join(lines, "\n"), w, h)
}
