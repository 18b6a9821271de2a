package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// benchUnavailable stands in for the live benchmark screen where this build has none.
type benchUnavailable struct {
	c    *Common
	w, h int
}

func newBenchScreen(c *Common, venv string) screen { return &benchUnavailable{c: c} }

func (s *benchUnavailable) Init() tea.Cmd                       { return nil }
func (s *benchUnavailable) Title() string                       { return "Benchmark" }
func (s *benchUnavailable) SetSize(w, h int)                    { s.w, s.h = w, h }
func (s *benchUnavailable) Update(tea.Msg) (tea.Model, tea.Cmd) { return s, nil }
func (s *benchUnavailable) ShortHelp() []key.Binding {
	return []key.Binding{s.c.Keys.Back, s.c.Keys.Quit}
}
func (s *benchUnavailable) FullHelp() [][]key.Binding { return [][]key.Binding{s.ShortHelp()} }
func (s *benchUnavailable) View() string {
	return "The live benchmark is not in this build. Run gpuwiz bench --venv PATH. esc to go back."
}
