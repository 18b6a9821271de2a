package doctor

import (
	"slices"
	"strings"

	"gpuwiz/matrix"
	"gpuwiz/steps/gpu"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/keep"
	"gpuwiz/steps/pep"
)

// Action is one repair step: a command (Argv) or a directory to delete (RemovePath).
type Action struct {
	Title      string   `json:"title"`
	Fixes      string   `json:"fixes"` // the finding code
	Argv       []string `json:"argv,omitempty"`
	RemovePath string   `json:"remove_path,omitempty"`
	// Uninstall names the dists a pip uninstall action (Argv) removes, typed: what a front end lists,
	// never read back out of the argv.
	Uninstall []string `json:"-"`
	// Engine marks a removal that the install engine makes itself, inside the reinstall: only once
	// every new wheel is downloaded, under the venv lock, after a backup, and undone on any failure.
	// It is listed so the plan shows what goes; ApplyRepair never runs it on its own.
	Engine bool `json:"engine,omitempty"`
	// Restore puts back what an interrupted run changed, from its backup with no network; it runs
	// first, before a Reinstall.
	Restore bool `json:"restore,omitempty"`
	// VCRedist downloads Microsoft's Visual C++ redistributable, checks its signature and starts it
	// unelevated (steps/vcredist); when it needs administrator rights the user is handed the file.
	VCRedist bool `json:"vc_redist,omitempty"`
	// UVProject writes the settings that keep uv on the build into the uv project beside the
	// environment (keep.UVProject.Write: the user's lines stay as they are).
	UVProject *keep.UVProject `json:"uv_project,omitempty"`
}

// Repair is the plan that fixes what can be fixed; the rest is listed with its fix in words.
//
// Nothing in it removes a package outside the install engine: when there is a Reinstall, every
// uninstall and every leftover it clears are Engine actions, and the other actions (harmless ones,
// such as purging pip's cache) run only after the engine succeeded. A plan without a Reinstall
// only deletes leftovers that no installed dist owns.
type Repair struct {
	Python    string            `json:"python"`
	Venv      string            `json:"venv,omitempty"`
	Actions   []Action          `json:"actions"`
	Reinstall *matrix.Candidate `json:"reinstall,omitempty"` // the build to install through the safe engine
	// SameBuild is true when Reinstall is the build that was there (same version and channel).
	SameBuild bool `json:"same_build"`
	// Source says where the reinstall takes its wheels from and why (the wheel cache, the source the
	// venv's lock recorded, a given index, or the channel's index); the caller fills it in.
	Source    string    `json:"source,omitempty"`
	Unfixable []Finding `json:"unfixable"` // findings the plan leaves to the user
	Notes     []string  `json:"notes,omitempty"`
	// Restore: an interrupted run's changes are put back first, from its backup (no network).
	Restore bool `json:"restore,omitempty"`
	// ReinstallDists are dists outside the framework's family whose files are missing (a CUDA
	// library): the reinstall removes them and installs them again from the build's wheels.
	ReinstallDists []string `json:"reinstall_dists,omitempty"`
}

// Empty reports a plan with nothing to run.
func (r Repair) Empty() bool { return len(r.Actions) == 0 && r.Reinstall == nil }

// RepairOptions give the planner the matrix and the GPU, to pick a build when the old one cannot stay.
type RepairOptions struct {
	Matrix *matrix.Matrix
	GPU    gpu.Report
	// Finish: after putting back what an interrupted run changed, install the build it was
	// installing (doctor --fix --finish); without it, the old build is put back and stays.
	Finish bool
}

// fixedByPlan are the codes a repair plan acts on; the others need the user (driver, registry, PATH).
var fixedByPlan = map[string]bool{
	CodePaddleMixed: true, CodeLeftoverPartial: true, CodeCPUBuild: true, CodeChannelMismatch: true,
	CodeFrameworkCheckFailed: true, CodeArchMissing: true, CodeFilesMissing: true, CodeRecordOutside: true,
}

