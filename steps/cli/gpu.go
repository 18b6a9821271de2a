package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

func init() { register(10, newGPUCmd) }

// gpuOptions is what `gpuwiz gpu` was asked (its flags) and the streams it talks on.
type gpuOptions struct {
	streams
	timings, watch, readings bool
	interval, duration       time.Duration
}

func newGPUCmd(env *Env) *cobra.Command {
	return newCommand(env, command[gpuOptions]{
		use:     "gpu",
		short:   i18n.T("cli.gpu.short"),
		long:    i18n.T("cli.gpu.long"),
		example: "  gpuwiz gpu\n  gpuwiz gpu --json > rig.json\n  gpuwiz gpu --json --readings\n  gpuwiz gpu --watch --interval 250ms --duration 10s --json", //i18n:raw commands
		json:    i18n.T("cli.gpu.flag.json"),
		flags: func(cmd *cobra.Command, fl *gpuOptions) {
			f := cmd.Flags()
			f.BoolVar(&fl.readings, "readings", false, i18n.T("cli.gpu.flag.readings"))
			f.BoolVar(&fl.timings, "timings", false, i18n.T("cli.gpu.flag.timings"))
			f.BoolVar(&fl.watch, "watch", false, i18n.T("cli.gpu.flag.watch"))
			f.DurationVar(&fl.interval, "interval", 250*time.Millisecond, i18n.T("cli.gpu.flag.interval"))
			f.DurationVar(&fl.duration, "duration", 0, i18n.T("cli.gpu.flag.duration"))
		},
		run: gpuRun,
	})
}

// gpuRun prints the GPU report, or with --watch the live readings.
func gpuRun(ctx context.Context, env *Env, fl gpuOptions) error {
	if fl.watch {
		return gpuWatchRun(ctx, env, fl)
	}
	if fl.JSON && !fl.readings {
		// A script's report: the facts, as nvidia-smi --query-gpu gives them, without the
		// first live readings (milliseconds each in the driver); --readings adds them.
		ctx = app.WithoutGPUReadings(ctx)
	}
	r, err := env.GPUReport(ctx)
	if err != nil {
		return err
	}
	if !fl.timings {
		r.Timings = nil
	}
	return show(fl.streams, r, printGPUReport)
}

// gpuWatchRun prints the cards' readings every interval until the duration ends or the run is interrupted.
func gpuWatchRun(ctx context.Context, env *Env, fl gpuOptions) error {
	if fl.interval < app.GPUMinSampleInterval {
		return Usagef("%s", i18n.T("cli.gpu.interval_too_short", i18n.D{"Interval": fl.interval, "Min": app.GPUMinSampleInterval}))
	}
	if fl.duration < 0 {
		return Usagef("%s", i18n.T("cli.gpu.negative_duration"))
	}
	p, err := env.GPUProber()
	if err != nil {
		return err
	}
	r, err := env.GPUReport(ctx)
	if err != nil {
		return err
	}
	if !r.Available {
		fmt.Fprintln(fl.ErrOut, r.Message)
		return Exitf(ExitFailure, "%s", i18n.T("cli.gpu.nothing_to_watch"))
	}
	if fl.duration > 0 {
		var cancel func()
		ctx, cancel = context.WithTimeout(ctx, fl.duration)
		defer cancel()
	}
	out := fl.Out
	enc := json.NewEncoder(out)
	s := app.NewGPUSampler(p, fl.interval)
	for samples := range s.Run(ctx) {
		if fl.JSON {
			if err := enc.Encode(samples); err != nil {
				return err
			}
			continue
		}
		for _, x := range samples {
			fmt.Fprintln(out, i18n.N("cli.gpu.watch_line", len(x.Processes), i18n.D{
				"Time": x.Time.Format("15:04:05.000"), "Index": x.Index, "Busy": fmt.Sprintf("%3.0f", x.UtilizationPct),
				"Used": fmt.Sprintf("%6d", x.MemoryUsedMiB), "Total": x.MemoryTotalMiB, "Temp": fmt.Sprintf("%3.0f", x.TemperatureC),
				"Power": fmt.Sprintf("%5.1f", x.PowerW), "Clock": fmt.Sprintf("%4.0f", x.SMClockMHz)}))
		}
	}
	if n := s.Failed(); n > 0 {
		fmt.Fprintln(fl.ErrOut, i18n.N("cli.gpu.readings_failed", int(n)))
	}
	return nil
}

