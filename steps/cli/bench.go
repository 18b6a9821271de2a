package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

// BenchJSON is `gpuwiz bench --json`: the summary plus what the sampler saw while it ran.
type BenchJSON struct {
	app.BenchSummary
	Sampler     string                `json:"sampler"` // "nvml", "nvidia-smi", …, or why there were no readings
	GPUReadings []app.BenchGPUReading `json:"gpu_readings"`
	WallSeconds float64               `json:"wall_seconds"`
	PythonPath  string                `json:"python_path"`
}

func init() { register(80, newBenchCommand) }

// benchOptions is what `gpuwiz bench` was asked (its flags) and where it prints.
type benchOptions struct {
	streams
	Venv, Python string
	Framework    string
	Quick, TUI   bool
	GPU          int
}

func newBenchCommand(env *Env) *cobra.Command {
	return newCommand(env, command[benchOptions]{
		use:   "bench (--venv PATH | --python PATH)", //i18n:raw the command and its syntax, typed as it is
		short: i18n.T("cli.bench.short"),
		long:  i18n.T("cli.bench.long"),
		json:  i18n.T("cli.bench.flag.json"),
		flags: func(cmd *cobra.Command, o *benchOptions) {
			f := cmd.Flags()
			f.Var(newEnvFlag(&o.Venv), "venv", i18n.T("cli.bench.flag.venv"))
			f.StringVar(&o.Python, "python", "", i18n.T("cli.bench.flag.python"))
			f.StringVar(&o.Framework, "framework", "", i18n.T("cli.bench.flag.framework"))
			f.BoolVar(&o.Quick, "quick", false, i18n.T("cli.bench.flag.quick"))
			f.IntVar(&o.GPU, "gpu", 0, i18n.T("cli.bench.flag.gpu"))
			f.BoolVar(&o.TUI, "tui", false, i18n.T("cli.bench.flag.tui"))
		},
		run: benchRun,
	})
}

// benchRun checks the flags, then runs the benchmark in the environment's Python (the live screen
// with --tui).
func benchRun(ctx context.Context, env *Env, o benchOptions) error {
	if (o.Venv == "") == (o.Python == "") {
		return Usagef("%s", i18n.T("cli.bench.venv_or_python"))
	}
	if o.Framework != "" && o.Framework != "torch" && o.Framework != "paddle" {
		return Usagef("%s", i18n.T("cli.bench.bad_framework", i18n.D{"Framework": strconv.Quote(o.Framework)}))
	}
	if o.GPU < 0 {
		return Usagef("%s", i18n.T("cli.bench.bad_gpu", i18n.D{"Index": o.GPU}))
	}
	if err := checkGPUIndex(ctx, env, o.GPU); err != nil {
		return err
	}
	if o.Venv != "" {
		v := app.Venv{Root: o.Venv}
		if !v.Exists() {
			return Usagef("%s", i18n.T("cli.bench.not_venv", i18n.D{"Venv": o.Venv}))
		}
		o.Python = v.Python()
	} else {
		p, err := pythonFlag(o.Python)
		if err != nil {
			return err
		}
		o.Python = p
	}
	opts := app.BenchOptions{Quick: o.Quick, GPU: o.GPU}
	if o.TUI {
		return benchScreenRun(ctx, env, o, opts)
	}
	return benchTextRun(ctx, env, o, opts)
}

