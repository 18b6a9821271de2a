package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"gpuwiz/steps/gpu"
)

func init() { register(10, newGPUCmd) }

type gpuFlags struct {
	json, timings, watch bool
	interval, duration   time.Duration
}

func newGPUCmd(env *Env) *cobra.Command {
	var fl gpuFlags
	cmd := &cobra.Command{
		Use:   "gpu",
		Short: "Show the NVIDIA driver, the CUDA version it supports, and every GPU with its processes",
		Long: "gpu probes the NVIDIA driver through NVML (nvml.dll on Windows), falling back to nvidia-smi.\n" +
			"No driver is a normal answer (exit 0). The --json form is the file format of --simulate:\n" +
			"  gpuwiz gpu --json > rig.json      (on the machine to copy)\n" +
			"  gpuwiz --simulate rig.json        (anywhere else)\n" +
			"The schema is in docs/gpu-report.md.",
		Example: "  gpuwiz gpu\n  gpuwiz gpu --json > rig.json\n  gpuwiz gpu --watch --interval 250ms --duration 10s --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if fl.watch {
				return runGPUWatch(cmd, env, fl)
			}
			r, err := env.GPUReport(cmd.Context())
			if err != nil {
				return err
			}
			if !fl.timings {
				r.Timings = nil
			}
			out := cmd.OutOrStdout()
			if fl.json {
				return writeGPUJSON(out, r)
			}
			printGPUReport(out, r)
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&fl.json, "json", false, "print the report as JSON (the --simulate file format)")
	f.BoolVar(&fl.timings, "timings", false, "add how long the probe took (init, backend, since process start)")
	f.BoolVar(&fl.watch, "watch", false, "print live readings until --duration or Ctrl+C (JSON lines with --json)")
	f.DurationVar(&fl.interval, "interval", 250*time.Millisecond, "time between readings with --watch")
	f.DurationVar(&fl.duration, "duration", 0, "stop --watch after this long (0: until Ctrl+C)")
	return cmd
}

func writeGPUJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func runGPUWatch(cmd *cobra.Command, env *Env, fl gpuFlags) error {
	if fl.interval < gpu.MinSampleInterval {
		return Usagef("--interval %s is too short; use %s or more", fl.interval, gpu.MinSampleInterval)
	}
	if fl.duration < 0 {
		return Usagef("--duration must not be negative")
	}
	p, err := env.GPUProber()
	if err != nil {
		return err
	}
	ctx := cmd.Context()
	r, err := env.GPUReport(ctx)
	if err != nil {
		return err
	}
	if !r.Available {
		fmt.Fprintln(cmd.ErrOrStderr(), r.Message)
		return Exitf(ExitFailure, "nothing to watch: no NVIDIA GPU answered")
	}
	if fl.duration > 0 {
		var cancel func()
		ctx, cancel = context.WithTimeout(ctx, fl.duration)
		defer cancel()
	}
	out := cmd.OutOrStdout()
	enc := json.NewEncoder(out)
	s := gpu.NewSampler(p, fl.interval)
	for samples := range s.Run(ctx) {
		if fl.json {
			if err := enc.Encode(samples); err != nil {
				return err
			}
			continue
		}
		for _, x := range samples {
			fmt.Fprintf(out, "%s GPU %d: %3.0f%% busy, %6d/%d MiB, %3.0f °C, %5.1f W, %4.0f MHz, %d process(es)\n",
				x.Time.Format("15:04:05.000"), x.Index, x.UtilizationPct, x.MemoryUsedMiB, x.MemoryTotalMiB,
				x.TemperatureC, x.PowerW, x.SMClockMHz, len(x.Processes))
		}
	}
	if n := s.Failed(); n > 0 {
		fmt.Fprintf(cmd.ErrOrStderr(), "%d reading(s) failed\n", n)
	}
	return nil
}

func printGPUReport(w io.Writer, r gpu.Report) {
	if r.Simulated {
		fmt.Fprintln(w, "SIMULATED hardware (--simulate): nothing below was probed on this machine")
	}
	fmt.Fprintln(w, r.Message)
	if r.Available {
		fmt.Fprintf(w, "driver %s, CUDA up to %s, backend %s", orUnknown(r.DriverVersion), orUnknown(r.CUDAMax), r.Backend)
		if r.NVMLVersion != "" {
			fmt.Fprintf(w, ", NVML %s", r.NVMLVersion)
		}
		fmt.Fprintln(w)
	}
	for _, g := range r.GPUs {
		fmt.Fprintf(w, "\nGPU %d: %s\n", g.Index, g.Name)
		fmt.Fprintf(w, "  compute capability %s, memory %d of %d MiB used\n", orUnknown(g.ComputeCapability), g.MemoryUsedMiB, g.MemoryTotalMiB)
		fmt.Fprintf(w, "  utilisation %s, temperature %s, power %s, SM clock %s\n", optNum(g.UtilizationPct, "%.0f%%"), optNum(g.TemperatureC, "%.0f °C"), optNum(g.PowerW, "%.1f W"), optNum(g.SMClockMHz, "%.0f MHz"))
		fmt.Fprintf(w, "  UUID %s, PCI %s\n", orUnknown(g.UUID), orUnknown(g.PCIBusID))
		if len(g.Processes) == 0 {
			fmt.Fprintln(w, "  no processes")
		}
		for _, p := range g.Processes {
			mem := "memory not reported"
			if p.UsedMemoryMiB != nil {
				mem = fmt.Sprintf("%d MiB", *p.UsedMemoryMiB)
			}
			fmt.Fprintf(w, "  pid %-8d %-30s %s\n", p.PID, orUnknown(p.Name), mem)
		}
	}
	if len(r.Warnings) > 0 {
		fmt.Fprintln(w, "\nwarnings:")
		for _, x := range r.Warnings {
			fmt.Fprintln(w, "  - "+strings.TrimSpace(x))
		}
	}
	if t := r.Timings; t != nil {
		fmt.Fprintf(w, "\ntimings: init %.1f ms, probe %.1f ms, process start to report %.1f ms\n", t.InitMS, t.ProbeMS, t.SinceStartMS)
	}
}

func optNum(v *float64, format string) string {
	if v == nil {
		return "n/a"
	}
	return fmt.Sprintf(format, *v)
}
