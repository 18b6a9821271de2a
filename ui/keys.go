package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
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
}

// DefaultKeyMap is the wizard's key map.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:        key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:      key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Left:      key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "older")),
		Right:     key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "newer")),
		PageUp:    key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown:  key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		Select:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "continue")),
		Back:      key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Quit:      key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
		ForceQuit: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),
		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "more keys")),
		Tab:       key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "switch field")),
		Confirm:   key.NewBinding(key.WithKeys("y", "Y"), key.WithHelp("y", "yes")),
		Deny:      key.NewBinding(key.WithKeys("n", "N"), key.WithHelp("n", "no")),
		Bench:     key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "benchmark")),
		Rerun:     key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "run again")),
		Pick:      key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6", "7", "8", "9"), key.WithHelp("1-9", "pick")),
	}
}

// asciiKeyHelp swaps arrow glyphs for words so --ascii consoles show no box-drawing or arrows.
func (k *KeyMap) asciiKeyHelp() {
	k.Up.SetHelp("up/k", "up")
	k.Down.SetHelp("down/j", "down")
	k.Left.SetHelp("left/h", "older")
	k.Right.SetHelp("right/l", "newer")
}

// relabel is b with another meaning in help: the same keys, desc for what they do here.
func relabel(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
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
