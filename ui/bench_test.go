package ui

import (
	"bufio"
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

// benchProgram runs the screen at w×h, sending the recorded messages in a fixed order so the
// final frame is deterministic, and returns the final view.
func benchProgram(t *testing.T, opts BenchOptions, w, h int, msgs []tea.Msg, wait string) string {
	t.Helper()
	lipgloss.SetColorProfile(termenv.Ascii)
	m := NewBenchModel(opts, BenchFeed{})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, h))
	for _, msg := range msgs {
		tm.Send(msg)
	}
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return strings.Contains(string(b), wait) },
		teatest.WithDuration(10*time.Second))
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*BenchModel)
	return final.View()
}

// interleave sends the events with samples in between, as a real run would.
func interleave(events []bench.Event, samples [][]gpu.Sample, closeEvents bool) []tea.Msg {
	var msgs []tea.Msg
	si := 0
	for i, e := range events {
		msgs = append(msgs, BenchEventMsg{e})
		for ; si < len(samples) && si*len(events) < (i+1)*len(samples); si++ {
			msgs = append(msgs, GPUSamplesMsg{samples[si]})
		}
	}
	for ; si < len(samples); si++ {
		msgs = append(msgs, GPUSamplesMsg{samples[si]})
	}
	if closeEvents {
		msgs = append(msgs, BenchClosedMsg{})
	}
	return msgs
}

func TestBenchScreenH200Golden(t *testing.T) {
	events := recordedEvents(t, "h200_torch.jsonl")
	view := benchProgram(t, BenchOptions{Framework: "torch"}, 80, 24,
		interleave(events, recordedSamples(t), true), "run again")
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
	view := benchProgram(t, BenchOptions{Framework: "torch", ASCII: true, NoColor: true}, 80, 24,
		interleave(half, recordedSamples(t)[:24], false), "matmul cuda fp32 8192")
	for _, r := range view {
		if r > 127 {
			t.Fatalf("--ascii view has %q:\n%s", r, view)
		}
	}
	assertFits(t, view, 80, 24)
	golden.RequireEqual(t, []byte(view))
}

func TestBenchScreenCPUOnlySmallGolden(t *testing.T) {
	view := benchProgram(t, BenchOptions{Framework: "torch"}, 50, 14,
		interleave(recordedEvents(t, "cpu_torch.jsonl"), nil, true), "no CUDA build")
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
	m := NewBenchModel(BenchOptions{}, BenchFeed{Events: events, Samples: samples})
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
