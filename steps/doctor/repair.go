package doctor

import (
	"fmt"
	"strings"

	"gpuwiz/matrix"
	"gpuwiz/steps/gpu"
)

// Action is one repair step: a command (Argv) or a directory to delete (RemovePath).
type Action struct {
	Title      string   `json:"title"`
	Fixes      string   `json:"fixes"` // the finding code
	Argv       []string `json:"argv,omitempty"`
	RemovePath string   `json:"remove_path,omitempty"`
}

// Repair is the plan that fixes what can be fixed; the rest is listed with its fix in words.
type Repair struct {
	Python    string            `json:"python"`
	Venv      string            `json:"venv,omitempty"`
	Actions   []Action          `json:"actions"`
	Reinstall *matrix.Candidate `json:"reinstall,omitempty"` // the build to install through the safe engine
	// SameBuild is true when Reinstall is the build that was there (same version and channel).
	SameBuild bool      `json:"same_build"`
	Unfixable []Finding `json:"unfixable"` // findings the plan leaves to the user
	Notes     []string  `json:"notes,omitempty"`
}

// Empty reports a plan with nothing to run.
func (r Repair) Empty() bool { return len(r.Actions) == 0 && r.Reinstall == nil }

// RepairOptions give the planner the matrix and the GPU, to pick a build when the old one cannot stay.
type RepairOptions struct {
	Matrix *matrix.Matrix
	GPU    gpu.Report
}

// fixedByPlan are the codes a repair plan acts on; the others need the user (driver, registry, PATH).
var fixedByPlan = map[string]bool{
	CodePaddleMixed: true, CodeLeftoverPartial: true, CodeCPUBuild: true, CodeChannelMismatch: true,
	CodeFrameworkCheckFailed: true, CodeArchMissing: true,
}

// RepairPlan turns a report into the steps that fix it: remove both Paddle dists and the leftover
// paddle/ directory, remove ~ leftovers, purge CPU torch wheels from pip's cache, reinstall the same
// build (or, when that build cannot work on this GPU, the recommended one) through the install engine.
func RepairPlan(rep Report, o RepairOptions) Repair {
	py := rep.Python.Path
	r := Repair{Python: py, Venv: rep.Venv, Actions: []Action{}, Unfixable: []Finding{}}
	pip := func(args ...string) []string { return pipArgv(py, args...) }
	needReinstall, keepBuild := false, true
	for _, f := range rep.Findings {
		if !f.IsProblem() {
			continue
		}
		if !fixedByPlan[f.Code] || rep.Venv == "" && f.Code != CodeLeftoverPartial {
			r.Unfixable = append(r.Unfixable, f)
			continue
		}
		switch f.Code {
		case CodePaddleMixed:
			r.Actions = append(r.Actions, Action{Title: "Uninstall both paddlepaddle and paddlepaddle-gpu", Fixes: f.Code, Argv: pip("uninstall", "-y", "paddlepaddle", "paddlepaddle-gpu")})
			if rep.SitePackages != "" {
				r.Actions = append(r.Actions, Action{Title: "Delete the leftover paddle/ directory", Fixes: f.Code, RemovePath: joinFor(goosOfPath(rep.SitePackages), rep.SitePackages, "paddle")})
			}
			needReinstall = true
		case CodeLeftoverPartial:
			for _, l := range rep.Leftovers {
				r.Actions = append(r.Actions, Action{Title: "Delete the interrupted-uninstall leftover " + l, Fixes: f.Code, RemovePath: l})
			}
			needReinstall = needReinstall || rep.Framework != ""
		case CodeCPUBuild, CodeChannelMismatch:
			if rep.Framework == "torch" || hasDist(rep, "torch") {
				r.Actions = append(r.Actions,
					Action{Title: "Uninstall torch, torchvision and torchaudio", Fixes: f.Code, Argv: pip("uninstall", "-y", "torch", "torchvision", "torchaudio")},
					Action{Title: "Purge cached torch wheels from pip's cache (pip would re-serve the CPU build)", Fixes: f.Code, Argv: pip("cache", "remove", "torch")})
			} else {
				r.Actions = append(r.Actions, Action{Title: "Uninstall paddlepaddle and paddlepaddle-gpu", Fixes: f.Code, Argv: pip("uninstall", "-y", "paddlepaddle", "paddlepaddle-gpu")})
			}
			needReinstall = true
			if f.Code == CodeCPUBuild && rep.Lock == nil {
				keepBuild = false
			}
		case CodeArchMissing:
			needReinstall, keepBuild = true, false
		case CodeFrameworkCheckFailed:
			needReinstall = true
		}
	}
	r.Actions = dedupeActions(r.Actions)
	if needReinstall && rep.Framework != "" {
		c, same, note := reinstallTarget(rep, o, keepBuild)
		r.Reinstall, r.SameBuild = c, same
		if note != "" {
			r.Notes = append(r.Notes, note)
		}
	}
	return r
}

func hasDist(rep Report, name string) bool {
	for _, d := range rep.Installed {
		if normalizeName(d.Name) == name {
			return true
		}
	}
	return false
}

func dedupeActions(as []Action) []Action {
	seen := map[string]bool{}
	out := []Action{}
	for _, a := range as {
		k := strings.Join(a.Argv, "\x00") + "|" + a.RemovePath
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, a)
	}
	return out
}

// reinstallTarget is the locked build, else the installed version and CUDA channel, else the
// matrix's recommendation for this GPU.
func reinstallTarget(rep Report, o RepairOptions, keepBuild bool) (*matrix.Candidate, bool, string) {
	fw := rep.Framework
	version, channel := "", ""
	if rep.Lock != nil {
		version, channel = rep.Lock.Version, rep.Lock.Channel
	} else {
		for _, d := range rep.Installed {
			n := normalizeName(d.Name)
			if fw == "torch" && n == "torch" {
				version, channel = d.Version, channelOfLabel(d.LocalLabel)
			}
			if fw == "paddle" && n == "paddlepaddle-gpu" {
				version = d.Version
			}
		}
		if channel == "cpu" {
			channel = ""
		}
	}
	if o.Matrix == nil {
		return nil, false, "no version matrix: reinstall with the wizard"
	}
	if keepBuild && version != "" && channel != "" {
		if c, ok := o.Matrix.Lookup(fw, version, channel); ok {
			return &c, true, ""
		}
	}
	facts := matrix.Facts{Framework: fw, OS: rep.GOOS, DriverVersion: o.GPU.DriverVersion, CUDAMax: o.GPU.CUDAMax,
		PythonVersion: majorMinor(rep.Python.Version), PythonBits: rep.Python.Bits, NoGPU: !o.GPU.Available}
	for _, g := range o.GPU.GPUs {
		if g.ComputeCapability != "" {
			facts.ComputeCaps = append(facts.ComputeCaps, g.ComputeCapability)
		}
	}
	if keepBuild && version != "" {
		facts.FrameworkVersion = version
	}
	sel := o.Matrix.Select(facts)
	if sel.Recommended == nil && facts.FrameworkVersion != "" {
		facts.FrameworkVersion = ""
		sel = o.Matrix.Select(facts)
	}
	if sel.Recommended == nil {
		return nil, false, "no build in the matrix fits this machine: see gpuwiz channels"
	}
	c := *sel.Recommended
	return &c, false, fmt.Sprintf("the installed build cannot be kept; reinstalling %s %s (%s), the recommended build for this GPU", fw, c.FrameworkVersion, c.Channel)
}
