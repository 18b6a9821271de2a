package ui

import (
	"errors"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/shellquote"
	"gpuwiz/steps/words"
)

// addScreen is the step after a verified install: the user types a requirements file's path or
// package names, sees what pip would add or upgrade under the venv's constraints (or why it is
// refused, with the way out), and confirms; the install screen then runs it. Before the preview it
// says where the project's packages will come from and where the framework's stay, and tab changes
// the packages' source (the add source screen).
type addScreen struct {
	pane
	venv     string
	input    textinput.Model
	typing   bool // the field has the keys; else the preview does
	asked    string
	checking bool
	preview  *app.AddPreview
	err      error
	sources  *app.AddSources // where the packages would come from; nil until read
	source   app.AddSource   // the source the user chose; zero: the recorded one (sources.Current)
	spin     spinnerView
	keys     struct{ preview, install, edit, source key.Binding }
}

func newAddScreen(c *Common, venv string) *addScreen {
	in := textField(i18n.T("ui.add.prompt"), i18n.T("ui.add.placeholder"), 4096)
	in.Focus()
	s := &addScreen{pane: newPane(c), venv: venv, input: in, typing: true, spin: newSpinnerView(c)}
	k := c.Keys
	s.keys.preview = relabel(k.Select, i18n.T("ui.add.key_preview"))
	s.keys.install = relabel(k.Select, i18n.T("ui.add.key_install"))
	s.keys.edit = relabel(k.Tab, i18n.T("ui.add.key_edit"))
	s.keys.source = relabel(k.Tab, i18n.T("ui.add.key_source"))
	return s
}

func (s *addScreen) Init() tea.Cmd {
	if s.sources != nil {
		return nil
	}
	return addSourcesCmd(s.id, s.c.Ctx, s.c.Backend, s.venv)
}
func (s *addScreen) Title() string { return i18n.T("ui.add.title") }
func (s *addScreen) Typing() bool  { return s.typing }
func (s *addScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	s.input.Width = max(w-i18n.Width(s.input.Prompt)-2, 10)
	s.refresh()
}

// installable: a preview without a refusal that changes something.
func (s *addScreen) installable() bool {
	return s.preview != nil && s.preview.Refusal == nil && len(s.preview.Changes) > 0
}

func (s *addScreen) ShortHelp() []key.Binding {
	k := s.c.Keys
	switch {
	case s.typing && s.sources != nil:
		return []key.Binding{s.keys.preview, s.keys.source}
	case s.typing:
		return []key.Binding{s.keys.preview}
	case s.checking:
		return nil
	case s.installable():
		return []key.Binding{s.keys.install, s.keys.edit, k.Up, k.Down}
	}
	return []key.Binding{s.keys.edit, k.Up, k.Down}
}

func (s *addScreen) FullHelp() [][]key.Binding {
	k := s.c.Keys
	if s.typing || s.checking {
		return [][]key.Binding{s.ShortHelp()}
	}
	return [][]key.Binding{s.ShortHelp(), {k.PageUp, k.PageDown}}
}

func (s *addScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case addSourcesMsg:
		s.sources = &msg.value
		s.refresh()
		return s, nil
	case addSourceChosenMsg:
		s.source = msg.source
		s.refresh()
		return s, nil
	case addPreviewMsg:
		if msg.about != s.asked {
			return s, nil // an answer about what was typed before
		}
		s.checking = false
		s.preview, s.err = answer(msg.value, msg.err)
		s.refresh()
		s.vp.GotoTop()
		return s, nil
	case tea.KeyMsg:
		if s.typing {
			if key.Matches(msg, s.keys.preview) {
				text := strings.TrimSpace(s.input.Value())
				if text == "" {
					return s, nil
				}
				s.typing, s.checking, s.asked, s.preview, s.err = false, true, text, nil, nil
				s.input.Blur()
				return s, tea.Batch(s.spin.tick(), addPreviewCmd(s.id, s.c.Ctx, s.c.Backend, s.c.Paths, s.venv, text, s.source))
			}
			if key.Matches(msg, s.keys.source) && s.sources != nil {
				return s, navigate(addSourceRequestMsg{sources: *s.sources, current: s.chosen()})
			}
			var cmd tea.Cmd
			s.input, cmd = s.input.Update(msg)
			return s, cmd
		}
		switch {
		case s.checking:
			return s, nil
		case key.Matches(msg, s.keys.install) && s.installable():
			return s, navigate(addConfirmedMsg{*s.preview})
		case key.Matches(msg, s.keys.edit):
			s.typing = true
			s.input.Focus()
			return s, nil
		}
	default:
		if s.checking {
			return s, s.spin.update(msg)
		}
	}
	return s, scroll(&s.vp, msg)
}

// refresh fills the preview's viewport and sizes it to what is left under the field and the source.
func (s *addScreen) refresh() {
	s.vp.Width = s.w
	// the intro, the field, the source's lines and a blank line above; the "more" line below
	s.vp.Height = max(s.h-lipgloss.Height(s.head())-2, 1)
	s.vp.SetContent(s.body())
}

// chosen is where the project's packages come from: the source chosen, else the recorded one.
func (s *addScreen) chosen() app.AddSource {
	if s.source.Kind == "" && s.sources != nil {
		return s.sources.Current
	}
	return s.source
}

// head is the intro, the field and, once read, where the packages come from.
func (s *addScreen) head() string {
	var b strings.Builder
	b.WriteString(wrap(i18n.T("ui.add.intro", i18n.D{"Venv": s.venv}), s.w) + "\n")
	b.WriteString(s.input.View())
	if s.sources != nil {
		src := s.chosen()
		b.WriteString("\n\n" + wrap(addSourceSentence(src), s.w))
		b.WriteString("\n" + s.c.Styles.Dim.Render(wrap(frameworkStaySentence(src), s.w)))
	}
	return b.String()
}

