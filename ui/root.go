package ui

import (
	"slices"
	"strings"
	"sync"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

// Journey is what the user chose on the welcome screen.
type Journey int

const (
	JourneyNew Journey = iota
	JourneyChange
	JourneyRepair
	JourneyCheck
)

// choices are what the screens decided so far; the root routes on them.
type choices struct {
	journey   Journey
	report    *app.GPUReport
	gpu       int // the card chosen on the GPU screen; -1: every card
	framework string
	version   string
	candidate *app.Candidate
	current   *app.VenvInfo // the existing venv (change, repair)
	venv      string
	python    string
	reuse     bool
	source    *app.PackageSource // where packages come from (the package-source screen)
	// typedVenv is the path typed on a new venv's screen left with esc: the next one starts from it
	// (after a change of channel, version or framework), not from the default.
	typedVenv string
	plan      *app.Plan
	outcome   *app.Outcome
	verify    *app.Checklist
	doctor    *app.Diagnosis
	story     *driverStory // the GPU screen's driver story, said again on the channel screen
}

// Navigation: screens return these; the root decides what comes next.
type (
	backMsg          struct{}
	quitMsg          struct{ code int }
	journeyChosenMsg struct{ journey Journey }
	gpuDoneMsg       struct {
		report app.GPUReport
		gpu    int          // -1: every card
		story  *driverStory // what the driver runs and what an update adds (nil: nothing to say)
	}
	frameworkMsg     struct{ framework, version string }
	channelChosenMsg struct{ candidate app.Candidate }
	venvChosenMsg    struct {
		path, python string
		reuse        bool
		info         *app.VenvInfo
	}
	planConfirmedMsg struct{ plan app.Plan }
	installFinishMsg struct{ outcome app.Outcome }
	verifyFinishMsg  struct{ report *app.Checklist }
	benchRequestMsg  struct{}
	addRequestMsg    struct{} // the done screen's a: the project's requirements next
	addConfirmedMsg  struct{ preview app.AddPreview }
	// addSourceRequestMsg: the add screen's tab, to choose where the project's packages come from.
	addSourceRequestMsg struct {
		sources app.AddSources
		current app.AddSource
	}
	addSourceChosenMsg struct{ source app.AddSource } // the source chosen: the add screen takes it
	addFinishMsg       struct{ outcome app.Outcome }  // the add's install ended
	doctorFinishMsg    struct{ report *app.Diagnosis }
)

func navigate(msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }

// Model is the wizard's root: a stack of screens, the header, the help bar.
type Model struct {
	c        *Common
	stack    []screen
	help     help.Model
	footerH  int // lines of the help bar as last drawn
	ch       choices
	width    int
	height   int
	exitCode int
	wg       *sync.WaitGroup
	newBench func() screen    // the benchmark screen for the choices made
	scroll   map[screenID]int // the first line shown of a screen taller than the body
}

// NewModel builds the root model on c, starting at the welcome screen.
func NewModel(c *Common) *Model {
	m := &Model{c: c, help: help.New(), wg: &sync.WaitGroup{}, scroll: map[screenID]int{}}
	m.newBench = func() screen {
		return newBenchScreen(c, m.benchGPU(), backendBench(c.Backend, m.ch.venv, m.benchGPU()))
	}
	m.help.ShortSeparator = " · "
	if c.Styles.ASCII {
		m.help.ShortSeparator = " | "
		m.help.Ellipsis = "..."
	}
	m.help.Styles.ShortKey = c.Styles.Label
	m.help.Styles.FullKey = c.Styles.Label
	m.width, m.height = clampSize(80, 24)
	m.stack = []screen{newWelcome(c)}
	return m
}

// ExitCode is the process exit code the wizard ended with.
func (m *Model) ExitCode() int { return m.exitCode }

// Wait blocks until background work (an install) has stopped.
func (m *Model) Wait() { m.wg.Wait() }

func (m *Model) top() screen { return m.stack[len(m.stack)-1] }

// Init starts the top screen and, when the wizard starts at the welcome, asks whether a driver
// install that asked for a restart left it a place to continue from.
func (m *Model) Init() tea.Cmd {
	if _, ok := m.top().(*welcomeScreen); !ok || m.c.Backend == nil {
		return m.top().Init()
	}
	return tea.Batch(m.top().Init(), resumeCmd(m.c.Ctx, m.c.Backend))
}

func (m *Model) push(s screen) tea.Cmd {
	m.stack = append(m.stack, s)
	m.resize()
	return s.Init()
}

// replace swaps the whole stack for s: after an install there is no going back into the plan.
func (m *Model) replace(s screen) tea.Cmd {
	m.stack = []screen{s}
	m.resize()
	return s.Init()
}

func (m *Model) pop() {
	if l, ok := m.top().(leavingScreen); ok {
		l.Leave()
	}
	if v, ok := m.top().(*venvScreen); ok && !v.existing() {
		m.ch.typedVenv = v.typed()
	}
	m.stack = m.stack[:len(m.stack)-1]
	m.resize()
}

// resize gives the screens what is left of the window under the title and the rule, above the
// help bar, whose height is measured from what it draws.
func (m *Model) resize() {
	m.help.Width = m.width - 2
	// The help bar lists pgdn/pgup when the screen overflows the body, which the help bar's own
	// height decides: measured again until it holds (twice at most in practice).
	for range 3 {
		m.footerH = lipgloss.Height(m.footer())
		// The title and its rule above, and the window's last row left empty: under Wine's console a
		// frame that fills the last row scrolls up a row and leaves the last screen's lines behind
		// (docs/windows.md); until a real Windows console is seen to keep it, the row stays empty.
		m.c.Width, m.c.Height = m.width-2, max(m.height-3-m.footerH, 1)
		if lipgloss.Height(m.footer()) == m.footerH {
			break
		}
	}
	for _, s := range m.stack {
		s.SetSize(m.c.Width, m.c.Height)
	}
}

// Update handles msg, then fits the screens again if the help bar's height changed (a screen's
// keys can change with its state).
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := m.update(msg)
	if lipgloss.Height(m.footer()) != m.footerH {
		m.resize()
	}
	return next, cmd
}

