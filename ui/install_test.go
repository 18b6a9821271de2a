package ui

import (
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"gpuwiz/steps/app"
)

// stoppedClock answers start the first time and start+after ever after: the install screen's
// elapsed time reads after, whatever the machine's speed.
func stoppedClock(after time.Duration) func() time.Time {
	start := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	first := true
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		if first {
			first = false
			return start
		}
		return start.Add(after)
	}
}

const longStep = "download torch==2.7.1+cu126 from https://download.pytorch.org/whl/cu126/torch-2.7.1%2Bcu126-cp312-cp312-manylinux_2_28_x86_64.whl (2.4 GiB)"

// statusLine is the install screen's line under the steps.
func statusLine(t *testing.T, s *installScreen) string {
	t.Helper()
	lines := strings.Split(ansi.Strip(s.View()), "\n")
	if len(lines) <= len(s.plan.Steps) {
		t.Fatalf("no status line:\n%s", s.View())
	}
	return lines[len(s.plan.Steps)]
}

// A step title longer than the window used to push the elapsed time off the line (at 120 columns:
// "⣯  download torch==… from https://downl"); now the time comes first and the title is shortened
// with an ellipsis. The same holds for the download bar, the unknown-size download and cancelling.
func TestInstallStatusLineKeepsElapsedTime(t *testing.T) {
	for _, w := range []int{120, 80, 40} {
		for _, ascii := range []bool{false, true} {
			c := testCommon(newFakeBackend(), ascii)
			s := newInstallScreen(c, app.Plan{Steps: []app.PlanStep{{ID: "install", Title: longStep}}}, &sync.WaitGroup{})
			s.SetSize(w, 20)
			s.started = time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
			s.now = s.started.Add(83 * time.Second)
			ellipsis := map[bool]string{false: "…", true: "..."}[ascii]
			check := func(what string, want ...string) {
				t.Helper()
				line := statusLine(t, s)
				if n := ansi.StringWidth(line); n > w {
					t.Errorf("%d columns, %s: the status line is %d wide: %q", w, what, n, line)
				}
				for _, x := range append([]string{"1m23s"}, want...) {
					if !strings.Contains(line, x) {
						t.Errorf("%d columns, %s: %q lacks %q", w, what, line, x)
					}
				}
			}
			s.apply([]app.InstallEvent{{StepID: "install", State: app.StepRunning, Message: longStep}})
			check("long step title", "download torch==", ellipsis)
			if row := strings.Split(ansi.Strip(s.View()), "\n")[0]; ansi.StringWidth(row) > w || !strings.HasSuffix(row, ellipsis) {
				t.Errorf("%d columns: the step's row is not shortened with an ellipsis: %q", w, row)
			}
			s.apply([]app.InstallEvent{{StepID: "install", Progress: &app.Progress{Done: 1 << 30}}})
			check("download of unknown size", "downloaded")
			s.apply([]app.InstallEvent{{StepID: "install", Progress: &app.Progress{Done: 1 << 30, Total: 2 << 30}}})
			if w >= 40 {
				check("download bar", "1.0 GiB / 2.0 GiB")
			} else {
				check("download bar")
			}
			s.cancelled = true
			check("cancelling", "Cancelling")
		}
	}
}

// The install screen mid-download: the running step, the bar with its sizes and the elapsed time,
// and the log tail.
func TestInstallMidDownloadGolden(t *testing.T) {
	fb := newFakeBackend()
	fb.blockInstall = true
	c := testCommon(fb, false)
	c.Clock = stoppedClock(83 * time.Second)
	m := NewModel(c)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	plan, _ := fb.Plan(c.Ctx, app.PlanRequest{Venv: "/work/new", Candidate: cand("torch", "2.7.1", "cu126", "12.6", true)})
	_, start := m.Update(planConfirmedMsg{plan})
	s := topIs[*installScreen](t, m)
	for _, msg := range runCmd(start) {
		m.Update(msg)
	}
	for i := 0; i < 200 && s.total == 0; i++ {
		time.Sleep(10 * time.Millisecond)
		m.Update(drainInstall(s.job))
	}
	view := m.View()
	s.job.cancel()
	m.Wait()
	mustContain(t, view, "1.0 GiB / 2.0 GiB", "1m23s", "Collecting package-19")
	golden.RequireEqual(t, []byte(view))
}

// gpuwiz's own downloader reports its rate and the time left: the bar line shows both.
func TestInstallBarShowsRateAndTimeLeft(t *testing.T) {
	c := testCommon(newFakeBackend(), false)
	s := newInstallScreen(c, app.Plan{Steps: []app.PlanStep{{ID: "stage", Title: "download torch"}}}, &sync.WaitGroup{})
	s.SetSize(120, 20)
	s.apply([]app.InstallEvent{{StepID: "stage", State: app.StepRunning}, {StepID: "stage", Progress: &app.Progress{Done: 1 << 30, Total: 4 << 30, BytesPerSec: 100 << 20, ETASeconds: 31}}})
	line := statusLine(t, s)
	for _, want := range []string{"1.0 GiB / 4.0 GiB", "100.0 MiB/s", "31s left"} {
		if !strings.Contains(line, want) {
			t.Errorf("%q lacks %q", line, want)
		}
	}
	if n := ansi.StringWidth(line); n > 120 {
		t.Errorf("the line is %d wide", n)
	}
}
