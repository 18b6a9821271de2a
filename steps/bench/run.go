package bench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/runner"
)

// Options tune one benchmark run; zero timeouts take the defaults below.
type Options struct {
	Quick bool
	GPU   int
	// StartTimeout bounds the wait for the script's first line (the interpreter starts).
	StartTimeout time.Duration
	// ImportTimeout bounds the framework import and device query (slow on a cold Windows disk).
	ImportTimeout time.Duration
	// StallTimeout bounds the silence between two events once the device answered.
	StallTimeout time.Duration
	// Timeout bounds the whole run.
	Timeout time.Duration
}

func (o Options) withDefaults() Options {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&o.StartTimeout, 20*time.Second)
	def(&o.ImportTimeout, 120*time.Second)
	def(&o.StallTimeout, 120*time.Second)
	if o.Quick {
		def(&o.Timeout, 3*time.Minute)
	} else {
		def(&o.Timeout, 10*time.Minute)
	}
	return o
}

// Frameworks are the frameworks with a benchmark script.
var Frameworks = []string{"torch", "paddle"}

// Run runs framework's benchmark with python and returns what it proved. Each event is also sent
// on events (when not nil; Run closes it on return, so the reader must keep draining it). The error
// is only for a run that could not be attempted or was cancelled; a failed benchmark is a Summary
// with OK false and the reason in Verdict.
func Run(ctx context.Context, r runner.Runner, python, framework string, opts Options, events chan<- Event) (Summary, error) {
	if events != nil {
		defer close(events)
	}
	started := time.Now()
	script, err := Script(framework)
	if err != nil {
		return Summary{}, err
	}
	opts = opts.withDefaults()
	dir, err := os.MkdirTemp("", "gpuwiz-bench-")
	if err != nil {
		return Summary{}, fmt.Errorf("%s: %w", i18n.T("bench.write_script"), err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "bench_"+framework+".py")
	if err := os.WriteFile(path, script, 0o644); err != nil {
		return Summary{}, fmt.Errorf("%s: %w", i18n.T("bench.write_script"), err)
	}
	argv := []string{python, "-u", path, "--gpu", strconv.Itoa(opts.GPU)}
	if opts.Quick {
		argv = append(argv, "--quick")
	}
	env := childEnv(os.Environ())

	runCtx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	lines := make(chan runner.Line, 1024)
	exited := make(chan runner.Result, 1)
	go func() {
		res := r.Run(runCtx, runner.Cmd{Argv: argv, Env: env, Name: i18n.T("bench.label", i18n.D{"Framework": framework})}, lines)
		close(lines) // Run never closes lines; this goroutine owns the channel
		exited <- res
	}()

	t := NewTally(framework)
	phase, limit := "start", opts.StartTimeout
	watchdog := time.NewTimer(limit)
	defer watchdog.Stop()
	var timedOut string
	send := func(e Event) {
		if events == nil {
			return
		}
		select {
		case events <- e:
		case <-ctx.Done():
		}
	}
read:
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				break read
			}
			var e Event = Log{Line: line.Text}
			if line.Stream != "stderr" { // the protocol is on stdout; stderr carries warnings and tracebacks
				e = ParseLine([]byte(line.Text))
			}
			t.Add(e)
			send(e)
			if _, isLog := e.(Log); isLog {
				continue // framework chatter does not prove progress
			}
			switch e.(type) {
			case Hello:
				phase, limit = "import", opts.ImportTimeout
			case Device, Step, Result, Check:
				phase, limit = "run", opts.StallTimeout
			}
			if !watchdog.Stop() {
				select {
				case <-watchdog.C:
				default:
				}
			}
			watchdog.Reset(limit)
		case <-watchdog.C:
			timedOut = silenceWords(phase, t.s.LastStep, limit.Round(time.Second))
			cancel()
			watchdog.Reset(time.Hour)
		case <-runCtx.Done():
			if timedOut == "" && ctx.Err() == nil {
				timedOut = i18n.T("bench.timeout.total", i18n.D{"Limit": opts.Timeout.Round(time.Second)})
			}
			// keep reading: the runner closes lines once the process is gone
		}
	}
	res := <-exited
	s := finish(t, res, timedOut, python)
	s.Elapsed = time.Since(started)
	send(Finished{Summary: s})
	if ctx.Err() != nil {
		return s, ctx.Err()
	}
	return s, nil
}

