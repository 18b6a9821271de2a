package ui

import (
	"context"
	"strings"
	"time"
	"unicode"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

// Size limits: below the minimum the wizard still draws, clipped; above the maximum (legacy conhost
// reports its 9001-line buffer) it draws as if the window were the maximum.
const (
	minWidth, minHeight = 20, 6
	maxWidth, maxHeight = 240, 80
)

// Common is shared by the root and every screen: size, styles, keys and the backend.
type Common struct {
	Width, Height int // the body area a screen may draw in
	Styles        Styles
	Keys          KeyMap
	Simulated     bool
	OS            string // the OS builds are judged for: runtime.GOOS ("linux" in tests, for stable goldens)
	Ctx           context.Context
	Backend       App
	Clock         func() time.Time // nil: time.Now; tests stop it for stable elapsed times
	Paths         *app.UserPaths   // what typed paths are read against; nil: this process's (tests fix it)
	lastID        screenID
}

// screenID names one screen for as long as it lives; a screen shown again is a new screen.
type screenID uint64

// newID is a screen's id, taken once when the screen is built (in Update: no locking needed).
func (c *Common) newID() screenID {
	c.lastID++
	return c.lastID
}

// addr is embedded in every message a command sends back: the screen that asked for it.
type addr struct{ to screenID }

func (a addr) receiver() screenID { return a.to }

// addressed is a message for one screen; the root delivers it to that screen only.
type addressed interface{ receiver() screenID }

// now is the time by c.Clock.
func (c *Common) now() time.Time {
	if c.Clock != nil {
		return c.Clock()
	}
	return time.Now()
}

// screen is one page of the wizard. Screens ask the root for navigation by returning messages.
type screen interface {
	tea.Model
	ShortHelp() []key.Binding
	FullHelp() [][]key.Binding
	SetSize(width, height int)
	Title() string
	ident() screenID // the receiver of the screen's command results
}

// frame is what every screen keeps: the wizard's common state, who it is (the receiver of its
// commands' results) and its size. Its SetSize keeps the size alone, for a screen that lays out
// in View.
type frame struct {
	c    *Common
	id   screenID
	w, h int
}

func newFrame(c *Common) frame { return frame{c: c, id: c.newID()} }

func (f *frame) ident() screenID  { return f.id }
func (f *frame) SetSize(w, h int) { f.w, f.h = w, h }

// busyScreen is a screen that must not be left or quit at once (an install is running).
type busyScreen interface{ Busy() bool }

// typingScreen is a screen whose text input takes letter keys such as q.
type typingScreen interface{ Typing() bool }

// leavingScreen is told when the user goes back from it, to stop what it runs.
type leavingScreen interface{ Leave() }

func isBusy(s screen) bool {
	b, ok := s.(busyScreen)
	return ok && b.Busy()
}

func isTyping(s screen) bool {
	t, ok := s.(typingScreen)
	return ok && t.Typing()
}

func clampSize(w, h int) (int, int) {
	return min(max(w, minWidth), maxWidth), min(max(h, minHeight), maxHeight)
}

// fitBlock clips s to w columns and h lines so no screen can overflow the window.
func fitBlock(s string, w, h int) string { return fitBlockCut(s, w, h, "") }

// fitBlockCut is fitBlock with tail (… ) at the end of every line it cuts, so a cut shows.
func fitBlockCut(s string, w, h int, tail string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return cutLines(strings.Join(lines[:min(len(lines), h)], "\n"), w, tail)
}

// padLines pads s with empty lines to exactly h lines.
func padLines(s string, h int) string {
	n := strings.Count(s, "\n") + 1
	if s == "" {
		n = 0
	}
	if n < h {
		s += strings.Repeat("\n", h-n)
	}
	return s
}

// wrap breaks text at spaces to w columns (never inside "Set-ExecutionPolicy"), indenting
// continuation lines like the first; words longer than a line are cut. Chinese text, which has no
// spaces, also breaks between its characters (never before a closing mark such as ，。）).
func wrap(s string, w int) string {
	indent := s[:len(s)-len(strings.TrimLeft(s, " "))]
	return wrapHanging(s, w, indent)
}

// wrapHanging is wrap with continuation lines indented by hang, so list items stay apart.
func wrapHanging(s string, w int, hang string) string {
	w = max(w, 10)
	indent := s[:len(s)-len(strings.TrimLeft(s, " "))]
	first := true
	var out, line strings.Builder
	lineW := 0
	for _, word := range strings.Fields(s) {
		for i, part := range cjkParts(word) {
			spaced := i == 0 // the first part of a word follows a space; the others follow at once
			ww := ansi.StringWidth(part)
			gap := 0
			if spaced {
				gap = 1
			}
			if lineW > 0 && lineW+gap+ww > w {
				out.WriteString(line.String() + "\n")
				line.Reset()
				lineW = 0
				if first {
					first, indent = false, hang
				}
			}
			if lineW == 0 {
				line.WriteString(indent)
				lineW = len(indent)
			} else if spaced {
				line.WriteString(" ")
				lineW++
			}
			if lineW+ww > w {
				part = ansi.Hardwrap(part, max(w-lineW, 1), false)
			}
			line.WriteString(part)
			lineW += ww
		}
	}
	out.WriteString(line.String())
	return out.String()
}

// cjkParts splits a word where a line may break inside it: before and after each Chinese character,
// but never before a closing mark (，。、：；）！？…) nor after an opening one (（“《). A word without
// Chinese is one part.
func cjkParts(word string) []string {
	if !strings.ContainsFunc(word, isCJK) {
		return []string{word}
	}
	var parts []string
	var cur strings.Builder
	var prev rune
	for _, r := range word {
		if cur.Len() > 0 && (isCJK(r) || isCJK(prev)) && !strings.ContainsRune(closingMarks, r) && !strings.ContainsRune(openingMarks, prev) {
			parts = append(parts, cur.String())
			cur.Reset()
		}
		cur.WriteRune(r)
		prev = r
	}
	return append(parts, cur.String())
}

const (
	closingMarks = "，。、：；）！？…》」』”’,.;:!?)%"
	openingMarks = "（《「『“‘("
)

// isCJK is a Chinese character or full-width mark: a line may break beside it.
func isCJK(r rune) bool {
	return unicode.Is(unicode.Han, r) || r >= 0x3000 && r <= 0x303f || r >= 0xff00 && r <= 0xffef || r >= 0x2e80 && r <= 0x2fff
}

// ellipsis is the mark of text cut short: … , or ... under --ascii.
func ellipsis(st Styles) string {
	if st.ASCII {
		return "..."
	}
	return "…"
}

// cutLines cuts every line of s wider than w, ending it with tail (… ): content handed to a
// viewport, which would cut it silently.
func cutLines(s string, w int, tail string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if ansi.StringWidth(l) > w {
			lines[i] = ansi.Truncate(l, w, tail)
		}
	}
	return strings.Join(lines, "\n")
}

// vpView is a viewport's view with the "more" line under it when it scrolls by itself
// (ui/AGENTS.md): "\n↓ N more lines below: pgdn" while it does not show its end, none when it does.
func vpView(vp viewport.Model, st Styles) string {
	below := vp.TotalLineCount() - vp.YOffset - vp.Height
	if below <= 0 {
		return vp.View()
	}
	return vp.View() + "\n" + st.Dim.Render(ansi.Truncate(i18n.N("ui.root.more_below", below, i18n.D{"Arrow": arrow(st, false)}), vp.Width, ellipsis(st)))
}
