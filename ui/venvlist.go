package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/words"
)

// venvList is the list above the path input when changing or repairing: the venvs gpuwiz worked on,
// the active one, ./venv, ./.venv and conda's, each with what it holds. Moving in it puts the
// entry's path in the input, so the path is checked and read as if typed; typing another path
// leaves the list unmarked.
type venvList struct {
	items   []app.KnownVenv
	warning string
	loaded  bool
	cursor  int // -1: no entry is the input's path
}

// maxVenvRows is how many entries the list shows at once (two lines each).
const maxVenvRows = 4

// set takes the backend's answer; for a channel change only environments holding a framework count.
func (l *venvList) set(msg knownVenvsMsg, j Journey) {
	l.loaded, l.warning, l.cursor = true, msg.warning, -1
	l.items = l.items[:0]
	for _, v := range msg.list {
		if j == JourneyChange && v.Framework == "" {
			continue
		}
		l.items = append(l.items, v)
	}
}

// move steps the cursor by d and answers the path to put in the input ("" when it did not move).
func (l *venvList) move(d int) string {
	if len(l.items) == 0 {
		return ""
	}
	next := min(max(l.cursor+d, 0), len(l.items)-1)
	if l.cursor < 0 {
		next = 0
		if d < 0 {
			next = len(l.items) - 1
		}
	}
	if next == l.cursor {
		return ""
	}
	l.cursor = next
	return l.items[next].Path
}

// follow unmarks the list when the input no longer holds the marked entry's path.
func (l *venvList) follow(input string) {
	if l.cursor >= 0 && l.cursor < len(l.items) && l.items[l.cursor].Path != input {
		l.cursor = -1
	}
	if l.cursor < 0 {
		for i, v := range l.items {
			if v.Path == input {
				l.cursor = i
			}
		}
	}
}

// has reports whether path is one of the entries.
func (l *venvList) has(path string) bool {
	for _, v := range l.items {
		if v.Path == path {
			return true
		}
	}
	return false
}

func (l *venvList) view(st Styles, w int) string {
	if !l.loaded {
		return st.Dim.Render("  "+i18n.T("ui.venv.list.looking")) + "\n"
	}
	var b strings.Builder
	if l.warning != "" {
		b.WriteString(st.Warn.Render(wrap("! "+l.warning, w)) + "\n")
	}
	if len(l.items) == 0 {
		return b.String()
	}
	title := i18n.T("ui.venv.list.title")
	for _, v := range l.items {
		if v.Nearby { // not every row is one gpuwiz knows: the title says so
			title = i18n.T("ui.venv.list.title_found")
			break
		}
	}
	b.WriteString(st.Label.Render(title) + st.Dim.Render("  "+i18n.T("ui.venv.list.pick")) + "\n")
	start := min(max(l.cursor-maxVenvRows/2, 0), max(len(l.items)-maxVenvRows, 0))
	for i := start; i < len(l.items) && i < start+maxVenvRows; i++ {
		v := l.items[i]
		cur, path := st.NoCursor, v.Path
		if i == l.cursor {
			cur, path = st.Cursor, st.Selected.Render(path)
		}
		b.WriteString(cur + path + "\n")
		b.WriteString("    " + st.Dim.Render(ansi.Truncate(words.VenvLine(v.Found), max(w-4, 20), "…")) + "\n")
	}
	if n := len(l.items) - maxVenvRows; n > 0 {
		b.WriteString(st.Dim.Render("    "+i18n.T("ui.venv.list.more", i18n.D{"N": n})) + "\n")
	}
	return b.String()
}
