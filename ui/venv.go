package ui

import (
	"cmp"
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

// venvScreen picks the Python and the venv path (validated as you type). When changing or repairing
// an environment it picks the existing venv instead, and shows what it holds.
type venvScreen struct {
	frame
	journey   Journey
	framework string
	pythons   []app.Interpreter
	pyErr     error
	pyLoaded  bool
	cursor    int
	input     textinput.Model
	check     *app.PathCheck
	info      *app.VenvInfo
	infoErr   error
	inspected string
	notice    string
	pending   bool      // enter was pressed while an answer was still coming: submit when it arrives
	fit       *buildFit // the build a new venv's Python must run; nil: no build chosen yet
	verdict   []string  // per entry of pythons, why it cannot run the build ("" when it can)
	// offer is how to get a Python when none fits; offered: its sentence was shown (enter again installs).
	offer      *app.PythonOffer
	offered    bool
	installing bool
	noticeCmd  string // a command shown under the notice on a line of its own, to copy
	// up and down move between Pythons on their arrow keys only: k and j type into the path
	up, down key.Binding
	// known: changing or repairing, the venvs gpuwiz knows, offered before a typed path; pickUp and
	// pickDown move in it (arrows only, as for the Pythons)
	known            venvList
	pickUp, pickDown key.Binding
}

func newVenvScreen(c *Common, j Journey, framework string) *venvScreen {
	in := textinput.New()
	in.Prompt = i18n.T("ui.venv.prompt")
	if j != JourneyNew {
		in.Prompt = i18n.T("ui.venv.prompt.existing")
	}
	in.CharLimit = 1024
	in.Focus()
	in.Cursor.SetMode(cursor.CursorStatic) // no blink: fewer frames, stable goldens
	if j == JourneyNew {
		in.SetValue(defaultVenv(framework))
		in.CursorEnd()
	} else {
		in.Placeholder = i18n.T("ui.venv.placeholder")
	}
	return &venvScreen{frame: newFrame(c), journey: j, framework: framework, input: in,
		up: arrowOnly(c.Keys.Up, i18n.T("ui.key.python")), down: arrowOnly(c.Keys.Down, i18n.T("ui.key.python")),
		pickUp: arrowOnly(c.Keys.Up, i18n.T("ui.key.venv")), pickDown: arrowOnly(c.Keys.Down, i18n.T("ui.key.venv"))}
}

func (s *venvScreen) existing() bool { return s.journey != JourneyNew }

// typed is the path the user typed, "" when it is still the default (venv-torch after a switch to
// Paddle is venv-paddle again).
func (s *venvScreen) typed() string {
	if v := s.input.Value(); v != defaultVenv(s.framework) {
		return v
	}
	return ""
}

// defaultVenv is the path a new venv's screen offers for framework.
func defaultVenv(framework string) string { return "venv-" + framework }

func (s *venvScreen) Init() tea.Cmd {
	var cmds []tea.Cmd
	if !s.pyLoaded { // an existing env's screen lists the conda envs found
		cmds = append(cmds, pythonsCmd(s.id, s.c.Ctx, s.c.Backend, s.fit))
	}
	if s.existing() && !s.known.loaded {
		cmds = append(cmds, knownVenvsCmd(s.id, s.c.Ctx, s.c.Backend))
	}
	if s.input.Value() != "" {
		cmds = append(cmds, s.recheck())
	}
	return tea.Batch(cmds...)
}

func (s *venvScreen) Title() string {
	if s.existing() {
		return i18n.T("ui.venv.title.existing")
	}
	return i18n.T("ui.venv.title.new")
}
func (s *venvScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	s.input.Width = max(w-i18n.Width(s.input.Prompt)-2, 10)
}
func (s *venvScreen) Typing() bool { return true }
func (s *venvScreen) ShortHelp() []key.Binding {
	if s.existing() && len(s.known.items) > 1 {
		return []key.Binding{s.pickUp, s.pickDown, s.c.Keys.Select}
	}
	if s.existing() || len(s.pythons) < 2 {
		return []key.Binding{s.c.Keys.Select}
	}
	return []key.Binding{s.up, s.down, s.c.Keys.Select}
}
func (s *venvScreen) FullHelp() [][]key.Binding { return [][]key.Binding{s.ShortHelp()} }

func (s *venvScreen) recheck() tea.Cmd {
	s.check, s.info, s.infoErr, s.notice, s.pending, s.noticeCmd = nil, nil, nil, "", false, ""
	return venvCheckCmd(s.id, s.c.Backend, s.c.Paths, s.input.Value())
}

func (s *venvScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case pythonInstalledMsg:
		s.installing, s.offered = false, false
		if msg.err != nil {
			s.notice = i18n.T("ui.venv.python_failed", i18n.D{"Err": msg.err.Error()})
			return s, nil
		}
		s.notice = i18n.T("ui.venv.python_installed", i18n.D{"Version": msg.in.Version, "Path": msg.in.Path})
		return s, pythonsCmd(s.id, s.c.Ctx, s.c.Backend, s.fit)
	case pythonsMsg:
		s.pyLoaded, s.pythons, s.pyErr, s.verdict, s.offer = true, msg.list, msg.err, msg.verdicts, msg.offer
		if len(s.verdict) != len(s.pythons) {
			s.verdict = make([]string, len(s.pythons))
		}
		for i, p := range s.pythons {
			if len(p.Warnings) == 0 && s.verdict[i] == "" {
				s.cursor = i
				break
			}
		}
		return s, s.resubmit()
	case knownVenvsMsg:
		s.known.set(msg, s.journey)
		// offered first: the newest one gpuwiz knows is in the input, ready for enter (one found
		// nearby is listed to pick with the arrows)
		if s.input.Value() == "" && len(s.known.items) > 0 && !s.known.items[0].Nearby {
			if p := s.known.move(1); p != "" {
				return s, s.pick(p)
			}
		}
		s.known.follow(s.input.Value())
		return s, nil
	case venvCheckMsg:
		if msg.about != s.input.Value() {
			return s, nil // about a path typed before the last keystroke
		}
		chk := msg.value
		s.check = &chk
		if chk.Exists && len(chk.Errors) == 0 && s.existing() {
			s.inspected = chk.Path
			return s, inspectCmd(s.id, s.c.Ctx, s.c.Backend, chk.Path)
		}
		return s, s.resubmit()
	case inspectMsg:
		if s.check != nil && msg.about == s.check.Path {
			s.info, s.infoErr = &msg.value, msg.err
		}
		return s, s.resubmit()
	case tea.KeyMsg:
		k := s.c.Keys
		switch {
		case s.existing() && (key.Matches(msg, s.pickUp) || key.Matches(msg, s.pickDown)):
			d := 1
			if key.Matches(msg, s.pickUp) {
				d = -1
			}
			if p := s.known.move(d); p != "" {
				return s, s.pick(p)
			}
			return s, nil
		case key.Matches(msg, s.up) && !s.existing():
			if s.cursor > 0 {
				s.cursor--
			}
			return s, nil
		case key.Matches(msg, s.down) && !s.existing():
			if s.cursor < len(s.pythons)-1 {
				s.cursor++
			}
			return s, nil
		case key.Matches(msg, k.Select):
			return s, s.submit()
		}
		before := s.input.Value()
		var cmd tea.Cmd
		s.input, cmd = s.input.Update(msg)
		if s.input.Value() != before {
			s.known.follow(s.input.Value())
			return s, tea.Batch(cmd, s.recheck())
		}
		return s, cmd
	}
	var cmd tea.Cmd
	s.input, cmd = s.input.Update(msg)
	return s, cmd
}

