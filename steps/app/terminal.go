package app

import (
	"io"
	"os"

	"golang.org/x/term"
)

// Terminal is the terminal behind stdin or stdout: an *os.File on one, or a writer that wraps one
// and hands it out with Unwrap (the CLI redacts credentials from and counts what commands print,
// so a command's stdout is such a writer). Both front ends ask it: the wizard
// needs a terminal to draw on, the commands redraw a progress line in place and ask before
// changing a venv only on one.
func Terminal(x any) (*os.File, bool) {
	for {
		switch v := x.(type) {
		case *os.File:
			return v, IsTerminal(v)
		case interface{ Unwrap() io.Writer }:
			x = v.Unwrap()
		default:
			return nil, false
		}
	}
}

// IsTerminal says whether f is a terminal; a variable so tests can stand in for one.
var IsTerminal = func(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }
