package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

// sourcesChosenMsg is the source the install will use.
type sourcesChosenMsg struct{ source app.PackageSource }

// urlChooser is a screen that lists choices with a row under them for a URL the user types (the
// add-source and package-source screens): the cursor over both, the field, and the moving keys. On
// the URL row letters go into the field, so up and down answer their arrow keys alone there.
type urlChooser struct {
	frame
	choices                      func() int // how many choices stand above the URL row now
	cursor                       int        // over the choices, then the URL row
	input                        textinput.Model
	up, down, upArrow, downArrow key.Binding
	use                          key.Binding // enter: take the choice under the cursor
}

func newURLChooser(c *Common, prompt, placeholder string, choices func() int) urlChooser {
	k := c.Keys
	return urlChooser{frame: newFrame(c), choices: choices, input: textField(prompt, placeholder, 2048),
		up: relabel(k.Up, i18n.T("ui.key.up")), down: relabel(k.Down, i18n.T("ui.key.down")),
		upArrow: arrowOnly(k.Up, i18n.T("ui.key.up")), downArrow: arrowOnly(k.Down, i18n.T("ui.key.down")),
		use: relabel(k.Select, i18n.T("ui.key.use"))}
}

func (u *urlChooser) SetSize(w, h int) {
	u.w, u.h = w, h
	u.input.Width = max(w-i18n.Width(u.input.Prompt)-4, 10)
}

// Typing: on the URL row, letters (q, the package-source screen's r) go into the URL.
func (u *urlChooser) Typing() bool { return u.onInput() }

func (u *urlChooser) onInput() bool { return u.cursor == u.choices() }

// place puts the cursor on row i (held to the rows there are), the field focused on the URL row alone.
func (u *urlChooser) place(i int) {
	u.cursor = min(max(i, 0), u.choices())
	if u.onInput() {
		u.input.Focus()
	} else {
		u.input.Blur()
	}
}

// moveKeys are the moving keys that work now, for help.
func (u *urlChooser) moveKeys() []key.Binding {
	if u.onInput() {
		return []key.Binding{u.upArrow}
	}
	return []key.Binding{u.up, u.down}
}

// move answers up and down, and says whether k was one of them.
func (u *urlChooser) move(k tea.KeyMsg) bool {
	up, down := u.up, u.down
	if u.onInput() {
		up, down = u.upArrow, u.downArrow
	}
	switch {
	case key.Matches(k, up):
		u.place(u.cursor - 1)
	case key.Matches(k, down):
		u.place(u.cursor + 1)
	default:
		return false
	}
	return true
}

// urlRow is the URL row as shown, after indent: away from the field, a typed URL shows with its
// credentials hidden, as everywhere else.
func (u *urlChooser) urlRow(indent string) string {
	st := u.c.Styles
	cur, field := st.NoCursor, u.input.View()
	if u.onInput() {
		cur = st.Cursor
	} else if u.input.Value() != "" {
		field = u.input.PromptStyle.Render(u.input.Prompt) + u.input.TextStyle.Render(app.Redact(u.input.Value()))
	}
	return cur + indent + field + "\n"
}

// sourcesScreen chooses where packages come from: each candidate with what its check found, the
// fastest that has the build preselected, and a URL of the user's own.
type sourcesScreen struct {
	urlChooser       // over rows(): the sources, the custom one, then the URL entry
	req              app.SourcesRequest
	report           *app.SourcesReport
	err              error
	custom           *app.PackageSource // the checked URL the user typed
	checking         bool               // the list is being checked
	typedURL         string             // the URL being checked, "" when none
	notice           string
	confirm          int // the row on which enter was pressed once although it cannot be used; -1 none
	recheck, checkIt key.Binding
}

func newSourcesScreen(c *Common, req app.SourcesRequest) *sourcesScreen {
	s := &sourcesScreen{req: req, confirm: -1,
		recheck: relabel(c.Keys.Rerun, i18n.T("ui.key.recheck")), checkIt: relabel(c.Keys.Select, i18n.T("ui.key.check_it"))}
	s.urlChooser = newURLChooser(c, i18n.T("ui.sources.prompt"), i18n.T("ui.sources.placeholder"), func() int { return len(s.rows()) })
	return s
}

func (s *sourcesScreen) Init() tea.Cmd {
	if s.report != nil || s.checking {
		return nil
	}
	return s.check()
}

func (s *sourcesScreen) check() tea.Cmd {
	s.checking, s.err, s.notice, s.confirm = true, nil, "", -1
	req := s.req
	req.Custom = ""
	return sourcesCmd(s.id, s.c.Ctx, s.c.Backend, req)
}

