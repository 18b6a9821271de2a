package cli

import (
	"bytes"
	"strings"
	"testing"

	"gpuwiz/steps/install"
	"gpuwiz/steps/runner"
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
		!strings.Contains(lines[6], "(50%)") || !strings.Contains(lines[11], "(100%)") || !strings.Contains(lines[12], "done: stage") {
		t.Errorf("%d lines:\n%s", len(lines), out.String())
	}
}