func (m *Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		w, h := clampSize(msg.Width, msg.Height)
		changed := w != m.width || h != m.height
		m.width, m.height = w, h
		m.resize()
		if changed {
			// The terminal reflowed the old frame's lines when it shrank; only a clear screen
			// removes what is left of them (a gap in the header rule on every later screen).
			return m, tea.ClearScreen
		}
		return m, nil
	case tea.KeyMsg:
		top := m.top()
		if !isBusy(top) {
			k := m.c.Keys
			switch {
			case key.Matches(msg, k.ForceQuit):
				return m, tea.Quit
			case key.Matches(msg, k.Quit) && !isTyping(top):
				return m, tea.Quit
			case key.Matches(msg, k.Help) && !isTyping(top):
				m.help.ShowAll = !m.help.ShowAll
				m.resize()
				return m, nil
			case key.Matches(msg, k.Back) && len(m.stack) > 1:
				m.pop()
				return m, nil
			case key.Matches(msg, k.PageDown, k.PageUp) && m.overflow() > 0:
				// A screen taller than the body: its window moves (the screen's own pgup/pgdn, a
				// log's, only work when the screen fits, which it then does by itself).
				step := max(m.c.Height-2, 1)
				if key.Matches(msg, k.PageUp) {
					step = -step
				}
				m.scrollBy(step)
				return m, nil
			}
		}
	case backMsg:
		if len(m.stack) > 1 {
			m.pop()
		}
		return m, nil
	case quitMsg:
		m.exitCode = msg.code
		return m, tea.Quit
	}
	if next, cmd, ok := m.route(msg); ok {
		return next, cmd
	}
	return m.updateTop(msg)
}

// updateTop hands msg to the one screen it is for: a command's result to the screen that started
// it, wherever that screen is on the stack (it is dropped when that screen has gone); anything
// else (keys, spinner ticks) to the top screen.
func (m *Model) updateTop(msg tea.Msg) (tea.Model, tea.Cmd) {
	i := len(m.stack) - 1
	if a, ok := msg.(addressed); ok {
		i = slices.IndexFunc(m.stack, func(s screen) bool { return s.ident() == a.receiver() })
		if i < 0 {
			return m, nil
		}
	}
	next, cmd := m.stack[i].Update(msg)
	m.stack[i] = next.(screen)
	return m, cmd
}

func (m *Model) View() string {
	s := m.c.Styles
	top := m.top()
	title := s.Title.Render("gpuwiz") + s.Step.Render("  "+top.Title())
	if m.c.Simulated {
		banner := s.Banner.Render(i18n.T("ui.root.simulated"))
		gap := m.width - 2 - ansi.StringWidth(title) - ansi.StringWidth(banner)
		if gap < 1 {
			title = banner + " " + title
		} else {
			title += strings.Repeat(" ", gap) + banner
		}
	}
	body := padLines(m.body(), m.c.Height)
	out := strings.Join([]string{title, s.HRule(m.width - 2), body, m.footer()}, "\n")
	return s.App.Render(fitBlockCut(out, m.width-2, m.height, ellipsis(s))) // a cut title ends with … too
}

