package install

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"time"

	"gpuwiz/steps/envroot"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pipcmd"
	"gpuwiz/steps/pipconf"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/urls"
)

// Recover puts back what an interrupted run (its journal still open) had changed in venv, from the
// run's backup and with no network: the same restore a live run makes after a failure, with the
// snapshot, the folder listing and the backup the journal names. A venv the run was creating is
// removed again. The journal is closed and the backup removed when the venv equals its snapshot
// again; otherwise both stay, and Leftovers lists what still differs. A venv whose journal is
// closed (or that has none) is left alone: the outcome is "unchanged" with Err nil.
func Recover(ctx context.Context, r runner.Runner, venv string, events chan<- Event) Outcome {
	var out Outcome
	j, err := ReadJournal(venv)
	if err != nil {
		out.Result, out.Err = ResultDamaged, err
		return withError(out)
	}
	if j == nil || !j.Open() {
		out.Result = ResultUnchanged
		return out
	}
	unlock, err := pyenv.Lock(venv)
	if err != nil {
		out.Result, out.Err = ResultUnchanged, err
		return withError(out)
	}
	defer unlock()
	v := pyenv.Venv{Root: venv}
	py := j.Python
	if py == "" {
		py = v.Python()
	}
	stateDir := filepath.Join(venv, ".gpuwiz")
	// The journal is a file on disk: what it names to remove lies inside the venv's state folder,
	// or is the run's own chain of new folders down to the venv.
	if bad := journalOutside(*j, venv, stateDir); bad != "" {
		out.Result, out.Err = ResultDamaged, errors.New(i18n.T("faults.recover.outside", i18n.D{"Path": bad, "Journal": JournalPath(venv)}))
		return withError(out)
	}
	// The restore's freezes and uninstall run the venv's pip, or gpuwiz's own where it has none.
	pip := pipcmd.Pip{Python: py}
	if p, err := pipcmd.For(ctx, r, py, os.Environ(), UnpackedDir(filepath.Dir(j.StageDir))); err == nil {
		pip = p
	}
	e := &engine{r: r, events: events, py: py, pins: j.Install, backupDir: j.Backup,
		plan: Plan{Venv: venv, StateDir: stateDir, StageDir: j.StageDir, venv: v, leftovers: j.Leftovers,
			families: j.Families, pins: j.Install, env: pip.Env(frameworkEnv(os.Environ(), j.IndexURL, pipconf.Read(pipconf.Source{Prefix: venv, Environ: os.Environ()}))), pip: pip}}
	e.jn = &journal{j: *j, path: JournalPath(venv)}
	e.out.SnapshotFile = j.Snapshot
	e.emit(Event{StepID: "restore", State: StateRunning, Message: i18n.T("faults.recover.start", i18n.D{"Summary": Interrupted{Journal: *j}.Summary()})})
	switch {
	case j.NewVenv:
		e.createdVenv, e.createdTop = true, j.CreatedAt
		if err := e.removeCreated(); err != nil {
			left := venv
			if j.CreatedAt != "" {
				left = j.CreatedAt
			}
			e.out.Result, e.out.Err = ResultDamaged, i18n.Wrap(err, i18n.T("install.err.venv_not_removed", i18n.D{"Err": i18n.T("faults.recover.interrupted"), "RemoveErr": err}))
			e.out.Leftovers = []Leftover{{Path: left, What: "extra", Clear: removeCommand(hostGOOS(), left)}}
			e.emit(Event{StepID: "restore", State: StateFailed, Message: err.Error()})
			return withError(e.out)
		}
		e.out.Result, e.out.VenvRemoved, e.out.Restored = ResultRestored, true, true
		e.emit(Event{StepID: "restore", State: StateDone, Message: i18n.T("install.event.venv_removed", i18n.D{"Venv": venv})})
		return e.out
	case !j.Changed:
		// It stopped before its first change: only its backup (hard links) is to clear away.
		e.out.Result = ResultUnchanged
	default:
		if err := e.loadForRestore(*j); err != nil {
			e.out.Result, e.out.Err = ResultDamaged, err
			e.emit(Event{StepID: "restore", State: StateFailed, Message: err.Error()})
			return withError(e.out)
		}
		e.jn.j.Restoring = true
		e.jn.write()
		rctx, cancel := context.WithTimeout(ctx, restoreTimeout)
		left, rerr := e.restore(rctx)
		cancel()
		if rerr != nil || len(left) > 0 {
			why := ""
			if rerr != nil {
				why = rerr.Error()
			} else {
				why = i18n.N("install.restore.left", len(left))
			}
			e.out.Result, e.out.Leftovers = ResultDamaged, left
			e.out.Err = errors.New(i18n.T("faults.recover.unfinished", i18n.D{"Why": why, "Snapshot": j.Snapshot, "Backup": j.Backup}))
			e.jn.j.Left = nil
			for _, l := range left {
				e.jn.j.Left = append(e.jn.j.Left, l.What+" "+l.Path)
			}
			e.jn.write() // still open: the next gpuwiz tries again
			e.emit(Event{StepID: "restore", State: StateFailed, Message: why})
			return withError(e.out)
		}
		e.out.Result, e.out.Restored = ResultRestored, true
	}
	_ = os.RemoveAll(j.Backup)
	e.jn.j.Finished, e.jn.j.Result, e.jn.j.Restoring = time.Now().UTC(), "recovered-"+e.out.Result, false
	e.jn.write()
	pruneState(stateDir, "")
	e.emit(Event{StepID: "restore", State: StateDone, Message: i18n.T("install.event.restored")})
	return e.out
}

