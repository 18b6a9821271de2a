package ui

import (
	"context"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// benchScreen embeds the live benchmark screen (BenchModel) and owns its run: it starts the
// benchmark in a command, restarts it on BenchRerunMsg and cancels it when the user leaves.
type benchScreen struct {
	c      *Common
	venv   string
	gpu    int // the card benchmarked and charted
	model  *BenchModel
	cancel context.CancelFunc
	runID  int
	err    error
	w, h   int
}

type benchStartedMsg struct {
	runID     int
	feed      BenchFeed
	framework string
	err       error
}

func benchStartCmd(ctx context.Context, b Backend, venv string, gpuIndex, runID int) tea.Cmd {
	return func() tea.Msg {
		feed, fw, err := b.Bench(ctx, venv, gpuIndex)
		return benchStartedMsg{runID, feed, fw, err}
	}
}

func newBenchScreen(c *Common, venv string, gpuIndex int) screen {
	return &benchScreen{c: c, venv: venv, gpu: gpuIndex}
}

func (s *benchScreen) start() tea.Cmd {
	if s.cancel != nil {
		s.cancel()
	}
	ctx, cancel := context.WithCancel(s.c.Ctx)
	s.cancel = cancel
	s.runID++
	return benchStartCmd(ctx, s.c.Backend, s.venv, s.gpu, s.runID)
}

func (s *benchScreen) Init() tea.Cmd { return s.start() }

// Leave stops the benchmark's child when the user goes back.
func (s *benchScreen) Leave() {
	if s.cancel != nil {
		s.cancel()
	}
}

func (s *benchScreen) Title() string { return "Benchmark" }

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
		if msg.runID != s.runID {
			return s, nil
		}
		s.err = msg.err
		if msg.err != nil {
			return s, nil
		}
		if s.model != nil {
			return s, s.model.Restart(msg.feed)
		}
		s.model = NewBenchModel(BenchOptions{Framework: msg.framework, GPU: s.gpu, ASCII: s.c.Styles.ASCII, NoColor: s.c.NoColor}, msg.feed)
		s.model.SetSize(s.w, s.h)
		return s, s.model.Init()
	case BenchRerunMsg:
		return s, s.start()
	case tea.KeyMsg:
		if s.model == nil && key.Matches(msg, s.c.Keys.Rerun) {
			s.err = nil
			return s, s.start()
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
