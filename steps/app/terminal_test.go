package app

import (
	"bytes"
	"io"
	"os"
	"testing"

	"gpuwiz/steps/urls"
)

// A writer that wraps the terminal (the CLI redacts and counts what commands print) still counts
// as one, however many wrappers deep; a buffer does not.
func TestTerminalSeenThroughWrappers(t *testing.T) {
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	was := IsTerminal
	IsTerminal = func(g *os.File) bool { return g == f }
	defer func() { IsTerminal = was }()
	if got, ok := Terminal(unwrapper{urls.NewWriter(f)}); !ok || got != f {
		t.Fatalf("Terminal through two Unwraps: %v %v", got, ok)
	}
	if _, ok := Terminal(unwrapper{&bytes.Buffer{}}); ok {
		t.Fatal("a buffer is not a terminal")
	}
	g, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if _, ok := Terminal(g); ok {
		t.Fatal("a file that is not a terminal counts as one")
	}
}

type unwrapper struct{ w io.Writer }

func (u unwrapper) Write(p []byte) (int, error) { return u.w.Write(p) }
func (u unwrapper) Unwrap() io.Writer           { return u.w }