// silenceWords says how long the script was silent, and in which phase.
func silenceWords(phase, lastStep string, limit time.Duration) string {
	switch {
	case phase == "start":
		return i18n.T("bench.timeout.start", i18n.D{"Limit": limit})
	case phase == "import":
		return i18n.T("bench.timeout.import", i18n.D{"Limit": limit})
	case lastStep != "":
		return i18n.T("bench.timeout.step", i18n.D{"Limit": limit, "Step": lastStep})
	}
	return i18n.T("bench.timeout.running", i18n.D{"Limit": limit})
}

func finish(t *Tally, res runner.Result, timedOut, python string) Summary {
	code := res.ExitCode
	var exitErr *runner.ExitCodeError
	switch {
	case timedOut != "":
		t.Fail(KindTimeout, timedOut)
	case !t.Done() && t.s.PID == 0 && res.Err != nil && !errors.As(res.Err, &exitErr):
		t.Fail(KindNoPython, fmt.Sprintf("%s: %v", python, res.Err))
	case !t.Done() && t.s.PID == 0:
		t.Fail(KindNoPython, withLastLog(t, i18n.T("bench.fail.no_start", i18n.D{"Python": python, "Code": code})))
	case !t.Done() && t.s.LastStep != "":
		t.Fail(KindCrash, withLastLog(t, i18n.T("bench.fail.exited_during", i18n.D{"Code": code, "Step": t.s.LastStep})))
	case !t.Done():
		t.Fail(KindCrash, withLastLog(t, i18n.T("bench.fail.exited", i18n.D{"Code": code})))
	}
	s := t.Summary()
	s.ExitCode = code
	return s
}

// withLastLog adds the last line the script printed outside the protocol to failure, when there is one.
func withLastLog(t *Tally, failure string) string {
	if len(t.s.Log) == 0 {
		return failure
	}
	return i18n.T("bench.fail.last_output", i18n.D{"Failure": failure, "Output": strings.TrimSpace(t.s.Log[len(t.s.Log)-1])})
}

// ErrUnknownFramework is returned for a framework without a benchmark script (errors.Is matches
// it; the error names the framework asked for).
var ErrUnknownFramework error = unknownFramework("")

type unknownFramework string

func (u unknownFramework) Error() string {
	if u == "" {
		return i18n.T("bench.unknown_framework")
	}
	return i18n.T("bench.unknown_framework_named", i18n.D{"Framework": strconv.Quote(string(u))})
}

func (u unknownFramework) Is(target error) bool { return target == ErrUnknownFramework }

// childEnv is the benchmark's environment: unbuffered, ASCII-safe output whatever the console's code
// page; no user site-packages shadowing the venv; and CUDA numbering the cards as NVML does, so
// --gpu N is the card `gpuwiz gpu` lists as N and the sampler charts the card doing the work.
// CUDA's default order is fastest first (a 3090 next to a 1060 is cuda:0 wherever it sits), and
// CUDA_VISIBLE_DEVICES would renumber what is left, so the child gets PCI bus order and every card.
func childEnv(environ []string) []string {
	env := make([]string, 0, len(environ)+5)
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		switch strings.ToUpper(k) {
		case "CUDA_DEVICE_ORDER", "CUDA_VISIBLE_DEVICES":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "PYTHONUNBUFFERED=1", "PYTHONIOENCODING=utf-8", "PYTHONNOUSERSITE=1", "CUDA_DEVICE_ORDER=PCI_BUS_ID")
}
