package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"

	"gpuwiz/steps/i18n"
)

// KeyMap is every key binding of the wizard. Screens list their own keys in help; the root adds
// the global ones (Back, Quit or ForceQuit, Help). A screen that gives a key another meaning copies
// the binding once, when it is built, and calls SetHelp (or SetKeys): never key.NewBinding.
type KeyMap struct {
	Up, Down, Left, Right key.Binding
	PageUp, PageDown      key.Binding
	Select, Back, Quit    key.Binding
	ForceQuit, Help, Tab  key.Binding
	Confirm, Deny         key.Binding
	Bench, Rerun, Pick    key.Binding
	Add                   key.Binding // the done screen's a: install the project's requirements
	Lang                  key.Binding // the welcome's l: English ⇄ 简体中文
	Driver                key.Binding // the GPU screen's u: update the NVIDIA driver
}

// DefaultKeyMap is the wizard's key map, its help in the current language: after i18n.Set, build
// it again (keyMapFor).
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:        key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", i18n.T("ui.key.up"))),
		Down:      key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", i18n.T("ui.key.down"))),
		Left:      key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", i18n.T("ui.key.older"))),
		Right:     key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", i18n.T("ui.key.newer"))),
		PageUp:    key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", i18n.T("ui.key.page_up"))),
		PageDown:  key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", i18n.T("ui.key.page_down"))),
		Select:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", i18n.T("ui.key.continue"))),
		Back:      key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", i18n.T("ui.key.back"))),
		Quit:      key.NewBinding(key.WithKeys("q"), key.WithHelp("q", i18n.T("ui.key.quit"))),
		ForceQuit: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", i18n.T("ui.key.quit"))),
		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", i18n.T("ui.key.more"))),
		Tab:       key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", i18n.T("ui.key.switch_field"))),
		Confirm:   key.NewBinding(key.WithKeys("y", "Y"), key.WithHelp("y", i18n.T("ui.key.yes"))),
		Deny:      key.NewBinding(key.WithKeys("n", "N"), key.WithHelp("n", i18n.T("ui.key.no"))),
		Bench:     key.NewBinding(key.WithKeys("b"), key.WithHelp("b", i18n.T("ui.key.benchmark"))),
		Rerun:     key.NewBinding(key.WithKeys("r"), key.WithHelp("r", i18n.T("ui.key.run_again"))),
		Add:       key.NewBinding(key.WithKeys("a"), key.WithHelp("a", i18n.T("ui.key.add_project"))),
		Pick:      key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6", "7", "8", "9"), key.WithHelp("1-9", i18n.T("ui.key.pick"))),
		Lang:      key.NewBinding(key.WithKeys("l", "L"), key.WithHelp("l", i18n.T("lang.switch_hint"))),
		Driver:    key.NewBinding(key.WithKeys("u", "U"), key.WithHelp("u", i18n.T("ui.key.update_driver"))),
	}
}

// keyMapFor is DefaultKeyMap with --ascii's key names when ascii is set.
func keyMapFor(ascii bool) KeyMap {
	k := DefaultKeyMap()
	if ascii {
		k.asciiKeyHelp()
	}
	return k
}

// asciiKeyHelp swaps arrow glyphs for words so --ascii consoles show no box-drawing or arrows.
func (k *KeyMap) asciiKeyHelp() {
	k.Up.SetHelp("up/k", k.Up.Help().Desc)
	k.Down.SetHelp("down/j", k.Down.Help().Desc)
	k.Left.SetHelp("left/h", k.Left.Help().Desc)
	k.Right.SetHelp("right/l", k.Right.Help().Desc)
	k.Lang.SetHelp("l", langHint(true))
}

// langHint is the name of the language l switches to, as the help bar and the welcome show it: in
// that language ("中文" in English), or, on an --ascii console in English, its code (zh-CN).
func langHint(ascii bool) string {
	if ascii && !i18n.IsChinese() {
		return string(i18n.Chinese)
	}
	return i18n.T("lang.switch_hint")
}

// relabel is b with another meaning in help: the same keys, desc for what they do here.
func relabel(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

// textField is the screens' one-line text field: prompt, placeholder, a limit on its length, and a
// cursor that does not blink (fewer frames, stable goldens).
func textField(prompt, placeholder string, limit int) textinput.Model {
	in := textinput.New()
	in.Prompt, in.Placeholder, in.CharLimit = prompt, placeholder, limit
	in.Cursor.SetMode(cursor.CursorStatic)
	return in
}

// arrowOnly is b answering its arrow key alone (the first key), for a screen whose letters go into
// a text field: "↑/k" becomes "↑".
func arrowOnly(b key.Binding, desc string) key.Binding {
	b.SetKeys(b.Keys()[0])
	glyph, _, _ := strings.Cut(b.Help().Key, "/")
	b.SetHelp(glyph, desc)
	return b
}

// scrollKeys makes a viewport answer the wizard's scrolling keys and no others, so the help bar
// tells the whole truth about it.
func scrollKeys(k KeyMap) viewport.KeyMap {
	var none key.Binding
	none.SetEnabled(false)
	return viewport.KeyMap{Up: k.Up, Down: k.Down, PageUp: k.PageUp, PageDown: k.PageDown,
		HalfPageUp: none, HalfPageDown: none, Left: none, Right: none}
}

// newViewport is a viewport on the wizard's scrolling keys.
func (c *Common) newViewport() viewport.Model {
	vp := viewport.New(0, 0)
	vp.KeyMap = scrollKeys(c.Keys)
	return vp
}

// scrolling are the keys a viewport answers, for a screen's full help.
func (k KeyMap) scrolling() []key.Binding { return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown} }

// scroll hands msg to the viewport.
func scroll(vp *viewport.Model, msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	*vp, cmd = vp.Update(msg)
	return cmd
}
