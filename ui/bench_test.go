package ui

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"

	"gpuwiz/steps/bench"
	"gpuwiz/steps/gpu"
)

func recordedEvents(t *testing.T, name string) []bench.Event {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "testdata", "bench", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []bench.Event
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		out = append(out, bench.ParseLine(sc.Bytes()))
	}
	return out
}

func recordedSamples(t *testing.T) [][]gpu.Sample {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "testdata", "bench", "samples_h200.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]gpu.Sample
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var s []gpu.Sample
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// benchProgram runs the benchmark screen alone, as `bench --tui` does, at w×h, sending the
// recorded messages in a fixed order so the final frame is deterministic, and returns the final
// view (the root's: title, screen and help bar).
func benchProgram(t *testing.T, ascii bool, w, h int, msgs []tea.Msg, wait string) string {
	t.Helper()
	lipgloss.SetColorProfile(termenv.Ascii)
	c := testCommon(nil, ascii)
	c.Simulated = false
	idle := func(context.Context) (BenchFeed, string, error) { return BenchFeed{}, "torch", nil }
	m := newBenchRoot(c, func() screen { return newBenchScreen(c, 0, idle) })
	to := addr{m.top().ident()}
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, h))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return strings.Contains(string(b), "starting Python") },
		teatest.WithDuration(10*time.Second))
	for _, msg := range msgs {
		switch msg := msg.(type) {
		case BenchEventMsg:
			msg.addr = to
			tm.Send(msg)
		case GPUSamplesMsg:
			msg.addr = to
			tm.Send(msg)
		case BenchClosedMsg:
			tm.Send(BenchClosedMsg{to})
		}
	}
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return strings.Contains(string(b), wait) },
		teatest.WithDuration(10*time.Second))
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*Model)
	return final.View()
}

// interleave sends the events with samples in between, as a real run would.
func interleave(events []bench.Event, samples [][]gpu.Sample, closeEvents bool) []tea.Msg {
	var msgs []tea.Msg
	si := 0
	for i, e := range events {
		msgs = append(msgs, BenchEventMsg{Event: e})
		for ; si < len(samples) && si*len(events) < (i+1)*len(samples); si++ {
			msgs = append(msgs, GPUSamplesMsg{Samples: samples[si]})
		}
	}
	for ; si < len(samples); si++ {
		msgs = append(msgs, GPUSamplesMsg{Samples: samples[si]})
	}
	if closeEvents {
		msgs = append(msgs, BenchClosedMsg{})
	}
	return msgs
}

func TestBenchScreenH200Golden(t *testing.T) {
	events := recordedEvents(t, "h200_torch.jsonl")
	view := benchProgram(t, false, 80, 24, interleave(events, recordedSamples(t), true), "run again")
	for _, want := range []string{"NVIDIA H200", "the GPU is doing the work", "48213 bench", "684.9"} {
		if !strings.Contains(view, want) {
			t.Errorf("view lacks %q", want)
		}
	}
	assertFits(t, view, 80, 24)
	golden.RequireEqual(t, []byte(view))
}

func TestBenchScreenMidRunASCIIGolden(t *testing.T) {
	events := recordedEvents(t, "h200_torch.jsonl")
	half := events[:12]
	view := benchProgram(t, true, 80, 24, interleave(half, recordedSamples(t)[:24], false), "matmul cuda fp32 8192")
	for _, r := range view {
		if r > 127 {
			t.Fatalf("--ascii view has %q:\n%s", r, view)
		}
	}
	assertFits(t, view, 80, 24)
	golden.RequireEqual(t, []byte(view))
}

func TestBenchScreenCPUOnlySmallGolden(t *testing.T) {
	view := benchProgram(t, false, 50, 14, interleave(recordedEvents(t, "cpu_torch.jsonl"), nil, true), "no CUDA build")
	assertFits(t, view, 50, 14)
	golden.RequireEqual(t, []byte(view))
}

func assertFits(t *testing.T, view string, w, h int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) > h {
		t.Errorf("%d lines in a %d-line window", len(lines), h)
	}
	for i, l := range lines {
		if lipgloss.Width(l) > w {
			t.Errorf("line %d is %d wide: %q", i, lipgloss.Width(l), l)
		}
	}
}

