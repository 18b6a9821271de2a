package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"gpuwiz/steps/bench"
	"gpuwiz/steps/gpu"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
)

// benchSampleEvery is the sampler's period during a benchmark (≥ 4 Hz, as the live screen draws it).
const benchSampleEvery = 250 * time.Millisecond

// BenchJSON is `gpuwiz bench --json`: the summary plus what the sampler saw while it ran.
type BenchJSON struct {
	bench.Summary
	Sampler     string             `json:"sampler"` // "nvml", "nvidia-smi", …, or why there were no readings
	GPUReadings []bench.GPUReading `json:"gpu_readings"`
	WallSeconds float64            `json:"wall_seconds"`
	PythonPath  string             `json:"python_path"`
}

func init() { register(80, newBenchCommand) }

func newBenchCommand(env *Env) *cobra.Command {
	var venv, python, framework string
	var asJSON, quick, tui bool
	var gpuIndex int
	cmd := &cobra.Command{
		Use:   "bench (--venv PATH | --python PATH)",
		Short: "Benchmark the GPU with the venv's framework: TFLOPS, GB/s, speedup over the CPU, a verdict",
		Long: "bench runs a matmul and copy benchmark on the GPU with the venv's PyTorch or PaddlePaddle,\n" +
			"checks the answers against a float64 CPU reference and says whether the GPU is doing the work.\n" +
			"Exit codes: 0 the GPU works; 1 could not benchmark (no framework, CPU-only build, no device,\n" +
			"wrong architecture, out of memory, crash, timeout); 4 the GPU gave wrong answers; 2 bad flags.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if (venv == "") == (python == "") {
				return Usagef("give exactly one of --venv PATH or --python PATH")
			}
			if framework != "" && framework != "torch" && framework != "paddle" {
				return Usagef("--framework %q: choose torch or paddle (or leave it out to detect)", framework)
			}
			if gpuIndex < 0 {
				return Usagef("--gpu %d: give a GPU index from `gpuwiz gpu` (0 is the first)", gpuIndex)
			}
			if err := checkGPUIndex(cmd.Context(), env, gpuIndex); err != nil {
				return err
			}
			if venv != "" {
				v := pyenv.Venv{Root: venv}
				if !v.Exists() {
					return Usagef("%s is not a virtual environment (no pyvenv.cfg); pass the venv's folder or use --python", venv)
				}
				python = v.Python()
			}
			opts := bench.Options{Quick: quick, GPU: gpuIndex}
			if tui {
				return runBenchScreen(cmd.Context(), env, python, framework, opts)
			}
			return runBench(cmd.Context(), env, cmd.OutOrStdout(), python, framework, opts, asJSON)
		},
	}
	f := cmd.Flags()
	f.StringVar(&venv, "venv", "", "the virtual environment to benchmark")
	f.StringVar(&python, "python", "", "the Python interpreter to benchmark with (instead of --venv)")
	f.StringVar(&framework, "framework", "", "torch or paddle (default: whichever is installed, torch first)")
	f.BoolVar(&asJSON, "json", false, "print the summary and the sampler's readings as JSON")
	f.BoolVar(&quick, "quick", false, "fewer sizes and repeats")
	f.IntVar(&gpuIndex, "gpu", 0, "the GPU to benchmark: `N` is the index gpuwiz gpu lists (PCI bus order; CUDA_VISIBLE_DEVICES does not apply)")
	f.BoolVar(&tui, "tui", false, "show the live benchmark screen (needs a terminal)")
	return cmd
}

func runBench(ctx context.Context, env *Env, out io.Writer, python, framework string, opts bench.Options, asJSON bool) error {
	started := time.Now()
	r := runner.New(nil)
	if framework == "" {
		fw, err := bench.DetectFramework(ctx, r, python)
		if err != nil {
			if ctx.Err() != nil {
				return Exitf(ExitInterrupted, "interrupted")
			}
			return Exitf(ExitFailure, "could not benchmark: %v", err)
		}
		framework = fw
	}

	watch := bench.NewWatch()
	samplerName := "none"
	sampleCtx, stopSampling := context.WithCancel(ctx)
	samplerDone := make(chan struct{})
	if p, name := benchProber(env); p != nil {
		samplerName = name
		go func() {
			defer close(samplerDone)
			for samples := range gpu.Watch(sampleCtx, p, benchSampleEvery) {
				watch.Add(samples)
			}
		}()
	} else {
		samplerName = name
		close(samplerDone)
	}

	events := make(chan bench.Event, 64)
	printed := make(chan struct{})
	go func() {
		defer close(printed)
		for e := range events {
			if !asJSON {
				printBenchEvent(out, e)
			}
		}
	}()
	s, err := bench.Run(ctx, r, python, framework, opts, events)
	<-printed
	stopSampling()
	<-samplerDone
	if errors.Is(err, context.Canceled) || ctx.Err() != nil {
		return Exitf(ExitInterrupted, "interrupted")
	}
	if err != nil {
		return Exitf(ExitFailure, "could not benchmark: %v", err)
	}
	if asJSON {
		doc := BenchJSON{Summary: s, Sampler: samplerName, GPUReadings: watch.Readings(s.PID),
			WallSeconds: time.Since(started).Seconds(), PythonPath: python}
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(doc); err != nil {
			return err
		}
	} else {
		printBenchSummary(out, s, watch.Readings(s.PID), samplerName)
	}
	return benchExit(s)
}

