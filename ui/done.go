package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
)

// doneScreen says what was done, how to activate the venv and where the log and lock file are.
type doneScreen struct {
	c    *Common
	id   screenID
	ch   choices
	act  Activation
	vp   viewport.Model
	quit key.Binding // enter quits too
	w, h int
}

func newDoneScreen(c *Common, ch choices) *doneScreen {
	return &doneScreen{c: c, id: c.newID(), ch: ch, vp: c.newViewport(), quit: relabel(c.Keys.Select, "quit")}
}

func (s *doneScreen) Init() tea.Cmd {
	if s.ch.venv == "" {
		return nil
	}
	return activationCmd(s.id, s.c.Backend, s.ch.venv)
}

func (s *doneScreen) ident() screenID { return s.id }
func (s *doneScreen) Title() string   { return "Done" }
func (s *doneScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	s.vp.Width, s.vp.Height = w, max(h, 1)
	s.vp.SetContent(s.body())
}
func (s *doneScreen) ShortHelp() []key.Binding {
	k := s.c.Keys
	return []key.Binding{s.quit, k.Up, k.Down}
}
func (s *doneScreen) FullHelp() [][]key.Binding {
	k := s.c.Keys
	return [][]key.Binding{{s.quit}, {k.Up, k.Down, k.PageUp, k.PageDown}}
}

func (s *doneScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if a, ok := msg.(activationMsg); ok {
		s.act = a.act
		s.vp.SetContent(s.body())
		return s, nil
	}
	if k, ok := msg.(tea.KeyMsg); ok && key.Matches(k, s.quit) {
		return s, tea.Quit
	}
	var cmd tea.Cmd
	s.vp, cmd = s.vp.Update(msg)
	return s, cmd
}

func (s *doneScreen) body() string {
	st := s.c.Styles
	var b strings.Builder
	o := s.ch.outcome
	ok := o != nil && o.OK && (s.ch.verify == nil || s.ch.verify.OK)
	switch {
	case o == nil:
		b.WriteString("Nothing was changed.\n")
	case ok:
		what := "The environment is ready"
		if c := s.ch.candidate; c != nil {
			what = fmt.Sprintf("%s %s (%s) is installed and verified", frameworkName(c.Framework), c.FrameworkVersion, c.Channel)
		}
		b.WriteString(st.OK.Render(st.Pass+" "+what) + "\n")
	case o.OK:
		b.WriteString(st.Err.Render(st.Fail+" Installed, but verification failed: run gpuwiz doctor --venv "+s.ch.venv) + "\n")
	default:
		b.WriteString(st.Err.Render(st.Fail+" "+failureHeadline(o.Result)) + "\n")
		if o.Err != nil {
			b.WriteString(wrap(o.Err.Error(), s.w) + "\n")
		}
		switch {
		case o.VenvRemoved:
			b.WriteString("Nothing is left of it: the venv this run had created was removed again.\n")
		case o.Result == "unchanged":
			b.WriteString("Nothing was removed or installed: the environment is as it was.\n")
		case o.Restored:
			b.WriteString("The environment was restored to what it held before.\n")
		default:
			b.WriteString(st.Warn.Render("The environment still differs from before the install: run gpuwiz doctor --venv "+s.ch.venv) + "\n")
			for _, l := range o.Leftovers {
				b.WriteString(wrap("  "+l.What+" "+l.Path, s.w) + "\n" + st.Code.Render(wrap("    "+l.Clear, s.w)) + "\n")
			}
		}
	}
	if s.ch.venv != "" && (o == nil || !o.VenvRemoved) {
		b.WriteString("\n" + st.Label.Render("venv ") + s.ch.venv + "\n")
	}
	if (o == nil || o.OK) && (s.act.PowerShell != "" || s.act.Cmd != "" || s.act.Posix != "") {
		b.WriteString("\n" + st.Label.Render("Activate it") + "\n")
		if s.act.PowerShell != "" {
			b.WriteString("  PowerShell  " + st.Code.Render(s.act.PowerShell) + "\n")
			b.WriteString(st.Dim.Render(wrap("    If PowerShell says running scripts is disabled, allow it for you once: Set-ExecutionPolicy -Scope CurrentUser RemoteSigned", s.w)) + "\n")
		}
		if s.act.Cmd != "" {
			b.WriteString("  cmd         " + st.Code.Render(s.act.Cmd) + "\n")
		}
		if s.act.Posix != "" {
			b.WriteString("  bash/zsh    " + st.Code.Render(s.act.Posix) + "\n")
		}
	}
	if o != nil {
		if o.LockFile != "" {
			b.WriteString("\n" + st.Label.Render("lock file   ") + o.LockFile + "\n")
			b.WriteString(st.Dim.Render(wrap("  pip install -r requirements.txt -c this file keeps later installs from replacing the GPU build", s.w)) + "\n")
		}
		if o.ConstraintsFile != "" {
			b.WriteString(st.Label.Render("constraints ") + o.ConstraintsFile + "\n")
		}
		if o.LogPath != "" {
			b.WriteString(st.Label.Render("log         ") + o.LogPath + "\n")
		}
	}
	b.WriteString("\n" + st.Dim.Render("q or enter to quit."))
	return b.String()
}

func (s *doneScreen) View() string { return s.vp.View() }

// failureHeadline says in words how an install that did not succeed ended.
func failureHeadline(result string) string {
	switch result {
	case "cancelled", "interrupted":
		return "Cancelled"
	case "unchanged":
		return "Install failed; nothing changed"
	case "restored":
		return "Install failed; the previous packages are back"
	case "damaged":
		return "Install failed, and the venv is damaged: see what is left below"
	case "":
		return "Stopped"
	}
	return "Install " + result
}
