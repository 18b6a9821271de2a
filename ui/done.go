package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/shellquote"
)

// doneScreen says what was done, how to activate the venv and where the log and lock file are.
type doneScreen struct {
	pane
	ch   choices
	act  []app.Activation
	quit key.Binding // enter quits too
}

func newDoneScreen(c *Common, ch choices) *doneScreen {
	return &doneScreen{pane: newPane(c), ch: ch, quit: relabel(c.Keys.Select, i18n.T("ui.done.key_quit"))}
}

// canAdd: the environment is installed and verified, so the project's requirements can go in next.
func (s *doneScreen) canAdd() bool {
	o := s.ch.outcome
	return s.ch.venv != "" && o != nil && o.OK && o.LockFile != "" && (s.ch.verify == nil || s.ch.verify.OK)
}

func (s *doneScreen) Init() tea.Cmd {
	if s.ch.venv == "" {
		return nil
	}
	return activationCmd(s.id, s.c.Backend, s.ch.venv)
}

func (s *doneScreen) Title() string { return i18n.T("ui.done.title") }
func (s *doneScreen) SetSize(w, h int) {
	s.w = w                                       // the footer wraps to it
	s.resize(w, h, 1+lipgloss.Height(s.footer())) // the "more" line and the footer below
	s.vp.SetContent(s.body())
}
func (s *doneScreen) ShortHelp() []key.Binding {
	k := s.c.Keys
	if s.canAdd() {
		return []key.Binding{k.Add, s.quit, k.Up, k.Down}
	}
	return []key.Binding{s.quit, k.Up, k.Down}
}
func (s *doneScreen) FullHelp() [][]key.Binding {
	k := s.c.Keys
	if s.canAdd() {
		return [][]key.Binding{{k.Add, s.quit}, k.scrolling()}
	}
	return [][]key.Binding{{s.quit}, k.scrolling()}
}

func (s *doneScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if a, ok := msg.(activationMsg); ok {
		s.act = a.value
		s.vp.SetContent(s.body())
		return s, nil
	}
	if k, ok := msg.(tea.KeyMsg); ok && key.Matches(k, s.quit) {
		return s, tea.Quit
	}
	if k, ok := msg.(tea.KeyMsg); ok && key.Matches(k, s.c.Keys.Add) && s.canAdd() {
		return s, navigate(addRequestMsg{})
	}
	return s, scroll(&s.vp, msg)
}

