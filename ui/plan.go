package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

// planScreen shows exactly what will run; nothing runs until the user confirms.
type planScreen struct {
	pane
	req    app.PlanRequest
	doctor *app.Diagnosis // the repair journey: the plan fixes these findings
	plan   *app.Plan
	err    error
	keys   struct{ yes, enter key.Binding }
}

func newPlanScreen(c *Common, req app.PlanRequest, doctor *app.Diagnosis) *planScreen {
	s := &planScreen{pane: newPane(c), req: req, doctor: doctor}
	s.keys.yes, s.keys.enter = relabel(c.Keys.Confirm, i18n.T("ui.plan.key_run")), relabel(c.Keys.Select, i18n.T("ui.plan.key_run"))
	return s
}

func (s *planScreen) Init() tea.Cmd {
	if s.plan != nil {
		return nil
	}
	if s.doctor != nil {
		return repairPlanCmd(s.id, s.c.Ctx, s.c.Backend, s.req.Venv, s.doctor)
	}
	return planCmd(s.id, s.c.Ctx, s.c.Backend, s.req)
}

func (s *planScreen) Title() string { return i18n.T("ui.plan.title") }
func (s *planScreen) SetSize(w, h int) {
	s.resize(w, h, 2) // the "more" line and the confirm line below
	s.refresh()
}
func (s *planScreen) runnable() bool { return s.plan != nil && len(s.plan.Steps) > 0 }

func (s *planScreen) ShortHelp() []key.Binding {
	k := s.c.Keys
	if !s.runnable() {
		return []key.Binding{k.Up, k.Down}
	}
	return []key.Binding{s.keys.yes, k.Up, k.Down}
}
func (s *planScreen) FullHelp() [][]key.Binding {
	if !s.runnable() {
		return [][]key.Binding{s.c.Keys.scrolling()}
	}
	return [][]key.Binding{{s.keys.yes, s.keys.enter}, s.c.Keys.scrolling()}
}

func (s *planScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case planMsg:
		s.plan, s.err = answer(msg.value, msg.err)
		s.refresh()
		return s, nil
	case tea.KeyMsg:
		if key.Matches(msg, s.keys.yes, s.keys.enter) && s.runnable() {
			return s, navigate(planConfirmedMsg{*s.plan})
		}
	}
	return s, scroll(&s.vp, msg)
}

func (s *planScreen) refresh() {
	if s.plan == nil {
		return
	}
	s.vp.SetContent(cutLines(s.body(), s.w, ellipsis(s.c.Styles)))
}

func (s *planScreen) body() string {
	st := s.c.Styles
	p := s.plan
	var b strings.Builder
	section := func(title string, items []string, style func(...string) string) {
		if len(items) == 0 {
			return
		}
		b.WriteString(st.Label.Render(title) + "\n")
		for _, it := range items {
			b.WriteString(style(wrapHanging("  "+app.Redact(it), s.w, "      ")) + "\n")
		}
	}
	if s.doctor != nil && len(s.doctor.Report.Findings) == 0 {
		b.WriteString(st.OK.Render(i18n.T("ui.plan.nothing_to_repair")) + "\n")
	}
	// "venv" and "build" line up: their values start one column after the wider label.
	venvLabel, buildLabel := i18n.T("ui.plan.label_venv"), i18n.T("ui.plan.label_build")
	col := max(i18n.Width(venvLabel), i18n.Width(buildLabel)) + 1
	if p.Venv != "" {
		b.WriteString(st.Label.Render(i18n.Pad(venvLabel, col)) + p.Venv + "\n")
	}
	if p.Candidate.Framework != "" {
		c := p.Candidate
		b.WriteString(st.Label.Render(i18n.Pad(buildLabel, col)) + i18n.T("ui.plan.build", i18n.D{"Framework": app.FrameworkName(c.Framework),
			"Version": c.FrameworkVersion, "Channel": c.Channel, "URL": app.Redact(c.IndexURL)}) + "\n")
	}
	if s.req.Source != "" {
		b.WriteString(wrapHanging(st.Label.Render(i18n.T("ui.plan.label_source")+" ")+app.Redact(s.req.Source), s.w, "      ") + "\n")
	}
	if p.DownloadBytes > 0 {
		b.WriteString(st.Label.Render(i18n.T("ui.plan.label_download")+" ") + i18n.T("ui.plan.download_size", i18n.D{"Size": i18n.Size(p.DownloadBytes)}) + "\n")
	}
	section(i18n.T("ui.plan.to_remove"), p.Uninstall, st.Err.Render)
	section(i18n.T("ui.plan.to_install"), p.Install, st.OK.Render)
	section(i18n.T("ui.plan.commands"), commandLines(*p), st.Code.Render)
	section(i18n.T("ui.plan.warnings"), planWarnings(*p), st.Warn.Render)
	section(i18n.T("ui.plan.notes"), p.Notes, st.Dim.Render)
	return b.String()
}

func (s *planScreen) View() string {
	st := s.c.Styles
	switch {
	case s.err != nil:
		return s.failed(i18n.T("ui.plan.error", i18n.D{"Err": s.err.Error()}), i18n.T("ui.plan.error_hint"))
	case s.plan == nil:
		return i18n.T("ui.plan.working")
	case len(s.plan.Steps) == 0:
		return vpView(s.vp, st) + "\n" + st.Dim.Render(i18n.T("ui.plan.nothing_to_do"))
	}
	return vpView(s.vp, st) + "\n" + st.Selected.Render(i18n.T("ui.plan.confirm")) + st.Dim.Render(" "+i18n.T("ui.plan.nothing_changed_yet"))
}

// notServedText is the refusal of a build the index does not serve, with the next-best build it
// serves when there is one.
func notServedText(c app.IndexCheck) string {
	v := c.Verdict
	if n := v.NextBest; n != nil {
		return i18n.T("ui.backend.not_served_next_best", i18n.D{"Reason": v.Reason(), "Framework": app.FrameworkName(v.Framework), "Version": v.Version, "Channel": v.Channel,
			"NextVersion": n.FrameworkVersion, "NextChannel": n.Channel})
	}
	return i18n.T("ui.backend.not_served", i18n.D{"Reason": v.Message()})
}

// indexNote is the plan's note on an index that could not be read ("" when there is none).
func indexNote(c app.IndexCheck) string {
	if c.CouldNotLook() {
		return i18n.T("ui.backend.could_not_look", i18n.D{"Reason": c.Verdict.Reason()})
	}
	return ""
}