// The scroll-and-"more" pattern (ui/AGENTS.md): a screen draws all it has; when that is taller than
// the body, the root shows a window of it with a last line saying how much more there is, and
// pgdn/pgup move the window (the help bar lists them). A line wider than the body ends with … .

// viewLines is the top screen's whole view, in lines.
func (m *Model) viewLines() []string {
	return strings.Split(strings.TrimRight(m.top().View(), "\n"), "\n")
}

// overflow is how many lines of the top screen do not fit the body (0 when all do).
func (m *Model) overflow() int { return max(len(m.viewLines())-m.c.Height, 0) }

// body is the top screen's view fitted to the body: a window of it and its "more" line when it is
// taller, every cut line ending with … .
func (m *Model) body() string {
	st, h, w := m.c.Styles, m.c.Height, m.c.Width
	lines := m.viewLines()
	if len(lines) <= h || h < 2 {
		return fitBlockCut(strings.Join(lines, "\n"), w, h, ellipsis(st))
	}
	shown := h - 1 // the last line says there is more
	off := min(max(m.scroll[m.top().ident()], 0), len(lines)-shown)
	below := len(lines) - shown - off
	var more string
	if below > 0 {
		more = i18n.N("ui.root.more_below", below, i18n.D{"Arrow": arrow(st, false)})
	} else {
		more = i18n.N("ui.root.more_above", off, i18n.D{"Arrow": arrow(st, true)})
	}
	window := strings.Join(lines[off:off+shown], "\n")
	return padLines(fitBlockCut(window, w, shown, ellipsis(st)), shown) + "\n" + st.Dim.Render(ansi.Truncate(more, w, ellipsis(st)))
}

// scrollBy moves the top screen's window by d lines, within its content.
func (m *Model) scrollBy(d int) {
	id := m.top().ident()
	m.scroll[id] = min(max(m.scroll[id]+d, 0), m.overflow()+1)
}

func arrow(st Styles, up bool) string {
	switch {
	case st.ASCII && up:
		return "^"
	case st.ASCII:
		return "v"
	case up:
		return "↑"
	}
	return "↓"
}

// footer is the help bar: the top screen's keys and the global ones.
// A short help that does not fit one line goes on to a second one: no key is dropped (the
// help bubble would drop the last ones, ? and q among them).
func (m *Model) footer() string {
	if m.help.ShowAll {
		return m.help.View(helpKeys{m})
	}
	h := m.help
	h.Width = 0 // measure whole
	var first []key.Binding
	all := slices.DeleteFunc((helpKeys{m}).ShortHelp(), func(b key.Binding) bool { return !b.Enabled() })
	for i, b := range all {
		if len(first) > 0 && lipgloss.Width(h.ShortHelpView(append(slices.Clone(first), b))) > m.width-2 {
			// The rest on a second line, cut with … only when even that is too narrow (a tiny window).
			h.Width = m.width - 2
			return h.ShortHelpView(first) + "\n" + h.ShortHelpView(all[i:])
		}
		first = append(first, b)
	}
	return h.ShortHelpView(first)
}

// helpKeys is the help bar's key map: the top screen's own keys, then the global keys the root
// answers for it. A busy screen gets none (the root leaves its keys to it); a screen that takes
// letters gets ctrl+c, not q, and no ?; esc shows when there is a screen to go back to.
type helpKeys struct{ m *Model }

func (h helpKeys) global() []key.Binding {
	top, k := h.m.top(), h.m.c.Keys
	if isBusy(top) {
		return nil
	}
	var out []key.Binding
	if h.m.overflow() > 0 {
		out = append(out, k.PageDown, k.PageUp)
	}
	if len(h.m.stack) > 1 {
		out = append(out, k.Back)
	}
	if isTyping(top) {
		return append(out, k.ForceQuit)
	}
	return append(out, k.Quit, k.Help)
}

func (h helpKeys) ShortHelp() []key.Binding { return slices.Concat(h.m.top().ShortHelp(), h.global()) }

func (h helpKeys) FullHelp() [][]key.Binding {
	cols := slices.Clone(h.m.top().FullHelp())
	if g := h.global(); len(g) > 0 {
		cols = append(cols, g)
	}
	return cols
}
