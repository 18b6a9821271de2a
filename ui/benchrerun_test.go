package ui

import (
	"context"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"gpuwiz/steps/bench"
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
