package ui

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// Styles are every lipgloss style of the wizard, built once for the colour and border mode.
type Styles struct {
	ASCII bool

	App       lipgloss.Style
	Title     lipgloss.Style
	Banner    lipgloss.Style
	Step      lipgloss.Style
	Rule      lipgloss.Style
	Box       lipgloss.Style
	Selected  lipgloss.Style
	Normal    lipgloss.Style
	Dim       lipgloss.Style
	OK        lipgloss.Style
	Warn      lipgloss.Style
	Err       lipgloss.Style
	Code      lipgloss.Style
	Label     lipgloss.Style
	Recommend lipgloss.Style

	// Marks drawn in text; plain ASCII when --ascii.
	Cursor, NoCursor, Pass, Fail, Pending, Running, Skipped, Star, Bullet string
	RuleChar                                                              string
}

// NewStyles builds the styles; ascii drops box drawing and non-ASCII marks.
func NewStyles(ascii bool) Styles {
	border := lipgloss.RoundedBorder()
	s := Styles{ASCII: ascii,
		Cursor: "▸ ", NoCursor: "  ", Pass: "✓", Fail: "✗", Pending: "·", Running: "›", Skipped: "-",
		Star: "★", Bullet: "•", RuleChar: "─"}
	if ascii {
		border = lipgloss.ASCIIBorder()
		s.Cursor, s.Pass, s.Fail, s.Pending, s.Running, s.Star, s.Bullet, s.RuleChar = "> ", "ok", "XX", ".", ">", "*", "-", "-"
	}
	s.App = lipgloss.NewStyle().Padding(0, 1)
	s.Title = lipgloss.NewStyle().Bold(true).Foreground(lipgloss.AdaptiveColor{Light: "#5A32C8", Dark: "#B4A0FF"})
	s.Banner = lipgloss.NewStyle().Bold(true).Reverse(true).Foreground(lipgloss.Color("#E8A317"))
	s.Step = lipgloss.NewStyle().Foreground(lipgloss.AdaptiveColor{Light: "#666666", Dark: "#999999"})
	s.Rule = lipgloss.NewStyle().Foreground(lipgloss.AdaptiveColor{Light: "#BBBBBB", Dark: "#444444"})
	s.Box = lipgloss.NewStyle().Border(border).BorderForeground(lipgloss.AdaptiveColor{Light: "#BBBBBB", Dark: "#555555"}).Padding(0, 1)
	s.Selected = lipgloss.NewStyle().Bold(true).Foreground(lipgloss.AdaptiveColor{Light: "#1F6FEB", Dark: "#79B8FF"})
	s.Normal = lipgloss.NewStyle()
	s.Dim = lipgloss.NewStyle().Foreground(lipgloss.AdaptiveColor{Light: "#999999", Dark: "#666666"})
	s.OK = lipgloss.NewStyle().Foreground(lipgloss.AdaptiveColor{Light: "#1A7F37", Dark: "#56D364"})
	s.Warn = lipgloss.NewStyle().Foreground(lipgloss.AdaptiveColor{Light: "#9A6700", Dark: "#E3B341"})
	s.Err = lipgloss.NewStyle().Bold(true).Foreground(lipgloss.AdaptiveColor{Light: "#CF222E", Dark: "#FF7B72"})
	s.Code = lipgloss.NewStyle().Foreground(lipgloss.AdaptiveColor{Light: "#0550AE", Dark: "#A5D6FF"})
	s.Label = lipgloss.NewStyle().Bold(true)
	s.Recommend = lipgloss.NewStyle().Bold(true).Foreground(lipgloss.AdaptiveColor{Light: "#1A7F37", Dark: "#56D364"})
	return s
}

// HRule is a horizontal rule of width w.
func (s Styles) HRule(w int) string {
	if w < 1 {
		return ""
	}
	return s.Rule.Render(strings.Repeat(s.RuleChar, w))
}