// benchTextRun runs the benchmark and prints its events and summary (the summary alone as JSON).
func benchTextRun(ctx context.Context, env *Env, o benchOptions, opts app.BenchOptions) error {
	out, python, framework, asJSON := o.Out, o.Python, o.Framework, o.JSON
	started := time.Now()
	run, err := env.StartBench(ctx, app.BenchRequest{Python: python, Framework: framework, Options: opts})
	if err != nil {
		if ctx.Err() != nil {
			return Exitf(ExitInterrupted, "%s", i18n.T("cli.bench.interrupted"))
		}
		return Exitf(ExitFailure, "%s", i18n.T("cli.bench.failed", i18n.D{"Err": err}))
	}
	watch := app.NewBenchWatch()
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		if run.Samples == nil {
			return // no sampler: nothing to read
		}
		for samples := range run.Samples {
			watch.Add(samples)
		}
	}()
	for e := range run.Events {
		if !asJSON {
			printBenchEvent(out, e)
		}
	}
	s, err := run.Wait()
	<-sampled
	if errors.Is(err, context.Canceled) || ctx.Err() != nil {
		return Exitf(ExitInterrupted, "%s", i18n.T("cli.bench.interrupted"))
	}
	if err != nil {
		return Exitf(ExitFailure, "%s", i18n.T("cli.bench.failed", i18n.D{"Err": err}))
	}
	sampler := benchSampler(run.Sampler)
	if asJSON {
		doc := BenchJSON{BenchSummary: s, Sampler: sampler.in(i18n.English), GPUReadings: watch.Readings(s.PID),
			WallSeconds: time.Since(started).Seconds(), PythonPath: python}
		if err := writeJSON(out, doc); err != nil {
			return err
		}
	} else {
		printBenchSummary(out, s, watch.Readings(s.PID), sampler.in(i18n.Current()))
	}
	return benchExit(s)
}

// benchExit maps a summary to the documented exit code.
func benchExit(s app.BenchSummary) error {
	switch {
	case s.OK:
		return nil
	case s.Failure == nil: // finished, but a check failed
		return Silent(ExitVerifyFailed)
	default:
		return Silent(ExitFailure)
	}
}

// benchSampler words the session's sampler of a run, or why there was none.
type benchSampler app.BenchSampler

// in is the sampler's name, or why there was none, in language l. --json's "sampler" is always the
// English ("gpu probe (nvml)", "none (...)"), so a script reads the same in every language.
func (s benchSampler) in(l i18n.Lang) string {
	switch {
	case s.Simulated:
		return i18n.In(l, "cli.bench.sampler.simulated")
	case s.Err != nil:
		return i18n.In(l, "cli.bench.sampler.error", i18n.D{"Err": s.Err})
	case s.Backend == "":
		return i18n.In(l, "cli.bench.sampler.no_driver", i18n.D{"Message": s.NoDriver})
	}
	return "gpu probe (" + s.Backend + ")" //i18n:raw the sampler's name, as --json has it
}

func printBenchEvent(w io.Writer, e app.BenchEvent) {
	switch v := e.(type) {
	case app.BenchHello:
		fmt.Fprintln(w, i18n.T("cli.bench.hello", i18n.D{"Version": v.Python, "PID": v.PID, "Framework": v.Framework}))
	case app.BenchDevice:
		free := i18n.T("cli.bench.free", i18n.D{"Free": v.FreeMiB, "Total": v.TotalMiB})
		if v.FreeGuess {
			free = i18n.T("cli.bench.free_guess", i18n.D{"Total": v.TotalMiB, "Free": v.FreeMiB})
		}
		fmt.Fprintln(w, i18n.T("cli.bench.device", i18n.D{"Framework": v.Framework, "Version": v.Version, "CUDA": v.CUDA,
			"Index": v.Index, "Name": v.Name, "Capability": v.Capability, "Memory": free, "TF32": onOff(v.TF32)}))
	case app.BenchStep:
		fmt.Fprintf(w, "  %-28s ", v.Name)
	case app.BenchResult:
		if v.Op == "copy" {
			fmt.Fprintf(w, "%8.1f GB/s   (%.3f ms)\n", v.GBps, v.MS)
		} else {
			fmt.Fprintf(w, "%8.2f TFLOPS (%.3f ms)\n", v.TFLOPS, v.MS)
		}
	case app.BenchCheck:
		relErr, limit := fmt.Sprintf("%.2g", v.RelErr), fmt.Sprintf("%.0g", v.Threshold)
		if v.OK {
			fmt.Fprintln(w, i18n.T("cli.bench.check_ok", i18n.D{"Err": relErr, "Limit": limit}))
		} else {
			fmt.Fprintln(w, i18n.T("cli.bench.check_wrong", i18n.D{"Err": relErr, "Limit": limit}))
		}
	case app.BenchOOM:
		if v.RetryN > 0 {
			fmt.Fprint(w, i18n.T("cli.bench.oom_retry", i18n.D{"N": v.N, "RetryN": v.RetryN}))
		} else {
			fmt.Fprintln(w, i18n.T("cli.bench.oom", i18n.D{"N": v.N}))
		}
	case app.BenchSkip:
		fmt.Fprintf(w, "  %s\n", i18n.T("cli.bench.skipped", i18n.D{"Op": v.Op, "DType": v.DType, "N": v.N, "Reason": v.Reason}))
	case app.BenchFailure:
		fmt.Fprintf(w, "\n%s\n", i18n.T("cli.bench.error", i18n.D{"Code": v.Kind, "Message": v.Words()}))
	}
}