func (s *sourcesScreen) checkURL(u string) tea.Cmd {
	s.typedURL, s.notice, s.confirm = u, "", -1
	req := s.req
	req.Custom = u
	return sourcesCmd(s.id, s.c.Ctx, s.c.Backend, req)
}

func (s *sourcesScreen) Title() string { return i18n.T("ui.sources.title") }

// ShortHelp lists the keys that work now: on the URL row the arrows alone (letters type).
func (s *sourcesScreen) ShortHelp() []key.Binding {
	if s.onInput() {
		return append(s.moveKeys(), s.checkIt)
	}
	keys := append(s.moveKeys(), s.use)
	if !s.checking {
		keys = append(keys, s.recheck)
	}
	return keys
}
func (s *sourcesScreen) FullHelp() [][]key.Binding { return [][]key.Binding{s.ShortHelp()} }

// rows are the sources as listed: the checked ones, then the URL the user typed.
func (s *sourcesScreen) rows() []app.PackageSource {
	var out []app.PackageSource
	if s.report != nil {
		out = append(out, s.report.Sources...)
	}
	if s.custom != nil {
		out = append(out, *s.custom)
	}
	return out
}

func (s *sourcesScreen) moveTo(i int) {
	s.place(i)
	s.confirm = -1
}

func (s *sourcesScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case sourcesMsg:
		if msg.about != "" {
			if msg.about != s.typedURL {
				return s, nil // an answer about a URL the user has since replaced
			}
			s.typedURL = ""
			if msg.err != nil {
				s.notice = msg.err.Error()
				return s, nil
			}
			if len(msg.value.Sources) > 0 {
				src := msg.value.Sources[0]
				s.custom = &src
				s.moveTo(len(s.rows()) - 1)
			}
			return s, nil
		}
		s.checking, s.err = false, msg.err
		if msg.err == nil {
			r := msg.value
			s.report = &r
			s.moveTo(max(r.Proposed, 0))
		}
		return s, nil
	case tea.KeyMsg:
		switch {
		case s.move(msg):
			s.confirm = -1
			return s, nil
		case key.Matches(msg, s.c.Keys.Select):
			return s, s.submit()
		case key.Matches(msg, s.recheck) && !s.onInput() && !s.checking:
			return s, s.check()
		}
		if s.onInput() {
			var cmd tea.Cmd
			s.input, cmd = s.input.Update(msg)
			return s, cmd
		}
	}
	return s, nil
}

func (s *sourcesScreen) submit() tea.Cmd {
	if s.onInput() {
		u := strings.TrimSpace(s.input.Value())
		if u == "" {
			s.notice = i18n.T("ui.sources.type_url")
			return nil
		}
		return s.checkURL(u)
	}
	rows := s.rows()
	if s.checking || s.cursor >= len(rows) {
		s.notice = i18n.T("ui.sources.still_checking")
		return nil
	}
	src := rows[s.cursor]
	if !src.Usable() && s.confirm != s.cursor {
		s.confirm = s.cursor
		s.notice = i18n.T("ui.sources.unusable", i18n.D{"Why": src.Why})
		return nil
	}
	return navigate(sourcesChosenMsg{src})
}

// status is a source's verdict in a few words.
func (s *sourcesScreen) status(p app.PackageSource) (string, func(...string) string) {
	st := s.c.Styles
	switch {
	case p.Usable() && p.WheelsFrom != "": // the page is the mirror's, the bytes another host's
		return i18n.T("ui.sources.elsewhere", i18n.D{"Millis": p.Millis}), st.Warn.Render
	case p.Usable():
		return i18n.T("ui.sources.has", i18n.D{"Mark": st.Pass, "Millis": p.Millis}), st.OK.Render
	case p.Answers:
		return i18n.T("ui.sources.lacks", i18n.D{"Mark": st.Fail, "Millis": p.Millis}), st.Warn.Render
	case p.TimedOut:
		return st.Fail + " " + i18n.T("ui.sources.too_slow"), st.Err.Render
	}
	return st.Fail + " " + i18n.T("ui.sources.no_answer"), st.Err.Render
}

