package ui

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"gpuwiz/steps/app"
	"gpuwiz/steps/bench"
	"gpuwiz/steps/i18n"
)

// `gpuwiz bench --tui` holds the benchmark screen alone: r after a run swapped it for a new one by
// popping the only screen first, and the root then read the top of an empty stack (index out of
// range). r must give a fresh screen with a fresh run, as often as asked.
func TestBenchTUIRunAgain(t *testing.T) {
	c := testCommon(nil, false)
	c.Simulated = false
	runs := 0
	start := func(context.Context) (BenchFeed, string, error) {
		runs++
		events := make(chan bench.Event, 1)
		events <- bench.Step{Name: "matmul cuda fp32 2048"}
		close(events)
		return BenchFeed{Events: events}, "torch", nil
	}
	m := newBenchRoot(c, func() screen { return newBenchScreen(c, 0, start) })
	settle(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
	settle(t, m, m.Init()())
	for i := 1; i <= 3; i++ {
		old := topIs[*benchScreen](t, m)
		if old.model == nil || !old.model.over() {
			t.Fatalf("run %d did not end", i)
		}
		press(t, m, "r")
		again := topIs[*benchScreen](t, m)
		if again == old || len(m.stack) != 1 || runs != i+1 {
			t.Fatalf("r #%d: same screen %v, stack %d, runs %d", i, again == old, len(m.stack), runs)
		}
		_ = m.View()
	}
}

// Leaving `bench --tui` while a run is going kills its Python: the verdict printed after the screen
// says so, in the user's language, instead of "the benchmark crashed: Python exited with code -1".
func TestBenchTUILeavingMidRunIsNoCrash(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	stub, _ := filepath.Abs(filepath.Join("..", "testdata", "bench", "stub"))
	t.Setenv("PYTHONPATH", stub)
	t.Setenv("PYTHONDONTWRITEBYTECODE", "1")
	t.Setenv("GPUWIZ_TORCH_STUB", "hang")
	for _, lang := range []i18n.Lang{i18n.English, i18n.Chinese} {
		i18n.Set(lang)
		t.Cleanup(func() { i18n.Set(i18n.English) })
		runs := &benchRuns{}
		ctx, cancel := context.WithCancel(context.Background())
		env := &app.Env{G: &app.Globals{SimulateFile: filepath.Join("..", "ui", "testdata", "e2e", "rig-rtx3060.json")}} // no live readings
		feed, _, err := runs.start(ctx, env, app.BenchRequest{Python: python, Framework: "torch", Options: bench.Options{Quick: true, Timeout: time.Minute}})
		if err != nil {
			t.Fatal(err)
		}
		for e := range feed.Events {
			if _, ok := e.(bench.Step); ok {
				break // it is running
			}
		}
		cancel()
		go func() {
			for range feed.Events {
			}
		}()
		s, ran := runs.wait()
		want := map[i18n.Lang]string{i18n.English: "the benchmark was stopped before it finished: the screen was closed",
			i18n.Chinese: "性能测试没有跑完：界面已关闭，测试被中途停止"}[lang]
		if !ran || s.OK || s.Verdict != want {
			t.Errorf("%s: ran %v, ok %v, verdict %q", lang, ran, s.OK, s.Verdict)
		}
	}
}