// pick puts a known venv's path in the input and checks it as if typed.
func (s *venvScreen) pick(path string) tea.Cmd {
	s.input.SetValue(path)
	s.input.CursorEnd()
	return s.recheck()
}

func (s *venvScreen) resubmit() tea.Cmd {
	if !s.pending {
		return nil
	}
	return s.submit()
}

func (s *venvScreen) submit() tea.Cmd {
	path := strings.TrimSpace(s.input.Value())
	s.pending, s.noticeCmd = false, ""
	waiting := func(what string) tea.Cmd {
		s.pending, s.notice = true, what
		return nil
	}
	switch {
	case path == "" && s.existing() && len(s.known.items) > 0:
		s.notice = i18n.T("ui.venv.type_path_or_pick")
	case path == "" && s.existing():
		s.notice = i18n.T("ui.venv.type_path_existing")
	case path == "":
		s.notice = i18n.T("ui.venv.type_path")
	case s.check == nil:
		return waiting(i18n.T("ui.venv.checking_path"))
	case len(s.check.Errors) > 0:
		s.notice = i18n.T("ui.venv.fix_path") // the ✗ under the path says what is wrong
	case s.existing() && !s.check.Exists:
		s.notice = i18n.T("ui.venv.not_there")
	case s.existing() && s.info == nil:
		return waiting(i18n.T("ui.venv.reading"))
	case s.existing() && s.infoErr != nil:
		s.notice = i18n.T("ui.venv.read_failed", i18n.D{"Err": s.infoErr.Error()})
	case s.journey == JourneyChange && s.info.Framework == "":
		s.notice = i18n.T("ui.venv.nothing_to_change")
	case !s.existing() && !s.check.Exists && !s.pyLoaded:
		return waiting(i18n.T("ui.venv.looking"))
	case !s.existing() && !s.check.Exists && s.installing:
		s.notice = i18n.T("ui.venv.installing_wait")
	case !s.existing() && !s.check.Exists && len(s.pythons) == 0 && s.offer != nil:
		return s.offerPython(i18n.T("ui.venv.no_python"))
	case !s.existing() && !s.check.Exists && len(s.pythons) == 0:
		s.notice = i18n.T("ui.venv.no_python_hint")
	case !s.existing() && !s.check.Exists && s.verdict[s.cursor] != "" && s.offer != nil:
		return s.offerPython(i18n.T("ui.venv.python_unfit", i18n.D{"Why": s.verdict[s.cursor]}))
	case !s.existing() && !s.check.Exists && s.verdict[s.cursor] != "":
		s.notice = i18n.T("ui.venv.python_unfit_hint", i18n.D{"Why": s.verdict[s.cursor]})
	default:
		msg := venvChosenMsg{path: s.check.Path, reuse: s.check.Exists, info: s.info}
		if !s.check.Exists && len(s.pythons) > 0 {
			msg.python = s.pythons[s.cursor].Path
		}
		return navigate(msg)
	}
	return nil
}