// The feed's commands re-arm: every message read from a channel comes with the next read.
func TestBenchFeedRearms(t *testing.T) {
	events := make(chan bench.Event, 4)
	samples := make(chan []gpu.Sample, 4)
	m := NewBenchModel(testCommon(nil, false), BenchOptions{}, BenchFeed{Events: events, Samples: samples})
	events <- bench.Step{Name: "matmul cuda fp32 4096"}
	close(events)
	samples <- []gpu.Sample{{Index: 0, UtilizationPct: 97}}
	close(samples)
	feed := m.feed
	var got []tea.Msg
	for cmd := feed.NextEvent(); cmd != nil; {
		msg := cmd()
		got = append(got, msg)
		_, cmd = m.Update(msg)
	}
	for cmd := feed.NextSamples(); cmd != nil; {
		msg := cmd()
		got = append(got, msg)
		_, cmd = m.Update(msg)
	}
	if len(got) != 4 {
		t.Fatalf("messages: %#v", got)
	}
	if _, ok := got[1].(BenchClosedMsg); !ok {
		t.Fatalf("after the last event: %#v", got[1])
	}
	if m.current != "" || m.last == nil || m.last.UtilizationPct != 97 {
		t.Fatalf("state: current %q last %+v", m.current, m.last)
	}
}

// endedAfter feeds events to the screen, then the end of the stream; it returns the view and the
// verdict.
func endedAfter(t *testing.T, events []bench.Event) (string, string) {
	t.Helper()
	m := NewBenchModel(testCommon(nil, false), BenchOptions{Framework: "torch"}, BenchFeed{})
	m.SetSize(100, 30)
	for _, e := range events {
		m.Update(BenchEventMsg{Event: e})
	}
	m.Update(BenchClosedMsg{})
	s, ok := m.Summary()
	if !ok {
		t.Fatal("no summary after the stream closed")
	}
	return m.View(), s.Verdict
}

// stateIs reports whether the results column's status line (a line that starts with it) reads state.
func stateIs(view, state string) bool {
	for _, l := range strings.Split(view, "\n") {
		if strings.HasPrefix(l, state+" ") {
			return true
		}
	}
	return false
}

// A stream that ends with neither the script's "done" nor Run's summary used to read "finished  ✗
// the benchmark has not finished". Now the status and the verdict agree: it stopped, and its last
// words say why.
func TestBenchStreamEndingEarlySaysStopped(t *testing.T) {
	crash := recordedEvents(t, "crash_midrun.jsonl")
	for _, c := range []struct {
		name   string
		events []bench.Event
		want   string
	}{
		{"nothing at all", nil, "the benchmark stopped before it finished; press r to run it again"},
		{"cut off mid-run", crash, "the benchmark stopped before it finished (during matmul cuda fp32 4096); last output: Fatal Python error: Segmentation fault"},
	} {
		t.Run(c.name, func(t *testing.T) {
			view, verdict := endedAfter(t, c.events)
			if verdict != c.want {
				t.Fatalf("verdict %q, want %q", verdict, c.want)
			}
			if !stateIs(view, "stopped") || stateIs(view, "finished") || strings.Contains(view, "has not finished") {
				t.Fatalf("status and verdict disagree:\n%s", view)
			}
		})
	}
	// Run's summary of a crash: "stopped", with Run's words.
	tally := bench.NewTally("torch")
	for _, e := range crash {
		tally.Add(e)
	}
	tally.Fail(bench.KindCrash, "Python exited with code 139 during matmul cuda fp32 4096")
	view, verdict := endedAfter(t, append(append([]bench.Event{}, crash...), bench.Finished{Summary: tally.Summary()}))
	if !stateIs(view, "stopped") || !strings.HasPrefix(verdict, "the benchmark crashed") {
		t.Fatalf("a crash reads as stopped (verdict %q):\n%s", verdict, view)
	}
	// A complete run without Run's summary (the script's own "done"): finished, and the verdict is good.
	view, verdict = endedAfter(t, recordedEvents(t, "h200_torch.jsonl"))
	if !stateIs(view, "finished") || !strings.HasPrefix(verdict, "the GPU is doing the work") {
		t.Fatalf("a run that said done (verdict %q):\n%s", verdict, view)
	}
}

// The wizard's benchmark screen when the backend's stream ends at once (the run could not start).
func TestWizardBenchmarkStoppedAtOnce(t *testing.T) {
	fb := newFakeBackend()
	fb.benchEvents, fb.benchCutOff = []bench.Event{}, true
	m := newJourneyToPlan(t, fb)
	press(t, m, "y", "enter", "b")
	v := strings.Join(strings.Fields(m.View()), " ")
	mustContain(t, v, "stopped ✗ the benchmark stopped before it finished")
	if strings.Contains(v, "has not finished") {
		t.Fatalf("old words:\n%s", v)
	}
}

