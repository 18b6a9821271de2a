package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

// addDoneScreen ends the project step: whether the requirements went in, the quick check that the
// GPU build still computes, that the venv keeps its build by itself and how to give it back.
type addDoneScreen struct {
	pane
	venv    string
	outcome app.Outcome
	quit    key.Binding
	more    key.Binding
}

func newAddDoneScreen(c *Common, venv string, o app.Outcome) *addDoneScreen {
	return &addDoneScreen{pane: newPane(c), venv: venv, outcome: o,
		quit: relabel(c.Keys.Select, i18n.T("ui.done.key_quit")), more: relabel(c.Keys.Add, i18n.T("ui.add.key_more"))}
}

func (s *addDoneScreen) Init() tea.Cmd { return nil }
func (s *addDoneScreen) Title() string { return i18n.T("ui.add.done_title") }
func (s *addDoneScreen) SetSize(w, h int) {
	s.resize(w, h, 1) // the "more" line below
	s.vp.SetContent(s.body())
}
func (s *addDoneScreen) ShortHelp() []key.Binding {
	k := s.c.Keys
	return []key.Binding{s.more, s.quit, k.Up, k.Down}
}
func (s *addDoneScreen) FullHelp() [][]key.Binding {
	return [][]key.Binding{{s.more, s.quit}, s.c.Keys.scrolling()}
}

func (s *addDoneScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		switch {
		case key.Matches(k, s.quit):
			return s, tea.Quit
		case key.Matches(k, s.more):
			return s, navigate(addRequestMsg{})
		}
	}
	return s, scroll(&s.vp, msg)
}

func (s *addDoneScreen) body() string {
	st := s.c.Styles
	o := s.outcome
	var b strings.Builder
	verified := o.Verify != nil && o.Verify.OK
	switch {
	case o.OK && verified:
		b.WriteString(st.OK.Render(wrap(st.Pass+" "+i18n.T("ui.add.done_ok"), s.w)) + "\n")
	case o.OK:
		b.WriteString(st.Err.Render(wrap(st.Fail+" "+i18n.T("ui.add.done_verify_failed"), s.w)) + "\n")
	default:
		b.WriteString(st.Err.Render(wrap(st.Fail+" "+failureHeadline(o.Result), s.w)) + "\n")
		if o.Err != nil {
			b.WriteString(wrap(o.Err.Error(), s.w) + "\n")
		}
		switch {
		case o.Unchanged || o.Result == "unchanged":
			b.WriteString(i18n.T("ui.done.unchanged") + "\n")
		case o.Restored:
			b.WriteString(i18n.T("ui.done.restored") + "\n")
		default:
			for _, l := range o.Leftovers {
				b.WriteString(wrap("  "+l.What+" "+l.Path, s.w) + "\n" + st.Code.Render(wrap("    "+l.Clear, s.w)) + "\n")
			}
		}
	}
	if v := o.Verify; v != nil {
		b.WriteString("\n" + st.Label.Render(i18n.T("ui.add.quick_check")) + "\n")
		b.WriteString(checklist(st, v.Checks, s.w))
	}
	b.WriteString("\n" + st.Label.Render(i18n.T("ui.done.label_venv")+" ") + s.venv + "\n")
	if o.OK {
		b.WriteString(protectionText(s.c, s.venv, &o, s.w))
	}
	if o.LogPath != "" {
		b.WriteString(st.Label.Render(i18n.T("ui.done.label_log")+" ") + o.LogPath + "\n")
	}
	b.WriteString("\n" + st.Dim.Render(i18n.T("ui.add.done_keys")))
	return b.String()
}

func (s *addDoneScreen) View() string { return vpView(s.vp, s.c.Styles) }