// addSourceSentence says where the project's packages come from.
func addSourceSentence(src app.AddSource) string {
	switch {
	case src.Kind == app.AddFromPipSettings && src.IndexURL == "":
		return i18n.T("ui.add.from_pypi")
	case src.Kind == app.AddFromPipSettings:
		return i18n.T("ui.add.from_pip_index", i18n.D{"URL": app.Redact(src.IndexURL), "Setting": src.Setting})
	case src.Recorded:
		return i18n.T("ui.add.from_recorded", i18n.D{"Source": addSourceName(src)})
	}
	return i18n.T("ui.add.from_mirror", i18n.D{"Source": addSourceName(src)})
}

// addSourceName is a mirror by name and URL, or by its URL alone.
func addSourceName(src app.AddSource) string {
	if src.Name == "" {
		return app.Redact(src.IndexURL)
	}
	return i18n.T("ui.add.mirror_named", i18n.D{"Name": src.Name, "URL": app.Redact(src.IndexURL)})
}

// frameworkStaySentence says where the framework's own packages stay with src.
func frameworkStaySentence(src app.AddSource) string {
	if src.Beside != "" {
		return i18n.T("ui.add.framework_beside", i18n.D{"URL": app.Redact(src.Beside)})
	}
	return i18n.T("ui.add.framework_kept")
}

// body is the preview in words: what stays, what changes, the troublemakers, or the refusal.
func (s *addScreen) body() string {
	st := s.c.Styles
	var b strings.Builder
	if f := (*app.AddPreviewFailed)(nil); errors.As(s.err, &f) {
		return s.failure(f)
	}
	if s.err != nil {
		b.WriteString(st.Err.Render(wrap(st.Fail+" "+i18n.T("ui.add.error", i18n.D{"Err": s.err.Error()}), s.w)) + "\n")
		return b.String()
	}
	p := s.preview
	if p == nil {
		return ""
	}
	b.WriteString(wrap(i18n.T("ui.add.keeps", i18n.D{"Build": strings.Join(p.Build, " ")}), s.w) + "\n\n")
	if r := p.Refusal; r != nil {
		b.WriteString(st.Err.Render(wrap(st.Fail+" "+i18n.T("ui.add.refused", i18n.D{"Requirement": r.Requirement, "Needs": r.Needs, "Installed": r.Installed}), s.w)) + "\n\n")
		if p.WayOut != "" {
			cmd := shellquote.Command(s.c.OS, "gpuwiz", "install", "--venv", s.venv, "--framework", p.Framework, "--framework-version", p.WayOut, "--channel", p.Channel)
			b.WriteString(wrap(i18n.T("ui.add.way_out", i18n.D{"Version": p.WayOut, "Channel": p.Channel}), s.w) + "\n")
			b.WriteString(st.Code.Render(wrap("  "+cmd, s.w)) + "\n")
		} else {
			b.WriteString(wrap(i18n.T("ui.add.way_out_none"), s.w) + "\n")
		}
		return b.String()
	}
	if len(p.Changes) == 0 {
		b.WriteString(st.OK.Render(st.Pass+" "+i18n.T("ui.add.nothing_to_do")) + "\n")
		return b.String()
	}
	b.WriteString(st.Label.Render(i18n.N("ui.add.changes", len(p.Changes))) + "\n")
	for _, c := range p.Changes {
		if c.From == "" {
			b.WriteString("  + " + i18n.T("ui.add.change_new", i18n.D{"Name": c.Name, "To": c.To}) + "\n")
		} else {
			b.WriteString("  ~ " + i18n.T("ui.add.change_upgrade", i18n.D{"Name": c.Name, "From": c.From, "To": c.To}) + "\n")
		}
	}
	for _, t := range p.Troubles {
		b.WriteString("\n" + st.Warn.Render(wrap("! "+troubleText(t), s.w)) + "\n")
	}
	b.WriteString("\n" + st.Dim.Render(wrap(i18n.T("ui.add.how"), s.w)) + "\n")
	return b.String()
}

// failure words a preview pip could not make (words.AddFailure): what failed and what to do, then
// where pip's whole output is.
func (s *addScreen) failure(f *app.AddPreviewFailed) string {
	st := s.c.Styles
	what, do, log := words.AddFailure(f.Kind, f.Package, f.LogPath, i18n.T("ui.add.another_source"))
	return st.Err.Render(wrap(st.Fail+" "+what, s.w)) + "\n\n" + wrap(do, s.w) + "\n\n" + wrap(log, s.w) + "\n"
}

// troubleText words one known troublemaker.
func troubleText(t app.AddTrouble) string {
	dists := strings.Join(t.Dists, ", ")
	switch t.Code {
	case app.TroubleSecondFramework:
		return i18n.T("ui.add.trouble_second_framework", i18n.D{"Dists": dists})
	case app.TroubleOpenCVVariants:
		return i18n.T("ui.add.trouble_opencv", i18n.D{"Dists": dists})
	case app.TroubleNumpyMajor:
		return i18n.T("ui.add.trouble_numpy", i18n.D{"Dists": dists})
	}
	return i18n.T("ui.add.trouble_other", i18n.D{"Dists": dists})
}

func (s *addScreen) View() string {
	st := s.c.Styles
	var b strings.Builder
	b.WriteString(s.head() + "\n\n")
	switch {
	case s.typing:
		b.WriteString(st.Dim.Render(wrap(i18n.T("ui.add.hint"), s.w)))
	case s.checking:
		b.WriteString(s.spin.view() + " " + i18n.T("ui.add.checking"))
	default:
		b.WriteString(vpView(s.vp, st))
	}
	return b.String()
}
