package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/progress"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// The colour tokens: every colour of the wizard, for light and dark terminals. No other file names
// a colour; "no colour" is lipgloss's colour profile, set once (configureLipgloss).
var (
	colorTitle    = lipgloss.AdaptiveColor{Light: "#5A32C8", Dark: "#B4A0FF"}
	colorBanner   = lipgloss.AdaptiveColor{Light: "#E8A317", Dark: "#E8A317"}
	colorStep     = lipgloss.AdaptiveColor{Light: "#666666", Dark: "#999999"}
	colorRule     = lipgloss.AdaptiveColor{Light: "#BBBBBB", Dark: "#444444"}
	colorBorder   = lipgloss.AdaptiveColor{Light: "#BBBBBB", Dark: "#555555"}
	colorSelected = lipgloss.AdaptiveColor{Light: "#1F6FEB", Dark: "#79B8FF"}
	colorDim      = lipgloss.AdaptiveColor{Light: "#999999", Dark: "#666666"}
	colorOK       = lipgloss.AdaptiveColor{Light: "#1A7F37", Dark: "#56D364"}
	colorWarn     = lipgloss.AdaptiveColor{Light: "#9A6700", Dark: "#E3B341"}
	colorErr      = lipgloss.AdaptiveColor{Light: "#CF222E", Dark: "#FF7B72"}
	colorCode     = lipgloss.AdaptiveColor{Light: "#0550AE", Dark: "#A5D6FF"}
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
	s.Title = lipgloss.NewStyle().Bold(true).Foreground(colorTitle)
	s.Banner = lipgloss.NewStyle().Bold(true).Reverse(true).Foreground(colorBanner)
	s.Step = lipgloss.NewStyle().Foreground(colorStep)
	s.Rule = lipgloss.NewStyle().Foreground(colorRule)
	s.Box = lipgloss.NewStyle().Border(border).BorderForeground(colorBorder).Padding(0, 1)
	s.Selected = lipgloss.NewStyle().Bold(true).Foreground(colorSelected)
	s.Normal = lipgloss.NewStyle()
	s.Dim = lipgloss.NewStyle().Foreground(colorDim)
	s.OK = lipgloss.NewStyle().Foreground(colorOK)
	s.Warn = lipgloss.NewStyle().Foreground(colorWarn)
	s.Err = lipgloss.NewStyle().Bold(true).Foreground(colorErr)
	s.Code = lipgloss.NewStyle().Foreground(colorCode)
	s.Label = lipgloss.NewStyle().Bold(true)
	s.Recommend = lipgloss.NewStyle().Bold(true).Foreground(colorOK)
	return s
}

// NewBar is a progress bar in the wizard's colours (no percentage: screens write their own
// figures). It follows lipgloss's colour profile, so with --no-color or NO_COLOR it draws none.
func (s Styles) NewBar() progress.Model {
	opts := []progress.Option{progress.WithoutPercentage()}
	if s.ASCII {
		opts = append(opts, progress.WithFillCharacters('#', '-'))
	}
	profile := lipgloss.ColorProfile()
	fill := colorOK.Dark
	if !lipgloss.HasDarkBackground() {
		fill = colorOK.Light
	}
	if profile == termenv.Ascii {
		fill = ""
	}
	return progress.New(append(opts, progress.WithColorProfile(profile), progress.WithSolidFill(fill))...)
}

// HRule is a horizontal rule of width w.
func (s Styles) HRule(w int) string {
	if w < 1 {
		return ""
	}
	return s.Rule.Render(strings.Repeat(s.RuleChar, w))
}
