package ui

import (
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
)

// spinnerView is a spinner that only answers its own ticks.
type spinnerView struct{ m spinner.Model }

func newSpinnerView(c *Common) spinnerView { return spinnerView{newSpinner(c)} }

func (s *spinnerView) tick() tea.Cmd { return s.m.Tick }

func (s *spinnerView) update(msg tea.Msg) tea.Cmd {
	if t, ok := msg.(spinner.TickMsg); ok && t.ID == s.m.ID() {
		var cmd tea.Cmd
		s.m, cmd = s.m.Update(t)
		return cmd
	}
	return nil
}

func (s *spinnerView) view() string { return s.m.View() }