// ? on the benchmark screen inside the wizard used to toggle the root's hidden help: the body shrank
// by two lines and the benchmark's own help line stayed as it was. Now the help bar is the root's:
// ? opens the benchmark's full help there, the screen is fitted to what is left, and ? closes it.
func TestWizardBenchmarkFullHelp(t *testing.T) {
	m := newJourneyToPlan(t, newFakeBackend())
	press(t, m, "y", "enter", "b")
	bs := topIs[*benchScreen](t, m)
	if bs.model == nil || !bs.model.over() {
		t.Fatal("the recorded run did not end")
	}
	short := m.footer()
	if lipgloss.Height(short) != 1 || !strings.Contains(short, "r run again · esc back · q quit · ? more keys") {
		t.Fatalf("short help: %q", short)
	}
	press(t, m, "?")
	full := m.footer()
	lines := strings.Split(full, "\n")
	words := func(i int) string { return strings.Join(strings.Fields(lines[i]), " ") }
	if len(lines) != 3 || words(0) != "r run again esc back" || words(1) != "q quit" || words(2) != "? more keys" {
		t.Fatalf("full help: the benchmark's column, then the global one:\n%s", full)
	}
	if bs.model.height != 24-3-3 { // the title, its rule and the empty last row; the three lines of full help
		t.Fatalf("the benchmark was not fitted above the full help: height %d", bs.model.height)
	}
	view := m.View()
	assertFits(t, view, 80, 24)
	if !strings.HasSuffix(strings.TrimRight(view, " \n"), strings.TrimSpace(lines[2])) {
		t.Fatalf("the full help is not the last thing drawn:\n%s", view)
	}
	mustContain(t, view, "GPU processes", "r run again")
	press(t, m, "?")
	if m.footer() != short || bs.model.height != 24-3-1 {
		t.Fatalf("? again: footer %q, height %d", m.footer(), bs.model.height)
	}
}

// r after a run is a new benchmark screen: what the old run still sends finds no receiver (this was
// the runID guard).
func TestBenchRunAgainIsANewScreen(t *testing.T) {
	fb := newFakeBackend()
	m := newJourneyToPlan(t, fb)
	press(t, m, "y", "enter", "b")
	old := topIs[*benchScreen](t, m)
	depth := len(m.stack)
	press(t, m, "r")
	again := topIs[*benchScreen](t, m)
	if again == old || again.id == old.id || len(m.stack) != depth {
		t.Fatalf("r: same screen %v, stack %d (was %d)", again == old, len(m.stack), depth)
	}
	before := again.model.tally.Summary().Steps
	settle(t, m, BenchEventMsg{addr: addr{old.id}, Event: bench.Step{Name: "matmul cuda fp32 2048"}})
	if again.model.tally.Summary().Steps != before || again.model.current != "" {
		t.Fatal("the old run's event reached the new screen")
	}
}

// Issue: under --simulate the charts drew made-up readings (GPU busy 83 %, 128 W) beside "no device"
// as if measured. A reading marked Simulated says it is made up, on the live line and every chart.
func TestMadeUpReadingsAreNeverShownAsMeasured(t *testing.T) {
	c := testCommon(nil, false)
	m := NewBenchModel(c, BenchOptions{Framework: "torch"}, BenchFeed{})
	m.SetSize(120, 36)
	m.Update(GPUSamplesMsg{Samples: []gpu.Sample{{Time: time.Unix(100, 0), UtilizationPct: 83, MemoryUsedMiB: 4490, MemoryTotalMiB: 12288, TemperatureC: 69, PowerW: 128, Simulated: true}}})
	v := m.View()
	if n := strings.Count(v, "(made "); n < 5 || strings.Contains(v, "83 %") {
		t.Errorf("%d charts say their reading is made up, want 5:\n%s", n, v)
	}
	m = NewBenchModel(c, BenchOptions{Framework: "torch"}, BenchFeed{})
	m.SetSize(58, 30) // the narrow layout shows the live line
	m.Update(GPUSamplesMsg{Samples: []gpu.Sample{{Time: time.Unix(100, 0), UtilizationPct: 83, Simulated: true}}})
	if v := m.View(); !strings.Contains(v, "made up by --simulate") {
		t.Errorf("the live line shows a made-up reading as measured:\n%s", v)
	}
}
