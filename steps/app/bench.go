package app

import (
	"context"
	"time"

	"gpuwiz/steps/bench"
	"gpuwiz/steps/gpu"
	"gpuwiz/steps/runner"
)

// BenchSampleEvery is the live readings' period during a benchmark (4 Hz, as the live screen draws them).
const BenchSampleEvery = 250 * time.Millisecond

// BenchRequest asks for one benchmark run in an environment's Python.
type BenchRequest struct {
	Python    string
	Framework string // "torch" or "paddle"; "" asks the Python which one it holds
	Options   bench.Options
	// SimulatedReadings: under --simulate, sample the simulated cards (the wizard draws them);
	// otherwise a simulated machine has no live readings.
	SimulatedReadings bool
}

// BenchSampler is where a run's live GPU readings come from, or why there are none.
type BenchSampler struct {
	Backend   string // the GPU probe's backend when there is a sampler
	Simulated bool   // --simulate: no live readings
	NoDriver  string // the probe's message when no driver answered
	Err       error  // the probe failed
}

// BenchRun is a benchmark started by StartBench: its events and live readings (each channel closes
// when the run ends; Samples is nil without readings), then Wait for its summary.
type BenchRun struct {
	Framework string
	Events    <-chan bench.Event
	Samples   <-chan []gpu.Sample
	Sampler   BenchSampler
	done      chan struct{}
	summary   bench.Summary
	err       error
}

// Wait returns the run's summary once it has ended and its readings have stopped.
func (r *BenchRun) Wait() (bench.Summary, error) {
	<-r.done
	return r.summary, r.err
}

// StartBench starts the benchmark session both front ends show: the framework detected when not
// given, the GPU sampled every BenchSampleEvery beside the run, the run's events as they come.
func (e *Env) StartBench(ctx context.Context, req BenchRequest) (*BenchRun, error) {
	r := runner.New(nil)
	if req.Framework == "" {
		fw, err := bench.DetectFramework(ctx, r, req.Python)
		if err != nil {
			return nil, err
		}
		req.Framework = fw
	}
	events := make(chan bench.Event, 64)
	run := &BenchRun{Framework: req.Framework, Events: events, done: make(chan struct{})}
	p, sampler := e.benchProber(req.SimulatedReadings)
	run.Sampler = sampler
	sampleCtx, stopSampling := context.WithCancel(ctx)
	if p != nil {
		run.Samples = gpu.Watch(sampleCtx, p, BenchSampleEvery)
	}
	go func() {
		defer close(run.done)
		defer stopSampling() // the readings' channel closes with the benchmark
		run.summary, run.err = bench.Run(ctx, r, req.Python, req.Framework, req.Options, events)
	}()
	return run, nil
}

// benchProber is the GPU sampler for a run; nil, with the reason, when there is none.
func (e *Env) benchProber(simulatedReadings bool) (gpu.Prober, BenchSampler) {
	if e.G.SimulateFile != "" && !simulatedReadings {
		return nil, BenchSampler{Simulated: true}
	}
	p, err := e.GPUProber()
	if err != nil {
		return nil, BenchSampler{Err: err}
	}
	if e.G.SimulateFile != "" {
		return p, BenchSampler{Backend: "simulated"}
	}
	rep, err := e.GPUReport(context.Background())
	switch {
	case err != nil:
		return nil, BenchSampler{Err: err}
	case !rep.Available:
		return nil, BenchSampler{NoDriver: rep.Message}
	}
	return p, BenchSampler{Backend: rep.Backend}
}

// DetectBenchFramework asks the Python which framework it holds ("torch" or "paddle").
func DetectBenchFramework(ctx context.Context, python string) (string, error) {
	return bench.DetectFramework(ctx, runner.New(nil), python)
}