func (s *venvScreen) View() string {
	st := s.c.Styles
	var b strings.Builder
	if !s.existing() {
		b.WriteString(st.Label.Render("Python") + st.Dim.Render("  "+i18n.T("ui.venv.python_header")) + "\n")
		switch {
		case !s.pyLoaded:
			b.WriteString("  " + i18n.T("ui.venv.looking_list") + "\n")
		case s.pyErr != nil:
			b.WriteString("  " + st.Err.Render(s.pyErr.Error()) + "\n")
		case len(s.pythons) == 0:
			b.WriteString("  " + st.Warn.Render(i18n.T("ui.venv.none_found")) + "\n")
		}
		for i, p := range s.pythons {
			cur := st.NoCursor
			line := i18n.T("ui.venv.python_line", i18n.D{"Version": p.Version, "Bits": p.Bits, "Kind": p.Kind, "Path": p.Path})
			if i == s.cursor {
				cur, line = st.Cursor, st.Selected.Render(line)
			}
			b.WriteString(cur + line + "\n")
			if i < len(s.verdict) && s.verdict[i] != "" {
				b.WriteString("    " + st.Err.Render(wrap(i18n.T("ui.venv.python_cannot", i18n.D{"Why": s.verdict[i]}), max(s.w-4, 20))) + "\n")
			}
			for _, w := range p.Warnings {
				b.WriteString("    " + st.Warn.Render("! "+w) + "\n")
			}
		}
		b.WriteString("\n")
	} else {
		b.WriteString(s.known.view(st, s.w))
		if len(s.known.items) > 0 {
			b.WriteString("\n" + wrap(i18n.T("ui.venv.which_known"), s.w) + "\n")
		} else {
			b.WriteString(wrap(i18n.T("ui.venv.which"), s.w) + "\n")
		}
		for _, p := range s.pythons {
			if p.Kind == "conda" && p.Prefix != "" && !s.known.has(p.Prefix) {
				b.WriteString(st.Dim.Render("  "+i18n.T("ui.venv.conda_env", i18n.D{"Prefix": p.Prefix})) + "\n")
			}
		}
		b.WriteString("\n")
	}
	b.WriteString(s.input.View() + "\n")
	switch {
	case s.input.Value() == "":
	case s.check == nil:
		b.WriteString(st.Dim.Render("  "+i18n.T("ui.venv.checking")) + "\n")
	default:
		if s.check.Path != "" && s.check.Path != strings.TrimSpace(s.input.Value()) { // ~, quotes, variables, a relative path
			b.WriteString(st.Dim.Render(wrap("  "+i18n.T("ui.venv.means", i18n.D{"Path": s.check.Path}), s.w)) + "\n")
		}
		errs := s.check.Errors
		switch {
		// Picking a new or empty folder, or moving a file away, is a new venv's advice, not this journey's.
		case s.existing() && s.check.NotEnv:
			errs = []string{i18n.T("ui.venv.not_an_env", i18n.D{"Path": s.check.Path})}
		case s.existing() && s.check.File:
			errs = []string{i18n.T("ui.venv.file_not_an_env", i18n.D{"Path": s.check.Path})}
		}
		for _, e := range errs {
			b.WriteString(st.Err.Render(wrap("  "+st.Fail+" "+e, s.w)) + "\n")
		}
		for _, w := range s.check.Warnings {
			b.WriteString(st.Warn.Render(wrap("  ! "+w, s.w)) + "\n")
		}
		if len(s.check.Errors) == 0 {
			if s.check.Exists && s.check.Conda {
				b.WriteString(st.OK.Render("  "+st.Pass+" "+i18n.T("ui.venv.is_conda")) + "\n")
			} else if s.check.Exists && s.check.Env != "" {
				b.WriteString(st.OK.Render(wrapHanging("  "+st.Pass+" "+i18n.T("ui.venv.is_env", i18n.D{"Kind": s.check.Env}), s.w, "    ")) + "\n")
			} else if s.check.Exists {
				b.WriteString(st.OK.Render("  "+st.Pass+" "+i18n.T("ui.venv.is_venv")) + "\n")
			} else if !s.existing() {
				b.WriteString(st.OK.Render("  "+st.Pass+" "+i18n.T("ui.venv.will_create")) + "\n")
			}
		}
	}
	if s.info != nil {
		fw := i18n.T("ui.venv.no_framework")
		if s.info.Framework != "" {
			fw = i18n.T("ui.venv.framework_line", i18n.D{"Framework": app.FrameworkName(s.info.Framework), "Version": s.info.FrameworkVersion, "Channel": cmp.Or(s.info.Channel, "-")})
		}
		b.WriteString("  " + i18n.T("ui.venv.holds", i18n.D{"Python": cmp.Or(s.info.PythonVersion, "-"), "Framework": fw}) + "\n")
	}
	if s.notice != "" {
		b.WriteString("\n" + st.Warn.Render(wrap(s.notice, s.w)) + "\n")
		if s.noticeCmd != "" {
			b.WriteString("\n    " + s.noticeCmd + "\n")
		}
	}
	return b.String()
}

// offerPython shows how to get a Python; when gpuwiz can install it, enter again starts it.
func (s *venvScreen) offerPython(why string) tea.Cmd {
	g, ok := s.c.Backend.(PythonGetter)
	if ok && s.offer.CanInstall && s.offered {
		s.installing = true
		s.notice = i18n.T("ui.venv.installing_python", i18n.D{"Minor": s.offer.Minor, "How": offerHow(*s.offer)})
		return installPythonCmd(s.id, s.c.Ctx, g, s.offer.Minor)
	}
	s.offered = true
	s.notice, s.noticeCmd = offerText(*s.offer, why), s.offer.Command
	return nil
}

// defaultPython is the interpreter a new venv is made from unless the user picks another: the first
// found without warnings (not the Store's, not 32-bit), else the first found.
func defaultPython(list []app.Interpreter) (app.Interpreter, bool) {
	for _, p := range list {
		if len(p.Warnings) == 0 {
			return p, true
		}
	}
	if len(list) > 0 {
		return list[0], true
	}
	return app.Interpreter{}, false
}
