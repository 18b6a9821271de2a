package ui

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
)

// askPane is what a screen that asks the backend one question and shows the answer in a viewport
// (verify, doctor) keeps besides the answer: the error, the spinner while it asks, the viewport,
// the key that asks again, the size.
type askPane struct {
	c     *Common
	id    screenID
	err   error
	spin  spinnerView
	vp    viewport.Model
	again key.Binding
	w, h  int
}

func newAskPane(c *Common, again string) askPane {
	return askPane{c: c, id: c.newID(), spin: newSpinnerView(c), vp: c.newViewport(), again: relabel(c.Keys.Rerun, again)}
}

func (p *askPane) ident() screenID { return p.id }

// resize gives the viewport the body less two lines: the "more" line and the screen's line below.
func (p *askPane) resize(w, h int) {
	p.w, p.h = w, h
	p.vp.Width, p.vp.Height = w, max(h-2, 1)
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

// failed is the screen when the question failed: the error, then hint.
func (p *askPane) failed(text, hint string) string {
	return p.c.Styles.Err.Render(wrap(text, p.w)) + "\n\n" + hint
}

// answer is what a screen keeps of the backend's answer: the value, or nil and the error.
func answer[T any](v T, err error) (*T, error) {
	if err != nil {
		return nil, err
	}
	return &v, nil
}
