package cli

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"gpuwiz/steps/app"
	"gpuwiz/steps/install"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/urls"
)

// Without a terminal the download is a line at every tenth, with the rate and the time left.
func TestInstallProgressLinesWithoutATerminal(t *testing.T) {
	var out bytes.Buffer
	p := newProgressPrinter(&out)
	p.print(&out, install.Event{StepID: "stage", State: install.StateRunning, Message: "download torch"})
	for done := int64(0); done <= 100; done += 5 {
		p.print(&out, install.Event{StepID: "stage", Progress: &runner.Progress{Done: done << 20, Total: 100 << 20, BytesPerSec: 50 << 20, ETASeconds: float64(100-done) / 50}})
	}
	p.print(&out, install.Event{StepID: "stage", State: install.StateDone})
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 13 || !strings.Contains(lines[1], "downloaded 0 B of 100.0 MiB (0%), 50.0 MiB/s, 2s left") ||
		!strings.Contains(lines[6], "(50%)") || !strings.Contains(lines[11], "(100%)") || !strings.Contains(lines[12], "done: download the wheels") {
		t.Errorf("%d lines:\n%s", len(lines), out.String())
	}
}

// On a terminal the download is one line redrawn in place, also when the terminal sits under the
// writers every command prints through (credential redaction, the count of what was printed); a
// carriage return and blanks redraw it, no escape codes.
func TestInstallProgressRedrawsInPlaceThroughTheCommandWriters(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "tty")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	was := app.IsTerminal
	app.IsTerminal = func(g *os.File) bool { return g == f }
	defer func() { app.IsTerminal = was }()
	w := &countingWriter{w: urls.NewWriter(f)}
	p := newProgressPrinter(w)
	p.print(w, install.Event{StepID: "stage", State: install.StateRunning, Message: "download torch"})
	for done := int64(0); done <= 100; done += 5 {
		p.print(w, install.Event{StepID: "stage", Progress: &runner.Progress{Done: done << 20, Total: 100 << 20, BytesPerSec: 50 << 20, ETASeconds: float64(100-done) / 50}})
	}
	p.print(w, install.Event{StepID: "stage", State: install.StateDone})
	out, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if strings.Contains(string(out), "\x1b") {
		t.Errorf("the progress line uses an escape, which Windows 10's console shows as text: %q", out)
	}
	if len(lines) != 3 || strings.Count(lines[1], "\r") != 21 || !strings.Contains(lines[1], "(100%)") || !strings.Contains(lines[2], "done: download the wheels") {
		t.Errorf("want the progress redrawn on one line (21 redraws), got %d lines:\n%q", len(lines), out)
	}
}
