package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

// addSourceScreen chooses where the project's packages come from for the add: the mirror the venv's
// build was installed with, the user's pip settings, the sources list's PyPI mirrors (the same list
// the package-source screen probes), or an index URL the user types. The framework's own packages
// stay where they are.
type addSourceScreen struct {
	urlChooser
	sources app.AddSources
	notice  string
}

func newAddSourceScreen(c *Common, sources app.AddSources, current app.AddSource) *addSourceScreen {
	s := &addSourceScreen{sources: sources}
	s.urlChooser = newURLChooser(c, i18n.T("ui.add_source.prompt"), i18n.T("ui.add_source.placeholder"), func() int { return len(s.sources.Choices) })
	s.cursor = len(sources.Choices) // a typed URL: on the URL row, with it in the field
	for i, ch := range sources.Choices {
		if ch == current {
			s.cursor = i
		}
	}
	if s.onInput() && current.IndexURL != "" {
		s.input.SetValue(current.IndexURL)
	}
	s.place(s.cursor)
	return s
}

func (s *addSourceScreen) Init() tea.Cmd { return nil }
func (s *addSourceScreen) Title() string { return i18n.T("ui.add_source.title") }
func (s *addSourceScreen) ShortHelp() []key.Binding {
	return append(s.moveKeys(), s.use)
}
func (s *addSourceScreen) FullHelp() [][]key.Binding { return [][]key.Binding{s.ShortHelp()} }

func (s *addSourceScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return s, nil
	}
	switch {
	case s.move(k):
		s.notice = ""
		return s, nil
	case key.Matches(k, s.use):
		if !s.onInput() {
			return s, navigate(addSourceChosenMsg{s.sources.Choices[s.cursor]})
		}
		u := strings.TrimSpace(s.input.Value())
		if u == "" {
			s.notice = i18n.T("ui.add_source.type_url")
			return s, nil
		}
		if _, err := app.CheckURL(u); err != nil {
			s.notice = err.Error()
			return s, nil
		}
		return s, navigate(addSourceChosenMsg{s.sources.Typed(u)})
	}
	if s.onInput() {
		var cmd tea.Cmd
		s.input, cmd = s.input.Update(msg)
		s.notice = ""
		return s, cmd
	}
	return s, nil
}

// choiceLabel is a choice in words: a mirror's name (its URL under it), or the pip settings.
func choiceLabel(ch app.AddSource) (name, under string) {
	switch {
	case ch.Kind == app.AddFromPipSettings && ch.IndexURL == "":
		return i18n.T("ui.add_source.pip_pypi"), ""
	case ch.Kind == app.AddFromPipSettings:
		return i18n.T("ui.add_source.pip_index"), i18n.T("ui.add_source.pip_index_where", i18n.D{"URL": app.Redact(ch.IndexURL), "Setting": ch.Setting})
	case ch.Name == "":
		return app.Redact(ch.IndexURL), ""
	}
	return ch.Name, app.Redact(ch.IndexURL)
}

func (s *addSourceScreen) View() string {
	st := s.c.Styles
	var b strings.Builder
	b.WriteString(wrap(i18n.T("ui.add_source.intro"), s.w) + "\n")
	if s.sources.FrameworkIndex != "" {
		b.WriteString(st.Dim.Render(wrap(i18n.T("ui.add_source.framework", i18n.D{"URL": app.Redact(s.sources.FrameworkIndex)}), s.w)) + "\n")
	}
	b.WriteString("\n")
	for i, ch := range s.sources.Choices {
		cur := st.NoCursor
		name, under := choiceLabel(ch)
		if i == s.cursor {
			cur, name = st.Cursor, st.Selected.Render(name)
		}
		if ch.Recorded {
			name += st.Dim.Render("  " + i18n.T("ui.add_source.recorded"))
		}
		b.WriteString(cur + name + "\n")
		if under != "" {
			b.WriteString(st.Dim.Render(wrapHanging("    "+under, s.w, "    ")) + "\n")
		}
	}
	b.WriteString(s.urlRow(""))
	if s.notice != "" {
		b.WriteString("\n" + st.Warn.Render(wrap(s.notice, s.w)) + "\n")
	}
	return b.String()
}
