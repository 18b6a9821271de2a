package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

// verifyScreen is the checklist after an install: each check passed or failed, with cause and fix.
type verifyScreen struct {
	askPane
	venv      string
	candidate app.Candidate
	report    *app.Checklist
	finish    key.Binding
}

func newVerifyScreen(c *Common, venv string, cand app.Candidate, r *app.Checklist) *verifyScreen {
	return &verifyScreen{askPane: newAskPane(c, i18n.T("ui.verify.key_again")), venv: venv, candidate: cand, report: r,
		finish: relabel(c.Keys.Select, i18n.T("ui.verify.key_finish"))}
}

func (s *verifyScreen) Init() tea.Cmd {
	if s.report != nil {
		s.refresh()
		return nil
	}
	return tea.Batch(s.spin.tick(), verifyCmd(s.id, s.c.Ctx, s.c.Backend, s.venv, s.candidate))
}

func (s *verifyScreen) Title() string { return i18n.T("ui.verify.title") }
func (s *verifyScreen) SetSize(w, h int) {
	s.resize(w, h, 2) // the "more" line and the verdict below
	s.refresh()
}
func (s *verifyScreen) ShortHelp() []key.Binding {
	switch {
	case s.report != nil:
		return []key.Binding{s.c.Keys.Bench, s.finish, s.again}
	case s.err != nil:
		return []key.Binding{s.finish, s.again}
	}
	return nil
}
func (s *verifyScreen) FullHelp() [][]key.Binding {
	return [][]key.Binding{s.ShortHelp(), s.c.Keys.scrolling()}
}

func (s *verifyScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case verifyMsg:
		s.report, s.err = answer(msg.value, msg.err)
		s.refresh()
		return s, nil
	case tea.KeyMsg:
		k := s.c.Keys
		switch {
		case key.Matches(msg, k.Bench) && s.report != nil:
			return s, navigate(benchRequestMsg{})
		case key.Matches(msg, s.finish) && (s.report != nil || s.err != nil):
			return s, navigate(verifyFinishMsg{s.report})
		}
	}
	return s, s.update(msg, s.report != nil, func() tea.Cmd { s.report = nil; return s.Init() })
}

func (s *verifyScreen) refresh() {
	if s.report != nil {
		s.vp.SetContent(cutLines(checklist(s.c.Styles, s.report.Checks, s.w), s.w, ellipsis(s.c.Styles)))
	}
}

func checklist(st Styles, checks []app.Check, w int) string {
	var b strings.Builder
	for _, c := range checks {
		if c.OK {
			title := checkTitle(c)
			line := st.Pass + " " + title
			if i18n.Width(line) > w { // a check's title is read in full: wrapped, never cut
				b.WriteString(st.OK.Render(st.Pass) + strings.TrimPrefix(wrapHanging(line, w, "  "), st.Pass))
			} else {
				b.WriteString(st.OK.Render(st.Pass) + " " + title)
			}
			if c.Evidence != "" {
				if i18n.Width(line+"  "+c.Evidence) <= w {
					b.WriteString(st.Dim.Render("  " + c.Evidence))
				} else { // on its own lines, whole: a version or a path is read in full
					b.WriteString("\n" + st.Dim.Render(wrap("    "+c.Evidence, w)))
				}
			}
			b.WriteString("\n")
			continue
		}
		b.WriteString(st.Err.Render(wrapHanging(st.Fail+" "+checkTitle(c), w, "  ")) + "\n")
		if c.Evidence != "" {
			b.WriteString(st.Dim.Render(wrap("    "+i18n.T("ui.verify.saw", i18n.D{"Evidence": c.Evidence}), w)) + "\n")
		}
		if c.Cause != "" {
			b.WriteString(wrap("    "+i18n.T("ui.verify.cause", i18n.D{"Cause": c.Cause}), w) + "\n")
		}
		if c.Fix != "" {
			b.WriteString(st.Selected.Render(wrap("    "+i18n.T("ui.verify.fix", i18n.D{"Fix": c.Fix}), w)) + "\n")
		}
	}
	return b.String()
}

func (s *verifyScreen) View() string {
	st := s.c.Styles
	switch {
	case s.err != nil:
		return s.failed(i18n.T("ui.verify.error", i18n.D{"Err": s.err.Error()}), i18n.T("ui.verify.error_hint"))
	case s.report == nil:
		return s.spin.view() + " " + i18n.T("ui.verify.running")
	}
	verdict := st.OK.Render(st.Pass + " " + i18n.T("ui.verify.passed"))
	if !s.report.OK {
		verdict = st.Err.Render(st.Fail+" "+i18n.T("ui.verify.failed")) + " " + i18n.T("ui.verify.failed_keys")
	}
	return vpView(s.vp, st) + "\n" + verdict
}
