package cli

import (
	"context"
	"fmt"
	"sync"
	"time"

	"gpuwiz/steps/gpu"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/jsonfile"
)

// processStart is taken at package init, a few ms after the process starts: the base of the
// "since start" timing.
var processStart = time.Now()

// probeCache keeps one prober and one report per Env, so every command and screen sees the same
// facts and NVML is initialised once.
type probeCache struct {
	mu      sync.Mutex
	prober  gpu.Prober
	err     error
	report  *gpu.Report
	reportE error
}

var (
	probeCachesMu sync.Mutex
	probeCaches   = map[*Env]*probeCache{}
)

func (e *Env) probeCache() *probeCache {
	probeCachesMu.Lock()
	defer probeCachesMu.Unlock()
	c, ok := probeCaches[e]
	if !ok {
		c = &probeCache{}
		probeCaches[e] = c
	}
	return c
}

// GPUProber is the prober behind GPUReport: the --simulate file's (with made-up live readings) or the
// real probe chain. Use it for live samples (gpu.NewSampler). A bad --simulate file is a usage error.
func (e *Env) GPUProber() (gpu.Prober, error) {
	c := e.probeCache()
	c.mu.Lock()
	defer c.mu.Unlock()
	return e.proberLocked(c)
}

func (e *Env) proberLocked(c *probeCache) (gpu.Prober, error) {
	if c.prober == nil && c.err == nil {
		if e.G.SimulateFile != "" {
			p, err := gpu.FromFile(e.G.SimulateFile)
			if err != nil {
				c.err = Usagef("--simulate: %v", err)
			} else if w := jsonfile.Warning(e.G.SimulateFile, gpu.UnknownFields(p)); w != "" && e.Stderr != nil {
				fmt.Fprintln(e.Stderr, "gpuwiz: "+i18n.T("cli.warning", i18n.D{"Text": "--simulate " + w}))
			}
			c.prober = p
		} else {
			c.prober = gpu.Default()
		}
	}
	return c.prober, c.err
}

// GPUReport returns the GPU facts every command uses: the --simulate file when given (Simulated
// true), else the probe chain (NVML, nvidia-smi, or a plain "no NVIDIA driver" report). Cached per Env.
func (e *Env) GPUReport(ctx context.Context) (gpu.Report, error) {
	c := e.probeCache()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.report != nil || c.reportE != nil {
		return copyReport(c.report), c.reportE
	}
	p, err := e.proberLocked(c)
	if err != nil {
		return gpu.Report{}, err
	}
	r, err := p.Probe(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return gpu.Report{}, err // interrupted: do not cache
		}
		c.reportE = err
		return gpu.Report{}, err
	}
	if r.Simulated && e.Stderr != nil {
		fmt.Fprintln(e.Stderr, "gpuwiz: "+i18n.T("cli.simulated_banner", i18n.D{"File": e.G.SimulateFile}))
	}
	if r.Timings != nil {
		r.Timings.SinceStartMS = float64(time.Since(processStart).Microseconds()) / 1000
	}
	c.report = &r
	return copyReport(c.report), nil
}

func copyReport(r *gpu.Report) gpu.Report {
	if r == nil {
		return gpu.Report{}
	}
	out := *r
	if r.GPUs != nil {
		out.GPUs = append([]gpu.GPU{}, r.GPUs...)
	}
	if r.Warnings != nil {
		out.Warnings = append([]string{}, r.Warnings...)
	}
	if r.Timings != nil {
		t := *r.Timings
		out.Timings = &t
	}
	return out
}
