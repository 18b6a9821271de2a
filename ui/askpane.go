package ui

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
)

// pane is a frame whose screen shows its body in a viewport.
type pane struct {
	frame
	vp viewport.Model
}

func newPane(c *Common) pane { return pane{frame: newFrame(c), vp: c.newViewport()} }

// resize gives the viewport the body less the lines below it (the "more" line, the screen's own).
func (p *pane) resize(w, h, below int) {
	p.w, p.h = w, h
	p.vp.Width, p.vp.Height = w, max(h-below, 1)
}

// failed is the screen when its question failed: the error, then hint.
func (p *pane) failed(text, hint string) string {
	return p.c.Styles.Err.Render(wrap(text, p.w)) + "\n\n" + hint
}

// askPane is a pane that asks the backend one question and shows the answer (verify, doctor): the
// error, the spinner while it asks, the key that asks again.
type askPane struct {
	pane
	err   error
	spin  spinnerView
	again key.Binding
}

func newAskPane(c *Common, again string) askPane {
	return askPane{pane: newPane(c), spin: newSpinnerView(c), again: relabel(c.Keys.Rerun, again)}
}

// update takes a message the screen left: once answered or failed, the again key forgets both and
// asks anew (ask forgets the answer), anything else scrolls; while it asks, what is not a key turns
// the spinner.
func (p *askPane) update(msg tea.Msg, answered bool, ask func() tea.Cmd) tea.Cmd {
	k, isKey := msg.(tea.KeyMsg)
	settled := answered || p.err != nil
	switch {
	case isKey && settled && key.Matches(k, p.again):
		p.err = nil
		return ask()
	case !isKey && !settled:
		return p.spin.update(msg)
	}
	return scroll(&p.vp, msg)
}

// answer is what a screen keeps of the backend's answer: the value, or nil and the error.
func answer[T any](v T, err error) (*T, error) {
	if err != nil {
		return nil, err
	}
	return &v, nil
}
