package gpu

import (
	"context"
	"runtime"
	"sync"

	"gpuwiz/steps/i18n"
)

// ErrNoGPU is what Sample returns when no backend answered (errors.Is matches it; its text is in
// the language current when it is read).
var ErrNoGPU = i18n.Lazy(func() string { return i18n.T("gpu.sample.no_gpu") })

// Default is the probe chain: NVML (go-nvml on Linux, nvml.dll on Windows), then nvidia-smi, then a
// plain "no NVIDIA driver" report. It never fails: a machine without a driver gets Available=false.
func Default() Prober {
	return newChain([]namedProber{
		{nvmlLibraryHint, platformNVML()},
		{smiWhere(runtime.GOOS), newSMIProber(execRunner)},
	}, systemAdapters())
}

// smiWhere names where findSMI looks for nvidia-smi on goos, for the "looked for" list.
func smiWhere(goos string) string {
	if goos == "windows" {
		return i18n.T("gpu.backend.smi_windows")
	}
	return i18n.T("gpu.backend.smi_on_path")
}

type namedProber struct {
	what string // for the "looked for" list
	p    Prober
}

// chain keeps the backend that answered, so samples skip the ones that did not.
type chain struct {
	backends []namedProber
	adapters AdapterLister // the PCI display devices, to name a card that has no driver yet

	mu     sync.Mutex
	chosen Prober
}

func newChain(b []namedProber, adapters AdapterLister) *chain {
	return &chain{backends: b, adapters: adapters}
}

func (c *chain) Probe(ctx context.Context) (Report, error) {
	var looked []Attempt
	var fellBack []string
	for _, b := range c.backends {
		if err := ctx.Err(); err != nil {
			return Report{}, err
		}
		r, err := b.p.Probe(ctx)
		if err == nil && r.Available {
			c.mu.Lock()
			c.chosen = b.p
			c.mu.Unlock()
			r.Warnings = append(fellBack, r.Warnings...)
			r.OS = runtime.GOOS
			return r, nil
		}
		why, detail := i18n.T("gpu.chain.no_answer"), ""
		if err != nil {
			why = whyWords(err)
			if raw := err.Error(); raw != why {
				detail = raw
			}
		}
		looked = append(looked, Attempt{Backend: b.what, Why: why, Detail: detail})
		fellBack = append(fellBack, i18n.T("gpu.chain.fell_back", i18n.D{"Backend": b.what, "Why": why}))
	}
	r := noDriverReport(looked, nvidiaAdapters(c.adapters))
	r.OS = runtime.GOOS
	return r, nil
}

// Sample reads through the backend that answered the last Probe (probing first if none has).
func (c *chain) Sample(ctx context.Context) ([]Sample, error) {
	c.mu.Lock()
	p := c.chosen
	c.mu.Unlock()
	if p == nil {
		if _, err := c.Probe(ctx); err != nil {
			return nil, err
		}
		c.mu.Lock()
		p = c.chosen
		c.mu.Unlock()
		if p == nil {
			return nil, ErrNoGPU
		}
	}
	return p.Sample(ctx)
}
