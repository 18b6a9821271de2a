package ui

import "github.com/charmbracelet/bubbles/key"

// KeyMap is every key binding of the wizard; screens pick the ones they show in help.
type KeyMap struct {
	Up, Down, Left, Right key.Binding
	PageUp, PageDown      key.Binding
	Select, Back, Quit    key.Binding
	ForceQuit, Help, Tab  key.Binding
	Confirm, Deny         key.Binding
	Bench, Rerun          key.Binding
}

// DefaultKeyMap is the wizard's key map.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:        key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:      key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Left:      key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "older")),
		Right:     key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "newer")),
		PageUp:    key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "scroll up")),
		PageDown:  key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "scroll down")),
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
	}
}

// asciiKeyHelp swaps arrow glyphs for words so --ascii consoles show no box-drawing or arrows.
func (k *KeyMap) asciiKeyHelp() {
	k.Up.SetHelp("up/k", "up")
	k.Down.SetHelp("down/j", "down")
	k.Left.SetHelp("left/h", "older")
	k.Right.SetHelp("right/l", "newer")
}
