package ui

import (
	"context"
	"fmt"
	"os"

	tea "github.com/charmbracelet/bubbletea"
	"golang.org/x/term"

	"gpuwiz/steps/bench"
	"gpuwiz/steps/cli"
	"gpuwiz/steps/gpu"
	"gpuwiz/steps/runner"
)

// RunBench shows the live benchmark screen alone (`gpuwiz bench --tui`): the benchmark of python's
// framework with the GPU sampler beside it, then the summary; q leaves.
func RunBench(ctx context.Context, env *cli.Env, python, framework string, opts bench.Options) int {
	if !term.IsTerminal(int(os.Stdout.Fd())) {
		fmt.Fprintln(os.Stderr, "gpuwiz: the benchmark screen needs a terminal; use `gpuwiz bench --json` in scripts")
		return cli.ExitUsage
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	configureLipgloss(env.G.NoColor)
	events := make(chan bench.Event, 64)
	feed := BenchFeed{Events: events}
	sampleCtx, stopSampling := context.WithCancel(ctx)
	if p, err := env.GPUProber(); err == nil && env.G.SimulateFile == "" {
		feed.Samples = gpu.Watch(sampleCtx, p, benchSampleEvery)
	}
	done := make(chan bench.Summary, 1)
	go func() {
		defer stopSampling()
		s, _ := bench.Run(ctx, runner.New(nil), python, framework, opts, events)
		done <- s
	}()
	m := NewBenchModel(BenchOptions{Framework: framework, GPU: opts.GPU, ASCII: env.G.ASCII, NoColor: env.G.NoColor}, feed)
	if _, err := tea.NewProgram(m, tea.WithContext(ctx), tea.WithAltScreen()).Run(); err != nil {
		cancel()
		return cli.ExitInterrupted
	}
	cancel()
	s := <-done
	fmt.Println("verdict:", s.Verdict)
	if !s.OK {
		return cli.ExitFailure
	}
	return cli.ExitOK
}