func (s *doneScreen) body() string {
	st := s.c.Styles
	var b strings.Builder
	o := s.ch.outcome
	ok := o != nil && o.OK && (s.ch.verify == nil || s.ch.verify.OK)
	switch {
	case o == nil:
		b.WriteString(i18n.T("ui.done.nothing_changed") + "\n")
	case ok:
		what := i18n.T("ui.done.ready")
		if c := s.ch.candidate; c != nil {
			what = i18n.T("ui.done.installed", i18n.D{"Framework": app.FrameworkName(c.Framework), "Version": c.FrameworkVersion, "Channel": c.Channel})
		}
		if s.ch.journey == JourneyRepair {
			what = i18n.T("ui.done.repaired")
			if c := s.ch.candidate; c != nil {
				what = i18n.T("ui.done.repaired_build", i18n.D{"Framework": app.FrameworkName(c.Framework), "Version": c.FrameworkVersion, "Channel": c.Channel})
			}
		}
		b.WriteString(st.OK.Render(wrapHanging(st.Pass+" "+what, s.w, "  ")) + "\n")
		if v := s.ch.verify; v != nil {
			// What doctor saw that changes nothing about the build: listed, never a ✗.
			for _, c := range v.Context {
				b.WriteString(wrapHanging("  "+st.Bullet+" "+i18n.T("ui.done.context", i18n.D{"Title": c.Title}), s.w, "    ") + "\n")
				if c.Fix != "" {
					b.WriteString(st.Dim.Render(wrapHanging("    "+c.Fix, s.w, "    ")) + "\n")
				}
			}
		}
	case o.OK && s.ch.journey == JourneyRepair:
		// Doctor has just run again: sending the user back to doctor would be a loop. What is left,
		// each with its fix, is what to do next.
		b.WriteString(st.Err.Render(wrap(st.Fail+" "+i18n.T("ui.done.repair_left"), s.w)) + "\n")
		for _, c := range s.ch.verify.Checks {
			if c.OK {
				continue
			}
			b.WriteString(wrapHanging("  "+st.Fail+" "+checkTitle(c), s.w, "    ") + "\n")
			if c.Fix != "" {
				b.WriteString(st.Dim.Render(wrapHanging("    "+i18n.T("ui.done.fix", i18n.D{"Fix": c.Fix}), s.w, "    ")) + "\n")
			}
		}
	case o.OK:
		b.WriteString(st.Err.Render(wrapHanging(st.Fail+" "+i18n.T("ui.done.verify_failed", i18n.D{"Venv": shellquote.Command(s.c.OS, s.ch.venv)}), s.w, "  ")) + "\n")
	default:
		b.WriteString(st.Err.Render(st.Fail+" "+failureHeadline(o.Result)) + "\n")
		if o.Err != nil {
			b.WriteString(wrap(o.Err.Error(), s.w) + "\n")
		}
		switch {
		case o.VenvRemoved:
			b.WriteString(i18n.T("ui.done.venv_removed") + "\n")
		case o.Unchanged || o.Result == app.Unchanged:
			b.WriteString(i18n.T("ui.done.unchanged") + "\n")
		case o.Restored:
			b.WriteString(i18n.T("ui.done.restored") + "\n")
		default:
			b.WriteString(st.Warn.Render(i18n.T("ui.done.differs", i18n.D{"Venv": shellquote.Command(s.c.OS, s.ch.venv)})) + "\n")
			for _, l := range o.Leftovers {
				b.WriteString(wrap("  "+l.What+" "+l.Path, s.w) + "\n" + st.Code.Render(wrap("    "+l.Clear, s.w)) + "\n")
			}
		}
	}
	if o != nil {
		for _, x := range o.Outside {
			b.WriteString(st.Warn.Render(wrap(i18n.N("install.own.outside", len(x.Paths), i18n.D{"Dist": x.Dist}), s.w)) + "\n")
			for i, p := range x.Paths {
				if i == 3 {
					b.WriteString(st.Dim.Render(wrap("  "+i18n.T("doctor.files_missing.more", i18n.D{"Files": "…", "More": len(x.Paths) - 3}), s.w)) + "\n")
					break
				}
				b.WriteString(st.Dim.Render(wrap("  "+p, s.w)) + "\n")
			}
		}
	}
	if s.ch.venv != "" && (o == nil || !o.VenvRemoved) {
		lv := i18n.T("ui.done.label_venv") + " "
		if o != nil && o.NotVenv {
			lv = i18n.T("ui.done.label_env") + " "
		}
		b.WriteString("\n" + labelled(st.Label, lipgloss.NewStyle(), lv, i18n.Width(lv), s.ch.venv, s.w) + "\n")
	}
	if (o == nil || o.OK) && len(s.act) > 0 {
		b.WriteString("\n" + st.Label.Render(i18n.T("ui.done.activate")) + "\n")
		shell := func(name, cmd string) string { // "  bash/zsh    source …", a long command wrapped under itself
			return "  " + labelled(lipgloss.NewStyle(), st.Code, name, 12, cmd, s.w-2) + "\n"
		}
		if c := activationIn(s.act, app.ShellConda); c != "" {
			b.WriteString(shell("conda", c))
		}
		if c := activationIn(s.act, app.ShellPowerShell); c != "" {
			b.WriteString(shell("PowerShell", c))
			b.WriteString(st.Dim.Render(wrap("    "+i18n.T("ui.done.execution_policy"), s.w)) + "\n")
		}
		if c := activationIn(s.act, app.ShellCmd); c != "" {
			b.WriteString(shell("cmd", c))
		}
		if c := activationIn(s.act, app.ShellPosix); c != "" {
			b.WriteString(shell("bash/zsh", c))
		}
	}
	if o != nil {
		// The three labels line up: their values start one column after the widest.
		lock, cons, log := i18n.T("ui.done.label_lock"), i18n.T("ui.done.label_constraints"), i18n.T("ui.done.label_log")
		col := max(i18n.Width(lock), i18n.Width(cons), i18n.Width(log)) + 1
		if o.LockFile != "" {
			b.WriteString("\n" + labelled(st.Label, lipgloss.NewStyle(), lock, col, o.LockFile, s.w) + "\n")
		}
		if o.ConstraintsFile != "" {
			b.WriteString(labelled(st.Label, lipgloss.NewStyle(), cons, col, o.ConstraintsFile, s.w) + "\n")
		}
		switch {
		case o.LockFile != "" && (ok || o.Protected != ""):
			b.WriteString(protectionText(s.c, s.ch.venv, o, s.w))
		case o.LockFile != "" && o.OK:
			// Verification failed: the venv does not hold on to this build, and nothing says it does.
			notKept := i18n.T("ui.done.not_kept")
			if o.NotVenv {
				notKept = i18n.T("ui.done.not_kept_env")
			}
			b.WriteString(st.Dim.Render(wrapHanging("  "+notKept, s.w, "  ")) + "\n")
		}
		if o.LogPath != "" {
			b.WriteString(labelled(st.Label, lipgloss.NewStyle(), log, col, o.LogPath, s.w) + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// footer stays in sight under the body, however long the body is: the next step (a, add the
// project's packages) when there is one, and the way out.
func (s *doneScreen) footer() string {
	st := s.c.Styles
	quit := st.Dim.Render(i18n.T("ui.done.quit_hint"))
	if s.canAdd() {
		return st.Selected.Render(wrapHanging(i18n.T("ui.done.add_hint"), s.w, "  ")) + "\n" + quit
	}
	return quit
}

// protectionText says the venv now keeps its build by itself (the pip configuration file that names
// the constraints) and how to give it back to plain pip; without the protection, the -c way.
func protectionText(c *Common, venv string, o *app.Outcome, w int) string {
	st := c.Styles
	if o.Protected == "" {
		return st.Dim.Render(wrap("  "+i18n.T("ui.done.lock_hint"), w)) + "\n"
	}
	off := shellquote.Command(c.OS, "gpuwiz", "protect", "--off", "--venv", venv)
	protected := i18n.T("ui.done.protected", i18n.D{"File": o.Protected})
	if o.NotVenv {
		protected = i18n.T("ui.done.protected_env", i18n.D{"File": o.Protected})
	}
	return st.Dim.Render(wrapHanging("  "+protected, w, "  ")) + "\n" +
		st.Dim.Render(wrapHanging("  "+i18n.T("ui.done.protect_off", i18n.D{"Command": off}), w, "    ")) + "\n"
}

func (s *doneScreen) View() string {
	return vpView(s.vp, s.c.Styles) + "\n" + s.footer()
}

// failureHeadline says in words how an install that did not succeed ended.
func failureHeadline(result app.Result) string {
	switch result {
	case app.Cancelled, app.Interrupted:
		return i18n.T("ui.done.headline_cancelled")
	case app.Unchanged:
		return i18n.T("ui.done.headline_unchanged")
	case app.Restored:
		return i18n.T("ui.done.headline_restored")
	case app.Damaged:
		return i18n.T("ui.done.headline_damaged")
	case "":
		return i18n.T("ui.done.headline_stopped")
	case app.Failed:
		return i18n.T("ui.done.headline_failed")
	case app.RepairFailed:
		return i18n.T("ui.done.headline_repair_failed")
	}
	return i18n.T("ui.done.headline_other", i18n.D{"Result": result})
}

// labelled is "label  value" with the label padded to col columns and a value wider than the rest of
// the line (a path, a command to copy) broken at the width, never cut, its lines under its first:
// every character stays as it is.
func labelled(labelStyle, valueStyle lipgloss.Style, label string, col int, value string, w int) string {
	lines := strings.Split(ansi.Hardwrap(value, max(w-col, 10), true), "\n")
	for i := range lines {
		lines[i] = valueStyle.Render(lines[i])
	}
	return labelStyle.Render(i18n.Pad(label, col)) + strings.Join(lines, "\n"+strings.Repeat(" ", col))
}

// activationIn is the command that enters the environment from shell ("" when there is none).
func activationIn(acts []app.Activation, shell string) string {
	for _, a := range acts {
		if a.Shell == shell {
			return a.Command
		}
	}
	return ""
}