func (s *sourcesScreen) View() string {
	st := s.c.Styles
	var b strings.Builder
	c := s.req.Candidate
	head := i18n.T("ui.sources.head", i18n.D{"Framework": app.FrameworkName(c.Framework), "Version": c.FrameworkVersion, "Channel": c.Channel})
	b.WriteString(st.Label.Render(wrap(head, s.w)) + "\n")
	switch {
	case s.err != nil:
		b.WriteString(st.Err.Render(wrap(i18n.T("ui.sources.check_failed", i18n.D{"Err": s.err.Error()}), s.w)) + "\n\n" + i18n.T("ui.sources.check_failed_hint") + "\n")
		return b.String()
	case s.report == nil:
		b.WriteString(i18n.T("ui.sources.checking_all") + "\n")
		return b.String()
	}
	r := s.report
	b.WriteString(st.Dim.Render(wrap(i18n.T("ui.sources.checked", i18n.D{"N": len(r.Sources), "Timeout": i18n.Left(r.Timeout), "Build": r.Build}), s.w)) + "\n\n")
	rows := s.rows()
	nameW := 0
	for _, p := range rows {
		nameW = max(nameW, ansi.StringWidth(p.Name))
	}
	nameW = min(nameW, max(s.w-30, 12))
	ellipsis := "…"
	if st.ASCII {
		ellipsis = "..."
	}
	cut := false // a row other than the cursor's is cut: the hint below says where the rest is
	for i, p := range rows {
		if i != s.cursor && (ansi.StringWidth(p.Name) > nameW || ansi.StringWidth("      "+p.Where) > s.w) {
			cut = true
		}
		cur := st.NoCursor
		if i == s.cursor {
			cur = st.Cursor
		}
		mark := "  "
		if i == r.Proposed {
			mark = st.Star + " "
		}
		name := ansi.Truncate(p.Name, nameW, ellipsis)
		name += strings.Repeat(" ", nameW-ansi.StringWidth(name))
		verdict, style := s.status(p)
		line := name + "  " + verdict
		switch {
		case i == s.cursor:
			line = st.Selected.Render(name) + "  " + style(verdict)
		case i == r.Proposed:
			line = st.Recommend.Render(name) + "  " + style(verdict)
		default:
			line = name + "  " + style(verdict)
		}
		b.WriteString(cur + mark + line + "\n")
		if i == s.cursor && ansi.StringWidth(p.Name) > nameW { // cut in the table: whole under it
			b.WriteString(st.Dim.Render(wrapHanging("      "+p.Name, s.w, "      ")) + "\n")
		}
		if i == s.cursor {
			b.WriteString(st.Dim.Render(wrapHanging("      "+p.Where, s.w, "        ")) + "\n")
		} else {
			b.WriteString(st.Dim.Render(ansi.Truncate("      "+p.Where, s.w, ellipsis)) + "\n")
		}
		if i == s.cursor {
			detail := p.Why
			if p.Usable() {
				detail = i18n.T("ui.sources.carries", i18n.D{"File": p.File})
			}
			parts := []string{detail}
			if p.Redirected != "" {
				parts = append(parts, i18n.T("ui.sources.redirected", i18n.D{"Host": p.Redirected}))
			}
			if p.WheelsFrom != "" {
				parts = append(parts, i18n.T("ui.sources.wheels_from", i18n.D{"Host": p.WheelsFrom}))
			}
			if p.Note != "" {
				parts = append(parts, p.Note)
			}
			detail = i18n.JoinClauses(parts)
			if detail != "" {
				b.WriteString(st.Dim.Render(wrapHanging("      "+detail, s.w, "      ")) + "\n")
			}
		}
	}
	b.WriteString(s.urlRow("  "))
	if s.typedURL != "" {
		b.WriteString(st.Dim.Render("      "+i18n.T("ui.sources.checking_url", i18n.D{"URL": app.Redact(s.typedURL)})) + "\n")
	}
	switch { // from what the checks found so far, the typed URL's included
	case r.Proposed >= 0:
		b.WriteString("\n" + wrap(i18n.T("ui.sources.fastest", i18n.D{"Star": st.Star}), s.w) + "\n")
	case s.custom != nil && s.custom.Usable():
		b.WriteString("\n" + st.OK.Render(wrap(i18n.T("ui.sources.custom_has"), s.w)) + "\n")
	default:
		b.WriteString("\n" + st.Warn.Render(wrap(i18n.T("ui.sources.none"), s.w)) + "\n")
	}
	if s.notice != "" {
		b.WriteString(st.Warn.Render(wrap(s.notice, s.w)) + "\n")
	}
	if cut && s.notice == "" { // a notice, when there is one, matters more than the hint
		b.WriteString(st.Dim.Render(wrap(i18n.T("ui.sources.cut_hint", i18n.D{"Mark": ellipsis}), s.w)) + "\n")
	}
	return b.String()
}
