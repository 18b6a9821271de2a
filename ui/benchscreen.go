package ui

import (
	"context"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// benchScreen embeds the live benchmark screen (BenchModel) and owns its run: it starts the
// benchmark in a command and cancels it when the user leaves. Running it again is a new screen
// (the root swaps it on BenchRerunMsg), so nothing of the old run can reach the new one.
type benchScreen struct {
	c      *Common
	id     screenID
	venv   string
	gpu    int // the card benchmarked and charted
	model  *BenchModel
	cancel context.CancelFunc
	err    error
	w, h   int
}

type benchStartedMsg struct {
	addr
	feed      BenchFeed
	framework string
	err       error
}

func benchStartCmd(to screenID, ctx context.Context, b Backend, venv string, gpuIndex int) tea.Cmd {
	return func() tea.Msg {
		feed, fw, err := b.Bench(ctx, venv, gpuIndex)
		feed.to = to
		return benchStartedMsg{addr{to}, feed, fw, err}
	}
}

func newBenchScreen(c *Common, venv string, gpuIndex int) screen {
	return &benchScreen{c: c, id: c.newID(), venv: venv, gpu: gpuIndex}
}

func (s *benchScreen) start() tea.Cmd {
	ctx, cancel := context.WithCancel(s.c.Ctx)
	s.cancel = cancel
	return benchStartCmd(s.id, ctx, s.c.Backend, s.venv, s.gpu)
}

func (s *benchScreen) Init() tea.Cmd { return s.start() }

// Leave stops the benchmark's child when the user goes back.
func (s *benchScreen) Leave() {
	if s.cancel != nil {
		s.cancel()
	}
}

func (s *benchScreen) ident() screenID { return s.id }
func (s *benchScreen) Title() string   { return "Benchmark" }

// OwnHelp: BenchModel draws its help line; the root's would repeat it.
func (s *benchScreen) OwnHelp() {}
func (s *benchScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	if s.model != nil {
		s.model.SetSize(w, h)
	}
}
func (s *benchScreen) ShortHelp() []key.Binding {
	k := s.c.Keys
	return []key.Binding{k.Rerun, k.Back, k.Quit}
}
func (s *benchScreen) FullHelp() [][]key.Binding { return [][]key.Binding{s.ShortHelp()} }

func (s *benchScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case benchStartedMsg:
		s.err = msg.err
		if msg.err != nil {
			return s, nil
		}
		s.model = NewBenchModel(BenchOptions{Framework: msg.framework, GPU: s.gpu, ASCII: s.c.Styles.ASCII, NoColor: s.c.NoColor}, msg.feed)
		s.model.SetSize(s.w, s.h)
		return s, s.model.Init()
	case tea.KeyMsg:
		if s.model == nil && key.Matches(msg, s.c.Keys.Rerun) {
			return s, navigate(BenchRerunMsg{})
		}
	}
	if s.model == nil {
		return s, nil
	}
	_, cmd := s.model.Update(msg)
	return s, cmd
}

func (s *benchScreen) View() string {
	switch {
	case s.err != nil:
		return s.c.Styles.Err.Render(wrap("The benchmark could not start: "+s.err.Error(), s.w)) + "\n\nr: try again, esc: back."
	case s.model == nil:
		return "Starting the benchmark with the venv's Python..."
	}
	return s.model.View()
}
