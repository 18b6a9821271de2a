package app

import (
	"context"
	"runtime"

	"gpuwiz/steps/doctor"
	"gpuwiz/steps/venvs"
)

// Environment is one environment on this machine that holds or could hold a GPU build: where it
// was found, its kind, what it holds, and whether that build has kernels for this machine's cards
// (by the matrix's record of the build; no Python runs).
type Environment struct {
	venvs.Found
	Kernels *doctor.Kernels `json:"kernels,omitempty"` // nil: no GPU build, or no card to judge it for
}

// EnvironmentsReport is what Environments found; Cards are the capabilities judged ("12.0").
type EnvironmentsReport struct {
	Environments []Environment `json:"environments"`
	Cards        []string      `json:"cards"`
	Warning      string        `json:"warning,omitempty"`
}

// Environments lists the environments gpuwiz knows, the active one, ./venv and ./.venv, conda's,
// the bundles in and around the working folder and gpuwiz's own folder, and ComfyUI Desktop's,
// each judged against this machine's cards.
func (e *Env) Environments(ctx context.Context, o venvs.FindOptions) EnvironmentsReport {
	rep := EnvironmentsReport{Environments: []Environment{}, Cards: []string{}}
	if o.Store.Path == "" {
		if store, err := venvs.Default(); err == nil {
			o.Store = store
		}
	}
	o.Nearby = true
	found, warning := venvs.Find(ctx, o)
	rep.Warning = warning
	if g, err := e.GPUReport(ctx); err == nil && g.Available {
		for _, c := range g.GPUs {
			if c.ComputeCapability != "" {
				rep.Cards = append(rep.Cards, c.ComputeCapability)
			}
		}
	}
	m, _ := e.Matrix()
	goos := o.GOOS
	if goos == "" {
		goos = runtime.GOOS
	}
	for _, f := range found {
		env := Environment{Found: f}
		if h := f.Holds; m != nil && len(rep.Cards) > 0 && h.Framework == "torch" && h.Channel != "" && h.Channel != "cpu" {
			if k := doctor.KernelsFor(m, goos, h.Framework, h.FrameworkVersion, h.Channel, rep.Cards); k.Known {
				env.Kernels = &k
			}
		}
		rep.Environments = append(rep.Environments, env)
	}
	return rep
}