// benchExit maps a summary to the documented exit code.
func benchExit(s bench.Summary) error {
	switch {
	case s.OK:
		return nil
	case s.Failure == nil: // finished, but a check failed
		return Silent(ExitVerifyFailed)
	default:
		return Silent(ExitFailure)
	}
}

// benchProber is the GPU sampler used during the run; nil (with the reason) when there is none.
// The live readings come from the GPU probe's Prober; --simulate has no live readings.
func benchProber(env *Env) (gpu.Prober, string) {
	if env.G.SimulateFile != "" {
		return nil, "none (--simulate has no live readings)"
	}
	p, err := env.GPUProber()
	if err != nil {
		return nil, "none (" + err.Error() + ")"
	}
	r, err := env.GPUReport(context.Background())
	switch {
	case err != nil:
		return nil, "none (" + err.Error() + ")"
	case !r.Available:
		return nil, "none (no NVIDIA driver answered: " + r.Message + ")"
	}
	return p, "gpu probe (" + r.Backend + ")"
}

func printBenchEvent(w io.Writer, e bench.Event) {
	switch v := e.(type) {
	case bench.Hello:
		fmt.Fprintf(w, "Python %s started (pid %d), importing %s…\n", v.Python, v.PID, v.Framework)
	case bench.Device:
		free := fmt.Sprintf("%d of %d MiB free", v.FreeMiB, v.TotalMiB)
		if v.FreeGuess {
			free = fmt.Sprintf("%d MiB, free memory unknown (planning on %d)", v.TotalMiB, v.FreeMiB)
		}
		fmt.Fprintf(w, "%s %s (CUDA %s) on GPU %d: %s, compute capability %s, %s, TF32 %s\n",
			v.Framework, v.Version, v.CUDA, v.Index, v.Name, v.Capability, free, onOff(v.TF32))
	case bench.Step:
		fmt.Fprintf(w, "  %-28s ", v.Name)
	case bench.Result:
		if v.Op == "copy" {
			fmt.Fprintf(w, "%8.1f GB/s   (%.3f ms)\n", v.GBps, v.MS)
		} else {
			fmt.Fprintf(w, "%8.2f TFLOPS (%.3f ms)\n", v.TFLOPS, v.MS)
		}
	case bench.Check:
		mark := "ok"
		if !v.OK {
			mark = "WRONG"
		}
		fmt.Fprintf(w, "rel err %.2g (limit %.0g) %s\n", v.RelErr, v.Threshold, mark)
	case bench.OOM:
		if v.RetryN > 0 {
			fmt.Fprintf(w, "out of memory at %d, retrying at %d… ", v.N, v.RetryN)
		} else {
			fmt.Fprintf(w, "out of memory at %d\n", v.N)
		}
	case bench.Skip:
		fmt.Fprintf(w, "  skipped %s %s %d: %s\n", v.Op, v.DType, v.N, v.Reason)
	case bench.Failure:
		fmt.Fprintf(w, "\nerror (%s): %s\n", v.Kind, v.Message)
	}
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func printBenchSummary(w io.Writer, s bench.Summary, readings []bench.GPUReading, sampler string) {
	fmt.Fprintln(w)
	if s.SpeedupFP32 > 0 {
		fmt.Fprintf(w, "CPU vs GPU (fp32 matmul): %.0f× faster on the GPU\n", s.SpeedupFP32)
	}
	for _, dt := range bench.DTypes(s.TFLOPS) {
		fmt.Fprintf(w, "%-5s %8.1f TFLOPS\n", dt, s.TFLOPS[dt])
	}
	if s.CopyGBps > 0 {
		fmt.Fprintf(w, "copy  %8.0f GB/s (device to device, read plus write)\n", s.CopyGBps)
	}
	for _, r := range readings {
		seen := "not seen in its process list"
		if r.BenchPIDSeen {
			seen = "running the benchmark's Python"
		}
		fmt.Fprintf(w, "GPU %d: peak %.0f%% busy, %.0f W, %d MiB used; %s\n", r.Index, r.PeakUtilPct, r.PeakPowerW, r.PeakMemoryMiB, seen)
	}
	if len(readings) == 0 {
		fmt.Fprintf(w, "live readings: %s\n", sampler)
	}
	if len(s.Log) > 0 && !s.OK {
		fmt.Fprintf(w, "last output from Python:\n  %s\n", strings.Join(s.Log[max(0, len(s.Log)-5):], "\n  "))
	}
	fmt.Fprintf(w, "verdict: %s (%.1f s)\n", s.Verdict, s.Elapsed.Seconds())
}

// runBenchScreen shows the wizard's live benchmark screen on its own.
func runBenchScreen(ctx context.Context, env *Env, python, framework string, opts bench.Options) error {
	if env.Build.BenchScreen == nil {
		return Exitf(ExitFailure, "this build has no benchmark screen")
	}
	if framework == "" {
		fw, err := bench.DetectFramework(ctx, runner.New(nil), python)
		if err != nil {
			return Exitf(ExitFailure, "could not benchmark: %v", err)
		}
		framework = fw
	}
	if code := env.Build.BenchScreen(ctx, env, python, framework, opts); code != 0 {
		return Silent(code)
	}
	return nil
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
	return Usagef("--gpu %d: this machine has GPU %s; pick one of those", index, strings.Join(cards, ", "))
}
