package ui

import (
	"context"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"gpuwiz/steps/i18n"
)

// benchStarter starts one run of the benchmark; the feed closes when it ends or ctx is done.
type benchStarter func(ctx context.Context) (feed BenchFeed, framework string, err error)

// benchScreen shows one run of the benchmark (BenchModel): it starts the run in a command and
// cancels it when the user leaves. Running it again is a new screen (the root swaps it on
// BenchRerunMsg), so nothing of the old run can reach the new one.
type benchScreen struct {
	frame
	gpu    int // the card benchmarked and charted
	start  benchStarter
	model  *BenchModel
	cancel context.CancelFunc
	err    error
	again  key.Binding
}

func newBenchScreen(c *Common, gpuIndex int, start benchStarter) *benchScreen {
	return &benchScreen{frame: newFrame(c), gpu: gpuIndex, start: start, again: relabel(c.Keys.Rerun, i18n.T("ui.bench.key_try_again"))}
}

func (s *benchScreen) Init() tea.Cmd {
	ctx, cancel := context.WithCancel(s.c.Ctx)
	s.cancel = cancel
	return benchStartCmd(s.id, ctx, s.start)
}

// Leave stops the benchmark's child when the user goes back.
func (s *benchScreen) Leave() {
	if s.cancel != nil {
		s.cancel()
	}
}

func (s *benchScreen) Title() string {
	if s.model != nil {
		return s.model.Title()
	}
	return i18n.T("ui.bench.title")
}

func (s *benchScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	if s.model != nil {
		s.model.SetSize(w, h)
	}
}

func (s *benchScreen) ShortHelp() []key.Binding {
	switch {
	case s.err != nil:
		return []key.Binding{s.again}
	case s.model != nil:
		return s.model.ShortHelp()
	}
	return nil
}

func (s *benchScreen) FullHelp() [][]key.Binding {
	if s.model != nil {
		return s.model.FullHelp()
	}
	return [][]key.Binding{s.ShortHelp()}
}

func (s *benchScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case benchStartedMsg:
		s.err = msg.err
		if msg.err != nil {
			return s, nil
		}
		s.model = NewBenchModel(s.c, BenchOptions{Framework: msg.framework, GPU: s.gpu}, msg.feed)
		s.model.SetSize(s.w, s.h)
		return s, s.model.Init()
	case tea.KeyMsg:
		if s.err != nil && key.Matches(msg, s.again) {
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
		return s.c.Styles.Err.Render(wrap(i18n.T("ui.bench.could_not_start", i18n.D{"Err": s.err.Error()}), s.w))
	case s.model == nil:
		return i18n.T("ui.bench.starting_screen")
	}
	return s.model.View()
}

// rerunBench puts a new benchmark screen in the place of the top one (r): the old run is stopped
// and its messages find no receiver. It swaps in place rather than popping first: under
// `bench --tui` the benchmark is the only screen, and an empty stack has no top to draw.
func (m *Model) rerunBench() tea.Cmd {
	if l, ok := m.top().(leavingScreen); ok {
		l.Leave()
	}
	s := m.newBench()
	m.stack[len(m.stack)-1] = s
	m.resize()
	return s.Init()
}
