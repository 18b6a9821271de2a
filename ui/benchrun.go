package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"

	tea "github.com/charmbracelet/bubbletea"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

// RunBench shows the live benchmark screen alone (`gpuwiz bench --tui`): the wizard's benchmark
// screen on a Common of its own, under the same title and help bar. r runs it again; q leaves and
// the last run's verdict is printed.
func RunBench(ctx context.Context, env *app.Env, python, framework string, opts app.BenchOptions) int {
	if _, ok := app.Terminal(os.Stdout); !ok {
		fmt.Fprintln(os.Stderr, i18n.T("ui.bench.needs_terminal"))
		return app.ExitUsage
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	configureLipgloss(env.G.NoColor)
	c := NewCommon(ctx, *env.G, nil)
	c.Simulated = false // the benchmark is real even with --simulate: it only has no live readings
	runs := &benchRuns{}
	start := func(ctx context.Context) (BenchFeed, string, error) {
		return runs.start(ctx, env, app.BenchRequest{Python: python, Framework: framework, Options: opts})
	}
	m := newBenchRoot(c, func() screen { return newBenchScreen(c, opts.GPU, start) })
	_, err := tea.NewProgram(m, tea.WithContext(ctx), tea.WithAltScreen()).Run()
	cancel()
	s, ran := runs.wait()
	if err != nil {
		return app.ExitInterrupted
	}
	if !ran {
		fmt.Println(i18n.T("ui.bench.did_not_run"))
		return app.ExitFailure
	}
	fmt.Println(i18n.T("ui.bench.verdict", i18n.D{"Verdict": s.Verdict}))
	if !s.OK {
		return app.ExitFailure
	}
	return app.ExitOK
}

// newBenchRoot is a root holding only the benchmark screen; newBench makes it again for r.
func newBenchRoot(c *Common, newBench func() screen) *Model {
	m := NewModel(c)
	m.newBench = newBench
	m.stack = []screen{newBench()}
	return m
}

// benchRuns are the runs `bench --tui` started: wait returns once every one has stopped, with the
// summary of the last one started.
type benchRuns struct {
	mu     sync.Mutex
	wg     sync.WaitGroup
	closed bool
	n      int // runs started
	lastN  int // the run whose summary last is
	last   app.BenchSummary
}

func (r *benchRuns) start(ctx context.Context, env *app.Env, req app.BenchRequest) (BenchFeed, string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return BenchFeed{}, "", context.Canceled
	}
	run, err := env.StartBench(ctx, req)
	if err != nil {
		return BenchFeed{}, "", err
	}
	r.n++
	n := r.n
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		s, err := run.Wait()
		switch {
		case errors.Is(err, context.Canceled) && !s.OK:
			// The user left the screen (q, ctrl+c) while it ran: the killed Python is not a crash.
			s.Verdict = i18n.T("ui.bench.left")
		case err != nil && s.Verdict == "":
			s.Verdict = i18n.T("ui.bench.could_not_run", i18n.D{"Err": err.Error()})
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		if n >= r.lastN {
			r.lastN, r.last = n, s
		}
	}()
	return BenchFeed{Events: run.Events, Samples: run.Samples}, run.Framework, nil
}

func (r *benchRuns) wait() (app.BenchSummary, bool) {
	r.mu.Lock()
	r.closed = true
	r.mu.Unlock()
	r.wg.Wait()
	return r.last, r.lastN > 0
}
