package install

import (
	"context"
	"path/filepath"
	"slices"

	"gpuwiz/steps/pep"
)

// A repair's stage step from the venv's lock, without pip's offline try.
//
// The offline try (pip download --no-index from the wheel cache) decides that the cache holds the
// whole build, and which wheels; but pip hashes every wheel it takes from a folder (for its download
// record), one after another on one core: 4.5 GiB for torch cu130, seconds of a repair. The wheel
// cache's own check has hashed the same wheels on every core a moment before. So when a repair
// reinstalls the build the venv's lock recorded, the lock names the wheels instead: the framework's
// and every dist the repair puts back, each in the cache with the sha256 the check found. What else
// the build needs is installed in the venv already, which pip's dry run against the venv says
// without opening a wheel (any dist it would install comes from the cache as well). Any doubt —
// a wheel the lock does not name, one the check did not verify, pip's dry run failing — and the
// offline try runs as before.

// lockedWheels are the stage folder's wheels the venv's lock names for the pins and the dists the
// repair puts back, or nil when the lock does not name each of them (no lock, another build).
func (e *engine) lockedWheels(s Step) []string {
	if s.ID != StepStage || len(e.plan.lockHashes) == 0 {
		return nil
	}
	staged, _ := stagedWheels(e.plan.StageDir)
	var locked []wheelInfo
	for _, w := range staged {
		if _, ok := e.plan.lockHashes[filepath.Base(w.file)]; ok {
			locked = append(locked, w)
		}
	}
	var out []string
	for _, p := range e.plan.pins {
		w, ok := wheelFor(locked, p)
		if !ok {
			return nil
		}
		out = append(out, w.file)
	}
	for _, n := range e.plan.ReinstallDists { // at the version the lock recorded
		i := slices.IndexFunc(locked, func(w wheelInfo) bool { return w.name == pep.Normalize(n) })
		if i < 0 {
			return nil
		}
		out = append(out, locked[i].file)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// lockDryRun asks pip, against the venv, what the lock's build needs beyond what the venv holds,
// from the stage folder alone. It runs beside the cache's check (it reads the wheels' names and
// metadata, which the check does not change); stageFromLock takes its answer only for wheels the
// check verified.
func (e *engine) lockDryRun(ctx context.Context) (pipReport, error) {
	report := filepath.Join(e.plan.StageDir, ".gpuwiz-lock-report.json")
	argv := pipArgv(e.plan.pip, PipArgs{Sub: "install", DryRun: true, Quiet: true, Report: report, NoIndex: true, FindLinks: []string{e.plan.StageDir}, Pins: e.plan.pins})
	return e.dryRun(ctx, "pip install --dry-run (the lock's build)", report, argv) //i18n:raw the step's label in the log
}

// stageFromLock finishes what lockedWheels began once the cache's check and pip's dry run (rep, or
// its failure dryErr) have ended: every locked wheel verified, and the dry run names what else the
// build needs (normally nothing). It returns those other wheels (from the cache as well), or ok
// false (the offline try decides then).
func (e *engine) stageFromLock(locked []string, rep pipReport, dryErr error, c cacheCheck) ([]string, bool) {
	for _, p := range locked {
		if !slices.Contains(c.Verified, filepath.Base(p)) {
			return nil, false
		}
	}
	if dryErr != nil {
		return nil, false
	}
	more, _, ok := e.reportedWheels(rep)
	if !ok {
		return nil, false
	}
	out := []string{}
	for _, w := range more {
		if filepath.Dir(w.Path) != filepath.Clean(e.plan.StageDir) || !slices.Contains(c.Verified, filepath.Base(w.Path)) {
			return nil, false
		}
		out = append(out, w.Path)
	}
	return out, true
}