func onOff(b bool) string {
	if b {
		return i18n.T("cli.bench.on")
	}
	return i18n.T("cli.bench.off")
}

func printBenchSummary(w io.Writer, s app.BenchSummary, readings []app.BenchGPUReading, sampler string) {
	fmt.Fprintln(w)
	if s.SpeedupFP32 > 0 {
		fmt.Fprintln(w, i18n.T("cli.bench.speedup", i18n.D{"Times": fmt.Sprintf("%.0f", s.SpeedupFP32)}))
	}
	for _, dt := range app.BenchDTypes(s.TFLOPS) {
		fmt.Fprintf(w, "%-5s %8.1f TFLOPS\n", dt, s.TFLOPS[dt])
	}
	if s.CopyGBps > 0 {
		fmt.Fprintln(w, i18n.T("cli.bench.copy", i18n.D{"GBps": fmt.Sprintf("%8.0f", s.CopyGBps)}))
	}
	for _, r := range readings {
		util, power := fmt.Sprintf("%.0f", r.PeakUtilPct), fmt.Sprintf("%.0f", r.PeakPowerW)
		if r.BenchPIDSeen {
			fmt.Fprintln(w, i18n.T("cli.bench.reading_seen", i18n.D{"Index": r.Index, "Util": util, "Power": power, "Memory": r.PeakMemoryMiB}))
		} else {
			fmt.Fprintln(w, i18n.T("cli.bench.reading_not_seen", i18n.D{"Index": r.Index, "Util": util, "Power": power, "Memory": r.PeakMemoryMiB}))
		}
	}
	if len(readings) == 0 {
		fmt.Fprintln(w, i18n.T("cli.bench.live_readings", i18n.D{"Sampler": sampler}))
	}
	if len(s.Log) > 0 && !s.OK {
		fmt.Fprintln(w, i18n.T("cli.bench.last_output"))
		fmt.Fprintf(w, "  %s\n", strings.Join(s.Log[max(0, len(s.Log)-5):], "\n  "))
	}
	fmt.Fprintln(w, i18n.T("cli.bench.verdict", i18n.D{"Verdict": s.Verdict, "Seconds": fmt.Sprintf("%.1f", s.Elapsed.Seconds())}))
}

// benchScreenRun shows the wizard's live benchmark screen on its own.
func benchScreenRun(ctx context.Context, env *Env, o benchOptions, opts app.BenchOptions) error {
	python, framework := o.Python, o.Framework
	if env.Build.BenchScreen == nil {
		return Exitf(ExitFailure, "%s", i18n.T("cli.bench.no_screen"))
	}
	if framework == "" {
		fw, err := app.DetectBenchFramework(ctx, python)
		if err != nil {
			return Exitf(ExitFailure, "%s", i18n.T("cli.bench.failed", i18n.D{"Err": err}))
		}
		framework = fw
	}
	return endWith(env.Build.BenchScreen(ctx, env.Env, python, framework, opts))
}

// checkGPUIndex refuses a --gpu the probe does not list, naming the cards there are. With no
// probe answer (no driver, a CPU-only build) the benchmark itself reports what is wrong.
func checkGPUIndex(ctx context.Context, env *Env, index int) error {
	r, err := env.GPUReport(ctx)
	if err != nil || !r.Available || len(r.GPUs) == 0 {
		return nil
	}
	var cards []string
	for _, g := range r.GPUs {
		if g.Index == index {
			return nil
		}
		cards = append(cards, fmt.Sprintf("%d (%s)", g.Index, g.Name))
	}
	return Usagef("%s", i18n.N("cli.bench.no_such_gpu", len(cards), i18n.D{"Index": index, "Cards": i18n.Join(cards)}))
}