// damagedOutsideFamily names the dists with missing files that a framework reinstall would keep as
// they are (not of the framework's family): the reinstall is told to put them back too.
func damagedOutsideFamily(rep Report) []string {
	var out []string
	for _, m := range outsideFamily(rep.MissingFiles) {
		if n := pep.Normalize(m.Dist); !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	for _, o := range rep.RecordOutside {
		if n := pep.Normalize(o.Dist); !familyDist(n) && !slices.Contains(out, n) {
			out = append(out, n) // its reinstall writes a RECORD that stays inside
		}
	}
	return out
}

// redistFixes: a missing or old VC++ runtime that Microsoft's redistributable fixes (not an old copy
// that loads before System32's, which the user must move aside).
func redistFixes(f Finding) bool {
	return (f.Code == CodeVCRuntimeMissing || f.Code == CodeVCRuntimeOld) && f.Fix == i18n.T("doctor.vc_runtime.fix")
}

// RepairPlan turns a report into the steps that fix it. A build that must go is replaced through
// the install engine: the same build (or, when that cannot work on this GPU, the recommended one),
// whose run uninstalls the framework's conflicting dists (both Paddle dists, the torch family) and
// moves ~ leftovers and a stray paddle/ aside, all after staging. The plan lists those removals as
// Engine actions and adds only harmless steps of its own (purging CPU torch wheels from pip's
// cache), run after the engine succeeded. Without a reinstall it deletes only leftovers no dist owns.
func RepairPlan(rep Report, o RepairOptions) Repair {
	py := rep.Python.Path
	r := Repair{Python: py, Venv: rep.Venv, Actions: []Action{}, Unfixable: []Finding{}}
	if in := rep.Interrupted; in != nil && !in.Running && rep.Venv != "" {
		return interruptedRepair(rep, o, r)
	}
	pip := func(args ...string) []string { return pipArgv(py, args...) }
	needReinstall, keepBuild, purgeTorch := false, true, false
	keepVersion := false      // a build without kernels for a card: another channel of the same version, where one has them
	var byReinstall []Finding // findings only a reinstall fixes
	var leftover, paddleMix *Finding
	for _, f := range rep.Findings {
		if !f.IsProblem() {
			continue
		}
		if redistFixes(f) {
			r.Actions = append(r.Actions, Action{Title: i18n.T("doctor.repair.vc_redist"), Fixes: f.Code, VCRedist: true})
			continue
		}
		if f.Code == CodeUVIgnoresProtection {
			if a := uvAction(rep); a != nil {
				r.Actions = append(r.Actions, *a)
			} else {
				r.Unfixable = append(r.Unfixable, f)
			}
			continue
		}
		if !fixedByPlan[f.Code] || rep.Venv == "" && f.Code != CodeLeftoverPartial {
			r.Unfixable = append(r.Unfixable, f)
			continue
		}
		switch f.Code {
		case CodePaddleMixed:
			switch {
			case rep.Framework == "paddle":
				byReinstall = append(byReinstall, f)
				needReinstall = true
			case hasPaddleDist(rep):
				// The engine removes only the dists of the framework it installs.
				r.Unfixable = append(r.Unfixable, f)
				r.Notes = append(r.Notes, i18n.T("doctor.repair.paddle_left_alone", i18n.D{"Framework": rep.Framework}))
				continue
			}
			// Otherwise a paddle/ that no dist owns, beside another framework or none: a leftover.
			paddleMix = &f
		case CodeLeftoverPartial:
			leftover = &f
			needReinstall = needReinstall || rep.Framework != ""
		case CodeCPUBuild, CodeChannelMismatch:
			byReinstall = append(byReinstall, f)
			needReinstall = true
			purgeTorch = purgeTorch || rep.Framework == "torch"
			if f.Code == CodeCPUBuild && rep.Lock == nil {
				keepBuild = false
			}
		case CodeArchMissing:
			byReinstall = append(byReinstall, f)
			needReinstall, keepBuild, keepVersion = true, false, true
		case CodeFrameworkCheckFailed, CodeFilesMissing, CodeRecordOutside:
			byReinstall = append(byReinstall, f)
			needReinstall = true
		}
	}
	if needReinstall && rep.Framework != "" && rep.Venv != "" {
		c, same, note := reinstallTarget(rep, o, keepBuild, keepVersion)
		r.Reinstall, r.SameBuild = c, same
		if note != "" {
			r.Notes = append(r.Notes, note)
		}
	}
	sp := rep.SitePackages
	paddleDir := ""
	if sp != "" {
		paddleDir = joinFor(goosOfPath(sp), sp, "paddle")
	}
	if c := r.Reinstall; c != nil {
		if names := familyInstalled(rep, c.Framework); len(names) > 0 {
			fixes := CodeLeftoverPartial // the only other finding that asks for a reinstall
			if len(byReinstall) > 0 {
				fixes = byReinstall[0].Code
			}
			r.Actions = append(r.Actions, Action{Title: i18n.T("doctor.repair.uninstall", i18n.D{"Packages": i18n.Join(names)}),
				Fixes: fixes, Argv: pip(append([]string{"uninstall", "-y"}, names...)...), Uninstall: names, Engine: true})
		}
		if damaged := damagedOutsideFamily(rep); len(damaged) > 0 {
			r.ReinstallDists = damaged
			r.Actions = append(r.Actions, Action{Title: i18n.T("doctor.repair.reinstall_damaged", i18n.D{"Packages": i18n.Join(damaged)}),
				Fixes: CodeFilesMissing, Engine: true})
		}
		if c.Framework == "paddle" && paddleMix != nil && paddleDir != "" {
			title := i18n.T("doctor.repair.move_paddle")
			if hasPaddleDist(rep) {
				title = i18n.T("doctor.repair.move_paddle_rest")
			}
			r.Actions = append(r.Actions, Action{Title: title,
				Fixes: CodePaddleMixed, RemovePath: paddleDir, Engine: true})
		}
		if leftover != nil {
			for _, l := range rep.Leftovers {
				r.Actions = append(r.Actions, Action{Title: i18n.T("doctor.repair.move_leftover", i18n.D{"Path": l}),
					Fixes: CodeLeftoverPartial, RemovePath: l, Engine: true})
			}
		}
		if c.Framework != "paddle" && paddleMix != nil && !hasPaddleDist(rep) && rep.PaddleDirOrphan != "" {
			r.Actions = append(r.Actions, Action{Title: i18n.T("doctor.repair.after_delete_paddle"), Fixes: CodePaddleMixed, RemovePath: rep.PaddleDirOrphan})
		}
		if purgeTorch {
			r.Actions = append(r.Actions, Action{Title: i18n.T("doctor.repair.after_purge_cache"),
				Fixes: CodeCPUBuild, Argv: pip("cache", "remove", "torch")})
		}
		r.Notes = append(r.Notes, i18n.T("doctor.repair.engine_note"))
	} else {
		// No install: nothing that a dist owns may go, only leftovers that none owns. The findings
		// only a reinstall fixes are left to the user (the notes say why).
		r.Unfixable = append(r.Unfixable, byReinstall...)
		if paddleMix != nil && !hasPaddleDist(rep) && rep.PaddleDirOrphan != "" {
			r.Actions = append(r.Actions, Action{Title: i18n.T("doctor.repair.delete_paddle"), Fixes: CodePaddleMixed, RemovePath: rep.PaddleDirOrphan})
		}
		if leftover != nil {
			for _, l := range rep.Leftovers {
				r.Actions = append(r.Actions, Action{Title: i18n.T("doctor.repair.delete_leftover", i18n.D{"Path": l}), Fixes: CodeLeftoverPartial, RemovePath: l})
			}
		}
	}
	r.Actions = dedupeActions(r.Actions)
	return r
}

// familyInstalled names the installed dists of framework's conflict set: what the install engine
// uninstalls before it installs that framework (its plan takes the same set from the venv).
func familyInstalled(rep Report, framework string) []string {
	family := pep.TorchFamily
	if framework == "paddle" {
		family = pep.PaddleDists
	}
	var out []string
	for _, n := range family {
		if hasDist(rep, n) {
			out = append(out, n)
		}
	}
	return out
}

func hasPaddleDist(rep Report) bool {
	return hasDist(rep, "paddlepaddle") || hasDist(rep, "paddlepaddle-gpu")
}

func hasDist(rep Report, name string) bool {
	for _, d := range rep.Installed {
		if pep.Normalize(d.Name) == name {
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
		if len(a.Argv) == 0 && a.RemovePath == "" {
			k += "|" + a.Title // an action of its own kind (the engine's, the redistributable)
		}
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
//
// keepVersion (a build without kernels for a card) keeps the framework's version on another channel
// when one of its builds has kernels for every card (a cu126 torch 2.7.0 beside an RTX 50 card
// becomes the cu128 torch 2.7.0), else takes the newest build that does.
func reinstallTarget(rep Report, o RepairOptions, keepBuild, keepVersion bool) (*matrix.Candidate, bool, string) {
	fw := rep.Framework
	version, channel := "", ""
	if rep.Lock != nil {
		version, channel = rep.Lock.Version, rep.Lock.Channel
	} else {
		for _, d := range rep.Installed {
			n := pep.Normalize(d.Name)
			if fw == "torch" && n == "torch" {
				version, channel = d.Version, pep.Channel(d.LocalLabel)
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
		return nil, false, i18n.T("doctor.repair.no_matrix")
	}
	if keepBuild && version != "" && channel != "" {
		if c, ok := o.Matrix.Lookup(fw, version, channel); ok {
			return &c, true, ""
		}
	}
	facts := matrix.Facts{Framework: fw, OS: rep.GOOS, DriverVersion: o.GPU.DriverVersion, CUDAMax: o.GPU.CUDAMax,
		PythonVersion: pep.Minor(rep.Python.Version), PythonBits: rep.Python.Bits, NoGPU: !o.GPU.Available}
	for _, g := range o.GPU.GPUs {
		if g.ComputeCapability != "" {
			facts.ComputeCaps = append(facts.ComputeCaps, g.ComputeCapability)
		}
	}
	if (keepBuild || keepVersion) && version != "" {
		facts.FrameworkVersion = version
	}
	sel := o.Matrix.Select(facts)
	if keepVersion && o.GPU.Available {
		// A card without kernels in the build: a GPU build with kernels for every card, of the same
		// version where it has one (an unverified one before a CPU build), else the newest that has.
		if c := gpuBuild(sel); c != nil {
			return c, false, i18n.T("doctor.repair.recommended", i18n.D{"Framework": fw, "Version": c.FrameworkVersion, "Channel": c.Channel})
		}
		if facts.FrameworkVersion != "" {
			facts.FrameworkVersion = ""
			if c := gpuBuild(o.Matrix.Select(facts)); c != nil {
				return c, false, i18n.T("doctor.repair.recommended", i18n.D{"Framework": fw, "Version": c.FrameworkVersion, "Channel": c.Channel})
			}
		}
	}
	if sel.Recommended == nil && facts.FrameworkVersion != "" {
		facts.FrameworkVersion = ""
		sel = o.Matrix.Select(facts)
	}
	if sel.Recommended == nil {
		return nil, false, i18n.T("doctor.repair.no_build")
	}
	c := *sel.Recommended
	return &c, false, i18n.T("doctor.repair.recommended", i18n.D{"Framework": fw, "Version": c.FrameworkVersion, "Channel": c.Channel})
}

// gpuBuild is the selection's GPU build for this machine's cards: the recommended one, else the
// unverified one that fits where a CPU build is recommended; nil when neither is a GPU build.
func gpuBuild(sel matrix.Selection) *matrix.Candidate {
	for _, c := range []*matrix.Candidate{sel.Recommended, sel.AlsoFits} {
		if c != nil && c.CUDA != "" && c.Compatible {
			cc := *c
			return &cc
		}
	}
	return nil
}
