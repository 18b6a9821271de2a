package ui

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/shellquote"
)

// checkScreen ends "just check this machine": the builds of both frameworks that fit, then quit.
type checkScreen struct {
	pane
	report app.GPUReport
	sels   map[string]*channelsMsg
	py     *app.Interpreter // the Python the builds are judged for: the one a new venv would use
	pyDone bool             // discovery answered (py stays nil when it found none)
	quit   key.Binding      // enter quits too
}

func newCheckScreen(c *Common, r app.GPUReport) *checkScreen {
	return &checkScreen{pane: newPane(c), report: r, sels: map[string]*channelsMsg{},
		quit: relabel(c.Keys.Select, i18n.T("ui.done.key_quit"))}
}

// Init looks for Python first: which builds fit depends on the Python a venv would be made from.
func (s *checkScreen) Init() tea.Cmd { return pythonsCmd(s.id, s.c.Ctx, s.c.Backend, nil) }

func (s *checkScreen) judge() tea.Cmd {
	var cmds []tea.Cmd
	for _, f := range []string{"torch", "paddle"} {
		if s.sels[f] == nil {
			facts := factsFor(s.report, f, "")
			if s.py != nil {
				facts.PythonVersion, facts.PythonBits = s.py.Version, s.py.Bits
			}
			cmds = append(cmds, channelsCmd(s.id, s.c.Ctx, s.c.Backend, facts))
		}
	}
	return tea.Batch(cmds...)
}

func (s *checkScreen) Title() string { return i18n.T("ui.check.title") }
func (s *checkScreen) SetSize(w, h int) {
	s.resize(w, h, 2) // the "more" line and the quit hint below
	s.vp.SetContent(s.body())
}
func (s *checkScreen) ShortHelp() []key.Binding {
	k := s.c.Keys
	return []key.Binding{s.quit, k.Up, k.Down}
}
func (s *checkScreen) FullHelp() [][]key.Binding {
	return [][]key.Binding{{s.quit}, s.c.Keys.scrolling()}
}

func (s *checkScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m, ok := msg.(pythonsMsg); ok {
		s.pyDone = true
		if p, ok := defaultPython(m.list); ok {
			s.py = &p
		}
		s.vp.SetContent(s.body())
		return s, s.judge()
	}
	if m, ok := msg.(channelsMsg); ok {
		s.sels[m.about] = &m
		s.vp.SetContent(s.body())
		return s, nil
	}
	if k, ok := msg.(tea.KeyMsg); ok && key.Matches(k, s.quit) {
		return s, tea.Quit
	}
	return s, scroll(&s.vp, msg)
}

func (s *checkScreen) body() string {
	st := s.c.Styles
	var b strings.Builder
	switch {
	case !s.pyDone:
		b.WriteString("  " + i18n.T("ui.check.looking_for_python") + "\n\n")
		return b.String()
	case s.py != nil:
		b.WriteString(st.Label.Render("Python ") + i18n.T("ui.check.python", i18n.D{"Version": s.py.Version, "Bits": s.py.Bits, "Path": s.py.Path}) + "\n")
		b.WriteString(st.Dim.Render(wrap("  "+i18n.T("ui.check.python_note"), s.w)) + "\n\n")
	default:
		b.WriteString(st.Warn.Render(wrap(i18n.T("ui.check.no_python"), s.w)) + "\n\n")
	}
	for _, f := range []string{"torch", "paddle"} {
		b.WriteString(st.Label.Render(app.FrameworkName(f)) + "\n")
		m := s.sels[f]
		switch {
		case m == nil:
			b.WriteString("  " + i18n.T("ui.check.reading_matrix") + "\n\n")
			continue
		case m.err != nil:
			b.WriteString("  " + st.Err.Render(m.err.Error()) + "\n\n")
			continue
		}
		if r := m.value.Recommended; r != nil {
			b.WriteString("  " + st.Recommend.Render(i18n.T("ui.check.recommended", i18n.D{"Mark": st.Star, "Framework": app.FrameworkName(f), "Version": r.FrameworkVersion, "Channel": r.Channel})) + "\n")
		} else {
			b.WriteString("  " + st.Warn.Render(i18n.T("ui.check.no_build")) + "\n")
		}
		byChannel := compatibleByChannel(m.value)
		for _, line := range byChannel {
			b.WriteString("  " + line + "\n")
		}
		for _, n := range m.value.Notes {
			b.WriteString(st.Dim.Render(wrap("  "+checkNote(s.c.OS, f, m.value, n), s.w)) + "\n")
		}
		b.WriteString("\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// compatibleByChannel lists, per channel, the versions that run here, newest first:
// "cu126  2.7.1 2.6.0". The channels keep the selection's order (the recommended one first).
func compatibleByChannel(sel app.Selection) []string {
	var order []string
	versions := map[string][]string{}
	for _, c := range sel.Candidates {
		if !c.Compatible {
			continue
		}
		if _, ok := versions[c.Channel]; !ok {
			order = append(order, c.Channel)
		}
		versions[c.Channel] = append(versions[c.Channel], c.FrameworkVersion)
	}
	out := make([]string, 0, len(order))
	for _, ch := range order {
		v := versions[ch]
		slices.SortStableFunc(v, newestFirst)
		if len(v) > 6 {
			v = append(v[:6:6], "...")
		}
		out = append(out, i18n.Pad(ch, 7)+" "+strings.Join(v, " "))
	}
	return out
}

// View keeps the way out in sight under the list, however long it is.
func (s *checkScreen) View() string {
	return vpView(s.vp, s.c.Styles) + "\n" + s.c.Styles.Dim.Render(i18n.T("ui.check.quit_hint"))
}

// checkNote is a selection's note as this screen says it: the note that an unverified build fits too
// points at that build's note in the channels table, which this screen does not show, so here it
// carries the note itself and the command that installs the build.
func checkNote(goos, framework string, sel app.Selection, n string) string {
	if !sel.IsAlsoFitsNote(n) {
		return n
	}
	c := sel.AlsoFits
	return i18n.T("ui.check.unverified_also_fits", i18n.D{"Framework": app.FrameworkName(framework), "Version": c.FrameworkVersion, "Channel": c.Channel,
		"Note": c.Note, "Command": shellquote.Command(goos, "gpuwiz", "install", "--framework", framework, "--framework-version", c.FrameworkVersion, "--channel", c.Channel)})
}
