// Package rules breaks the wizard's house rules on purpose: the rule tests must find each break.
package rules

import (
	"context"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

type App interface {
	Probe(ctx context.Context) (int, error)
	Channels(ctx context.Context) ([]string, error)
}

var (
	red  = lipgloss.NewStyle().Foreground(lipgloss.Color("#FF0000"))
	keys = key.NewBinding(key.WithKeys("x"))
)

type screen struct {
	b     App
	judge func(string) string
	n     int
}

type probedMsg struct{ n int }

func newScreen(b App) *screen {
	return &screen{b: b, judge: func(p string) string {
		l, _ := b.Channels(context.Background())
		return p + l[0]
	}}
}

func (s *screen) Init() tea.Cmd { return nil }

func (s *screen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if p, ok := msg.(probedMsg); ok {
		s.n = p.n
		return s, nil
	}
	n, _ := s.b.Probe(context.Background())
	s.n = n
	s.helper()
	_ = s.judge("3.12")
	return s, func() tea.Msg { // a command: the place for IO
		n, _ := s.b.Probe(context.Background())
		return probedMsg{n}
	}
}

func (s *screen) helper() { _, _ = s.b.Channels(context.Background()) }

func (s *screen) View() string { return red.Render("x") + keys.Help().Key }
