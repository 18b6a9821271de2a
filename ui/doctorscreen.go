package ui

import (
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

// doctorScreen runs doctor on the chosen venv and lists the findings, most severe first.
type doctorScreen struct {
	askPane
	venv     string
	report   *app.Diagnosis
	findings []app.Finding // the report's findings, the most severe first
	repair   key.Binding
}

func newDoctorScreen(c *Common, venv string) *doctorScreen {
	return &doctorScreen{askPane: newAskPane(c, i18n.T("ui.doctor.key_again")), venv: venv, repair: relabel(c.Keys.Select, i18n.T("ui.doctor.key_repair"))}
}

func (s *doctorScreen) Init() tea.Cmd {
	if s.report != nil {
		return nil
	}
	return tea.Batch(s.spin.tick(), doctorCmd(s.id, s.c.Ctx, s.c.Backend, s.venv))
}

func (s *doctorScreen) Title() string { return i18n.T("ui.doctor.title") }
func (s *doctorScreen) SetSize(w, h int) {
	s.resize(w, h, 2) // the "more" line and the plan line below
	s.refresh()
}

// problems: the findings that block or threaten the build; the rest (info) is context, which
// no repair changes.
func (s *doctorScreen) problems() int {
	n := 0
	if s.report != nil {
		for _, f := range s.findings {
			if !isContext(f) {
				n++
			}
		}
	}
	return n
}

// isContext: the finding changes nothing about the build (doctor's info severity).
func isContext(f app.Finding) bool { return strings.EqualFold(string(f.Severity), "info") }

func (s *doctorScreen) ShortHelp() []key.Binding {
	var out []key.Binding
	if s.problems() > 0 {
		out = append(out, s.repair)
	}
	if s.report != nil || s.err != nil {
		out = append(out, s.again)
	}
	return out
}
func (s *doctorScreen) FullHelp() [][]key.Binding {
	return [][]key.Binding{s.ShortHelp(), s.c.Keys.scrolling()}
}

var severityRank = map[string]int{"critical": 0, "error": 1, "warning": 2, "warn": 2, "info": 3}

func rankOf(sev string) int {
	if r, ok := severityRank[strings.ToLower(sev)]; ok {
		return r
	}
	return 4
}

func (s *doctorScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case doctorMsg:
		s.err = msg.err
		if msg.err == nil {
			f := append([]app.Finding(nil), msg.value.Report.Findings...)
			sort.SliceStable(f, func(i, j int) bool { return rankOf(string(f[i].Severity)) < rankOf(string(f[j].Severity)) })
			s.report, s.findings = msg.value, f
		}
		s.refresh()
		return s, nil
	case tea.KeyMsg:
		if key.Matches(msg, s.repair) && s.problems() > 0 {
			return s, navigate(doctorFinishMsg{s.report})
		}
	}
	return s, s.update(msg, s.report != nil, func() tea.Cmd { s.report = nil; return s.Init() })
}

func (s *doctorScreen) refresh() {
	if s.report == nil {
		return
	}
	st := s.c.Styles
	var b strings.Builder
	if s.problems() == 0 {
		// Only context: the verdict first, then what doctor saw, none of it a problem.
		b.WriteString(st.OK.Render(wrap(st.Pass+" "+i18n.T("ui.doctor.no_problem", i18n.D{"Venv": s.venv}), s.w)) + "\n\n")
		b.WriteString(st.Label.Render(wrap(i18n.T("ui.doctor.context"), s.w)) + "\n")
	}
	for _, f := range s.findings {
		style := st.Warn
		if rankOf(string(f.Severity)) <= 1 {
			style = st.Err
		}
		head := style.Render(severityWord(string(f.Severity)))
		if !i18n.IsChinese() { // the code is a tag to search for; a Chinese screen names the finding in words only
			head += " " + st.Dim.Render("["+f.Code+"]")
		}
		b.WriteString(head + "\n")
		b.WriteString(st.Label.Render(wrap("  "+f.Title, s.w)) + "\n")
		for _, e := range strings.Split(strings.Join(f.Evidence, "\n"), "\n") {
			if e != "" {
				b.WriteString(st.Dim.Render(wrap("    "+i18n.T("ui.doctor.saw", i18n.D{"Evidence": e}), s.w)) + "\n")
			}
		}
		if f.Fix != "" {
			b.WriteString(wrap("    "+i18n.T("ui.doctor.fix", i18n.D{"Fix": f.Fix}), s.w) + "\n")
		}
	}
	s.vp.SetContent(b.String())
}

func (s *doctorScreen) View() string {
	st := s.c.Styles
	switch {
	case s.err != nil:
		return s.failed(i18n.T("ui.doctor.error", i18n.D{"Err": s.err.Error()}), i18n.T("ui.doctor.error_hint"))
	case s.report == nil:
		return s.spin.view() + " " + i18n.T("ui.doctor.examining", i18n.D{"Venv": s.venv})
	case len(s.findings) == 0:
		return st.OK.Render(st.Pass+" "+i18n.T("ui.doctor.no_problem", i18n.D{"Venv": s.venv})) + "\n\n" + i18n.T("ui.doctor.no_problem_keys")
	case s.problems() == 0:
		return vpView(s.vp, st) + "\n" + i18n.T("ui.doctor.no_problem_keys")
	}
	return vpView(s.vp, st) + "\n" + st.Selected.Render(i18n.T("ui.doctor.see_plan"))
}

// severityWord is a finding's severity as the screen shows it; the code in brackets beside it
// stays as doctor --json has it.
func severityWord(sev string) string {
	switch strings.ToLower(sev) {
	case "critical":
		return i18n.T("ui.doctor.severity_critical")
	case "error":
		return i18n.T("ui.doctor.severity_error")
	case "warning":
		return i18n.T("ui.doctor.severity_warning")
	case "warn":
		return i18n.T("ui.doctor.severity_warn")
	case "info":
		return i18n.T("ui.doctor.severity_info")
	}
	return strings.ToUpper(sev)
}