// loadForRestore reads back what the interrupted run's restore needs: the snapshot's freeze, its
// folder listing and the backup's manifest.
func (e *engine) loadForRestore(j Journal) error {
	snap, err := os.ReadFile(j.Snapshot)
	if err != nil {
		return i18n.Wrap(err, i18n.T("faults.recover.missing", i18n.D{"File": j.Snapshot, "Err": err}))
	}
	e.snapshot = snap
	site, err := loadSiteState(j.SiteState)
	if err != nil {
		return i18n.Wrap(err, i18n.T("faults.recover.missing", i18n.D{"File": j.SiteState, "Err": err}))
	}
	e.site = &site
	m, err := e.readManifest()
	if err != nil {
		return i18n.Wrap(err, i18n.T("faults.recover.missing", i18n.D{"File": e.manifestPath(), "Err": err}))
	}
	e.manifest = m
	return nil
}

func withError(o Outcome) Outcome {
	if o.Err != nil {
		o.Error = urls.Redact(o.Err.Error())
	}
	return o
}

// journalOutside is the first path the journal names for removal that lies outside what the run
// could have made: its backup and stage folders inside the venv's state folder, and the folder it
// created, which is the venv or a folder above it holding nothing but the way down to the venv.
func journalOutside(j Journal, venv, stateDir string) string {
	state := envroot.New(stateDir)
	for _, p := range []string{j.Backup} {
		if p != "" && !state.Removable(p) {
			return p
		}
	}
	if j.NewVenv && j.CreatedAt != "" && !onlyTheWayDown(j.CreatedAt, venv) {
		return j.CreatedAt
	}
	return ""
}

// onlyTheWayDown reports whether top is venv, or a folder above it each of whose folders down to
// the venv holds only the next one: what a run that created them left.
func onlyTheWayDown(top, venv string) bool {
	top, venv = filepath.Clean(top), filepath.Clean(venv)
	for d := venv; d != top; {
		parent := filepath.Dir(d)
		if parent == d {
			return false // top is not above the venv
		}
		entries, err := os.ReadDir(parent)
		if err != nil || len(entries) != 1 || entries[0].Name() != filepath.Base(d) {
			return false
		}
		d = parent
	}
	return true
}