func printGPUReport(w io.Writer, r app.GPUReport) {
	if r.Simulated {
		fmt.Fprintln(w, i18n.T("cli.gpu.simulated"))
	}
	fmt.Fprintln(w, r.Message)
	if r.Available {
		if r.NVMLVersion != "" {
			fmt.Fprintln(w, i18n.T("cli.gpu.driver_nvml", i18n.D{"Driver": orUnknown(r.DriverVersion), "CUDA": orUnknown(r.CUDAMax), "Backend": backendLabel(r.Backend), "NVML": r.NVMLVersion}))
		} else {
			fmt.Fprintln(w, i18n.T("cli.gpu.driver", i18n.D{"Driver": orUnknown(r.DriverVersion), "CUDA": orUnknown(r.CUDAMax), "Backend": backendLabel(r.Backend)}))
		}
	}
	for _, g := range r.GPUs {
		fmt.Fprintln(w, "\n"+i18n.T("cli.gpu.card", i18n.D{"Index": g.Index, "Name": g.Name}))
		fmt.Fprintln(w, "  "+i18n.T("cli.gpu.card_memory", i18n.D{"Cap": orUnknown(g.ComputeCapability), "Used": g.MemoryUsedMiB, "Total": g.MemoryTotalMiB}))
		fmt.Fprintln(w, "  "+i18n.T("cli.gpu.card_readings", i18n.D{"Util": optNum(g.UtilizationPct, "%.0f%%"), "Temp": optNum(g.TemperatureC, "%.0f °C"), "Power": optNum(g.PowerW, "%.1f W"), "Clock": optNum(g.SMClockMHz, "%.0f MHz")}))
		fmt.Fprintln(w, "  "+i18n.T("cli.gpu.card_ids", i18n.D{"UUID": orUnknown(g.UUID), "PCI": orUnknown(g.PCIBusID)}))
		if len(g.Processes) == 0 {
			fmt.Fprintln(w, "  "+i18n.T("cli.gpu.no_processes"))
		}
		for _, p := range g.Processes {
			mem := i18n.T("cli.gpu.process_memory_unknown")
			if p.UsedMemoryMiB != nil {
				mem = fmt.Sprintf("%d MiB", *p.UsedMemoryMiB)
			}
			fmt.Fprintf(w, "  pid %-8d %s %s\n", p.PID, i18n.Pad(orUnknown(p.Name), 30), mem)
		}
	}
	if len(r.Warnings) > 0 {
		fmt.Fprintln(w, "\n"+i18n.T("cli.gpu.warnings"))
		for _, x := range r.Warnings {
			fmt.Fprintln(w, "  - "+strings.TrimSpace(x))
		}
	}
	if t := r.Timings; t != nil {
		fmt.Fprintln(w, "\n"+i18n.T("cli.gpu.timings", i18n.D{"Init": fmt.Sprintf("%.1f", t.InitMS), "Probe": fmt.Sprintf("%.1f", t.ProbeMS), "Since": fmt.Sprintf("%.1f", t.SinceStartMS)}))
	}
}

func optNum(v *float64, format string) string {
	if v == nil {
		return i18n.T("cli.gpu.not_available")
	}
	return fmt.Sprintf(format, *v)
}

// backendLabel is how the report was read, as the text shows it: a library's or a command's name
// as it is, the simulated report in words (--json keeps the backend's own name).
func backendLabel(backend string) string {
	if backend == "simulated" {
		return i18n.T("cli.gpu.backend_simulated")
	}
	return backend
}
