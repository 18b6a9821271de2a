package install

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"gpuwiz/steps/atomicfile"
	"gpuwiz/steps/fetch"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/netproxy"
	"gpuwiz/steps/pep"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/urls"
	"gpuwiz/steps/verify"
	"gpuwiz/steps/wheelinst"
)

// Event states.
const (
	StateRunning = "running"
	StateDone    = "done"
	StateFailed  = "failed"
	StateSkipped = "skipped"
)

// Outcome results.
const (
	ResultInstalled = "installed" // the new set is in place (Verify says whether it works)
	ResultUnchanged = "unchanged" // failed before anything was removed: the venv is as it was
	ResultRestored  = "restored"  // failed after the first change; the venv equals its snapshot again, file by file
	ResultDamaged   = "damaged"   // failed, and the venv still differs from its snapshot: Leftovers lists each difference and how to clear it
)

// Event is one report of a running install: a step's state change, a line of output, download
// progress or a message.
type Event struct {
	StepID   string           `json:"step_id"`
	State    string           `json:"state,omitempty"`
	Line     string           `json:"line,omitempty"`
	Progress *runner.Progress `json:"progress,omitempty"`
	Message  string           `json:"message,omitempty"`
	// Did is what a finished step really did, in words, when that is not what its planned title
	// says: a download step whose wheels all came from the wheel cache downloaded nothing.
	Did string `json:"did,omitempty"`
}

// Outcome is how an install ended.
type Outcome struct {
	Result          string         `json:"result"`
	Restored        bool           `json:"restored"`
	Err             error          `json:"-"`
	Error           string         `json:"error,omitempty"`
	FailedStep      string         `json:"failed_step,omitempty"`
	Verify          *verify.Report `json:"verify,omitempty"`
	LockFile        string         `json:"lock_file,omitempty"`
	ConstraintsFile string         `json:"constraints_file,omitempty"`
	SnapshotFile    string         `json:"snapshot_file,omitempty"`
	LogPath         string         `json:"log_path,omitempty"`
	BytesDownloaded int64          `json:"bytes_downloaded"`
	Source          string         `json:"source,omitempty"`       // "cache" (no network), or the index or page the wheels came from
	Installed       []string       `json:"installed,omitempty"`    // exact pins installed
	VenvRemoved     bool           `json:"venv_removed,omitempty"` // the run created the venv and, failing, removed it again
	Leftovers       []Leftover     `json:"leftovers,omitempty"`    // damaged: what still differs from the snapshot, each with the command that clears it
	Warnings        []string       `json:"warnings,omitempty"`
	// Outside lists, per dist, the paths its RECORD named outside the environment: gpuwiz left
	// them alone (never removed, moved or written).
	Outside []Outside `json:"outside,omitempty"`
	// Protected is the venv's pip configuration file that now names constraints.txt, so every later
	// pip install there keeps the build ("" when it could not be written: a warning says why).
	Protected string `json:"protected,omitempty"`
	// EnvKind is the kind of environment installed into (pyenv.EnvVenv, EnvConda, EnvEmbedded,
	// EnvPrefix): the front ends say "venv" only of a venv.
	EnvKind string `json:"env_kind,omitempty"`
	// StepSeconds is how long each step that ran took, by step id (the install step's time is what
	// gpuwiz's installer is measured by).
	StepSeconds map[string]float64 `json:"step_seconds,omitempty"`
	// Installer is who wrote the wheels in the install step: "gpuwiz" or "pip".
	Installer string `json:"installer,omitempty"`
	// InstallerSeconds is where gpuwiz's installer spent the install step (scheme, open, unpack,
	// write, scripts, record), when it wrote the wheels.
	InstallerSeconds map[string]float64 `json:"installer_seconds,omitempty"`
}

// Outside is what one dist's RECORD named outside the environment.
type Outside struct {
	Dist  string   `json:"dist"`
	Paths []string `json:"paths"`
}

// OK reports an installed and verified build.
func (o Outcome) OK() bool { return o.Result == ResultInstalled && o.Verify != nil && o.Verify.OK }

type engine struct {
	plan            Plan
	r               runner.Runner
	events          chan<- Event
	py              string
	changed         bool              // the uninstall has begun: failures from here on restore
	did             map[string]string // step ID → what it really did, when not what its title says (Event.Did)
	createdVenv     bool              // the venv did not exist before this run: an unchanged failure removes it
	createdTop      string            // the outermost directory this run creates (the venv or a missing parent); "" when the venv dir existed (empty)
	snapshot        []byte
	backupDir       string
	manifest        *manifest
	pins            []string
	out             Outcome
	stepSkip        map[string]bool
	optionalDropped bool
	site            *siteState            // site-packages and scripts as the snapshot found them
	backedUp        map[string]bool       // files in the backup, by path (built on first use)
	installedWheels []string              // the staged wheel files pip installed ("Processing …whl")
	keptPycs        []wheelinst.Pyc       // the bytecode set aside before the old dists went (bytecode.go)
	fetched         []fetch.File          // what gpuwiz's downloader staged (URL and sha256 of each wheel)
	stagedFiles     map[string]bool       // the wheel files the stage steps' resolve chose (pip's "Saved"/"already downloaded" lines, the downloader's files)
	netw            *fetch.Network        // pip's network settings, read once
	proxy           *netproxy.Resolver    // the run's proxy rules (Options.Net), with its client
	jn              *journal              // the run's journal in the venv's state folder (nil until the first write)
	spaceNeed       uint64                // what the build takes in the venv, as the check before the first change found it
	scheme          *schemeQuery          // the venv's install paths, asked while the wheels download (nil: not asked yet)
	lockFreeze      *background[[]byte]   // the lock step's pip freeze, started beside the verify step
	prestage        *prestage             // the stage step's first part, started beside the snapshot step
	kept            bool                  // the install step ended: the new set stays, whatever verify finds (keepSet)
	lockWrite       *background[struct{}] // the lock step's files, written beside the verify step
	backupGone      chan struct{}         // closed when the backup's removal (begun beside verify) has ended
	stageFrom       string                // "record": the stage took the recorded resolution (resolved.go); "lock": the venv's lock named the wheels; "": pip chose them
}

// restoreTimeout bounds putting the old set back after a failure or a cancel.
const restoreTimeout = 10 * time.Minute

// Run executes plan. It holds the venv's lock throughout; events (may be nil) get every state
// change, line and progress report without ever stalling the install: when the channel is full,
// lines are dropped and state changes wait at most a moment. The outcome is always the complete
// new set or the old one.
func Run(ctx context.Context, r runner.Runner, plan Plan, events chan<- Event) Outcome {
	plan.Steps = copySteps(plan.Steps)
	e := &engine{plan: plan, r: r, events: events, py: plan.venv.Python(), stepSkip: map[string]bool{}, did: map[string]string{},
		pins: append([]string{}, plan.pins...), proxy: plan.net}
	if e.proxy == nil {
		e.proxy = netproxy.ForPip(plan.sysPrefix(), plan.env)
	}
	e.out.LogPath, e.out.EnvKind = plan.LogPath, plan.Env.Kind
	unlock, err := pyenv.Lock(plan.Venv)
	if err != nil {
		e.out.Result, e.out.Err = ResultUnchanged, err
		return e.finish()
	}
	defer unlock()
	// One run at a time stages into a build's cache folder: another one's check could set aside a
	// wheel this one is still writing.
	unlockCache, err := pyenv.Lock(plan.StageDir)
	if err != nil {
		e.out.Result = ResultUnchanged
		e.out.Err = i18n.Wrap(err, i18n.T("install.err.cache_in_use", i18n.D{"Err": err}))
		return e.finish()
	}
	defer unlockCache()
	if plan.Env.FixPth {
		// The user agreed: the embedded Python's ._pth imports site, so the build is importable.
		if err := pyenv.FixPth(plan.venv.Layout()); err != nil {
			e.out.Result = ResultUnchanged
			e.out.Err = i18n.Wrap(err, i18n.T("install.err.fix_pth", i18n.D{"File": plan.Env.Pth, "Err": err}))
			return e.finish()
		}
		e.note("added `import site` to " + plan.Env.Pth) //i18n:raw the log, for support
	}
	if plan.NewVenv {
		e.createdVenv, e.createdTop = whatRunCreates(plan.Venv)
		// A build all in the cache: its size is known before the venv is made.
		if plan.Source.Kind == "cache" {
			if err := e.checkVenvSpace(); err != nil {
				e.out.Result, e.out.Err, e.out.FailedStep = ResultUnchanged, err, StepVenv
				e.emit(Event{StepID: StepVenv, State: StateFailed, Message: err.Error()})
				return e.finish()
			}
		}
	}
	if !plan.NewVenv && !e.runs(StepPipUpgrade) {
		// Where pip installs does not change before the install step: the venv's Python answers
		// while the snapshot, the stage and the backup run, off the install's path.
		e.askScheme(ctx)
	}
	for _, s := range plan.Steps {
		if e.stepSkip[s.ID] {
			e.emit(Event{StepID: s.ID, State: StateSkipped})
			continue
		}
		if err := ctx.Err(); err != nil && e.kept {
			// The new set is installed and stays: what is left (the lock files) is not done.
			e.emit(Event{StepID: s.ID, State: StateSkipped, Message: i18n.T("install.event.cancelled_after_install")})
			continue
		} else if err != nil {
			text := i18n.T("install.err.cancelled_before", i18n.D{"Step": StepName(s.ID), "Err": err})
			if errors.Is(err, context.Canceled) { // the user's own cancel: said in words, not Go's
				text = i18n.T("install.err.you_cancelled_before", i18n.D{"Step": StepName(s.ID)})
			}
			e.fail(ctx, s.ID, i18n.Wrap(err, text))
			return e.finish()
		}
		e.emit(Event{StepID: s.ID, State: StateRunning, Message: s.Title})
		e.journalStep(s.ID, s.ID == StepUninstall || s.ID == StepLeftovers || s.ID == StepInstall)
		began := time.Now()
		err := e.step(ctx, s)
		if e.out.StepSeconds == nil {
			e.out.StepSeconds = map[string]float64{}
		}
		e.out.StepSeconds[s.ID] = time.Since(began).Round(time.Millisecond).Seconds()
		e.note(fmt.Sprintf("step %s: %.3f s", s.ID, e.out.StepSeconds[s.ID])) //i18n:raw the log, for support
		if err == nil && ctx.Err() != nil && e.changed && s.ID != StepVerify && s.ID != StepLock {
			err = i18n.Wrap(ctx.Err(), i18n.T("install.err.cancelled_during", i18n.D{"Step": StepName(s.ID), "Err": ctx.Err()}))
		}
		if err != nil && !errors.Is(err, errSkipped) && errors.Is(ctx.Err(), context.Canceled) {
			// The user cancelled: the step's own error is Go's or pip's ("context canceled", a killed
			// process). The log keeps it; the screens say what happened.
			e.note("cancelled: " + err.Error()) //i18n:raw the log, for support
			err = i18n.Wrap(fmt.Errorf("%w: %w", ctx.Err(), err), i18n.T("install.err.you_cancelled_during", i18n.D{"Step": StepName(s.ID)}))
		}
		switch {
		case err == nil && s.ID == StepVenv:
			e.startJournal() // the new venv is the run's first change: from here on it says so
			e.journalDone(s.ID)
			e.emit(Event{StepID: s.ID, State: StateDone, Did: e.did[s.ID]})
		case err == nil && s.ID == StepVerify && e.out.Verify != nil && !e.out.Verify.OK:
			// The set stays in place (the verify screen says what failed), but the step did not pass.
			e.journalDone(s.ID)
			e.emit(Event{StepID: s.ID, State: StateFailed, Message: i18n.N("install.event.checks_failed", len(e.out.Verify.Failed()))})
		case err == nil:
			e.journalDone(s.ID)
			e.emit(Event{StepID: s.ID, State: StateDone, Did: e.did[s.ID]})
		case errors.Is(err, errSkipped):
			why := err.Error() // a reasonError's text says why; errSkipped alone says only "skipped"
			if err == errSkipped {
				why = ""
			}
			e.emit(Event{StepID: s.ID, State: StateSkipped, Message: why})
		case s.BestEffort || s.ID == StepLock || e.kept:
			// After the install step the new set stays: a step that fails then is said, not undone.
			e.out.Warnings = append(e.out.Warnings, i18n.T("install.warning.step", i18n.D{"Step": StepName(s.ID), "Err": err}))
			e.emit(Event{StepID: s.ID, State: StateFailed, Message: i18n.T("install.event.best_effort", i18n.D{"Err": err})})
		default:
			e.emit(Event{StepID: s.ID, State: StateFailed, Message: err.Error()})
			e.fail(ctx, s.ID, err)
			if diskFull(err) && e.out.Result != ResultDamaged {
				// Named as the check before the run names it, with the free space after the restore.
				if se := e.fullDiskError(s.ID); se != nil {
					se.Cause = err
					e.out.Err = se
				}
			}
			return e.finish()
		}
	}
	e.out.Result = ResultInstalled
	e.out.Installed = e.pins
	began := time.Now()
	if e.backupGone != nil {
		<-e.backupGone // begun beside the verify step
	} else {
		_ = os.RemoveAll(e.backupDir)
	}
	out := e.finish()
	e.note(fmt.Sprintf("the backup removed, the journal closed: %.3f s", time.Since(began).Seconds())) //i18n:raw the log, for support
	return out
}

// keepSet is the moment the install step has ended well: the new set is in place and stays,
// whatever the verify step finds (a failed check is said, never undone). From here the work that
// does not depend on the check runs beside it: the journal is closed as installed (a power loss now
// leaves the complete new set, and nothing for the next gpuwiz to put back), so the backup is no
// longer needed and its removal begins; the lock step's freeze, requirements.lock and
// constraints.txt are written. Only the protection waits for the check's verdict (protect).
func (e *engine) keepSet(ctx context.Context) {
	if e.kept {
		return
	}
	e.kept = true
	closed := true
	if e.jn != nil {
		e.jn.j.Finished, e.jn.j.Result = time.Now().UTC(), ResultInstalled
		e.jn.write()
		closed = e.jn.err == nil
	}
	if closed {
		done := make(chan struct{})
		e.backupGone = done
		go func() {
			defer close(done)
			began := time.Now()
			_ = os.RemoveAll(e.backupDir)
			pruneState(e.plan.StateDir, "")
			e.note(fmt.Sprintf("the backup removed beside the verify step: %.3f s", time.Since(began).Seconds())) //i18n:raw the log, for support
		}()
	}
	if l := e.stepAfter(StepVerify); l != nil && l.ID == StepLock {
		// The lock's freeze reads the venv as the install left it, which the check does not change.
		lock := *l
		e.lockFreeze = inBackground(ctx, func(ctx context.Context) ([]byte, error) {
			return e.freezeLock(ctx, lock.ID, pipArgv(e.plan.pip, *lock.Pip))
		})
		e.lockWrite = inBackground(ctx, func(ctx context.Context) (struct{}, error) { return struct{}{}, e.writeLockFiles(ctx, lock) })
	}
}

// runs says whether the plan has the step id and does not skip it.
func (e *engine) runs(id string) bool {
	for _, s := range e.plan.Steps {
		if s.ID == id {
			return !e.stepSkip[id]
		}
	}
	return false
}

// stepAfter is the plan's step after the one with id, unless it is skipped (nil: none).
func (e *engine) stepAfter(id string) *Step {
	for i, s := range e.plan.Steps {
		if s.ID == id && i+1 < len(e.plan.Steps) && !e.stepSkip[e.plan.Steps[i+1].ID] {
			return &e.plan.Steps[i+1]
		}
	}
	return nil
}

// errSkipped marks a step that had nothing to do; the error's text (a reasonError's) says why.
var errSkipped error = i18n.Lazy(func() string { return i18n.T("install.skip") })

// skipped is a step that had nothing to do, text saying why.
func skipped(text string) error { return &reasonError{of: errSkipped, msg: text, why: text} }

// whatRunCreates says whether creating a venv at dir makes something new: dir and any missing
// parents (top is the outermost of them), or only the contents of an existing empty dir (top "").
func whatRunCreates(dir string) (creates bool, top string) {
	for p := dir; ; p = filepath.Dir(p) {
		if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
			break
		}
		top = p
		if filepath.Dir(p) == p {
			break
		}
	}
	if top != "" {
		return true, top
	}
	entries, err := os.ReadDir(dir)
	return err == nil && len(entries) == 0, ""
}

// removeCreated takes away what whatRunCreates said the run would make.
func (e *engine) removeCreated() error {
	if e.createdTop != "" {
		return os.RemoveAll(e.createdTop)
	}
	entries, err := os.ReadDir(e.plan.Venv)
	if err != nil {
		return err
	}
	for _, en := range entries {
		if err := os.RemoveAll(filepath.Join(e.plan.Venv, en.Name())); err != nil {
			return err
		}
	}
	return nil
}

func (e *engine) finish() Outcome {
	e.endScheme()
	if e.lockWrite != nil {
		_, _ = e.lockWrite.wait() // its files are whole or not written (atomicfile)
	}
	if e.backupGone != nil {
		<-e.backupGone
	}
	e.lockFreeze.stop()
	e.prestage.stop()
	e.closeJournal()
	if e.out.Err != nil {
		e.out.Error = urls.Redact(e.out.Err.Error())
	}
	if e.jn != nil && e.jn.err != nil {
		e.out.Warnings = append(e.out.Warnings, i18n.T("faults.journal.write_failed", i18n.D{"File": e.jn.path, "Err": e.jn.err}))
	}
	return e.out
}

// fail ends the run. A venv this run created is removed again, whatever step failed: before this
// run there was none. Otherwise, before the first change nothing needs undoing; after it the old
// set is put back and the venv compared with its snapshot, and only an exact match is "restored".
func (e *engine) fail(ctx context.Context, stepID string, err error) {
	e.endScheme() // its Python must not hold the venv's files while they are put back or removed (Windows)
	e.prestage.stop()
	e.lockFreeze.stop()
	e.out.FailedStep, e.out.Err = stepID, err
	if e.createdVenv {
		e.out.Result = ResultUnchanged
		if e.changed {
			e.out.Result = ResultRestored
		}
		if rerr := e.removeCreated(); rerr != nil {
			e.out.Result = ResultDamaged
			left := e.plan.Venv
			if e.createdTop != "" {
				left = e.createdTop
			}
			e.out.Leftovers = []Leftover{{Path: left, What: "extra", Clear: removeCommand(hostGOOS(), left)}}
			e.out.Err = i18n.Wrap(err, i18n.T("install.err.venv_not_removed", i18n.D{"Err": err, "RemoveErr": rerr}))
			e.emit(Event{StepID: stepID, Message: i18n.T("install.event.venv_not_removed", i18n.D{"Err": rerr})})
			return
		}
		e.out.VenvRemoved, e.out.Restored = true, e.changed
		e.emit(Event{StepID: stepID, Message: i18n.T("install.event.venv_removed", i18n.D{"Venv": e.plan.Venv})})
		return
	}
	if !e.changed {
		e.out.Result = ResultUnchanged
		return
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), restoreTimeout)
	defer cancel()
	if e.jn != nil {
		e.jn.j.Restoring = true
		e.jn.write()
	}
	e.emit(Event{StepID: "restore", State: StateRunning, Message: i18n.T("install.event.restoring")})
	left, rerr := e.restore(rctx)
	if rerr != nil || len(left) > 0 {
		e.out.Result, e.out.Leftovers = ResultDamaged, left
		why := ""
		if rerr != nil {
			why = rerr.Error()
		} else {
			why = i18n.N("install.restore.left", len(left))
		}
		e.out.Err = i18n.Wrap(err, i18n.T("install.err.restore_unfinished", i18n.D{"Err": err, "Why": why, "Snapshot": e.out.SnapshotFile, "Backup": e.backupDir}))
		e.emit(Event{StepID: "restore", State: StateFailed, Message: why})
		return
	}
	e.out.Result, e.out.Restored = ResultRestored, true
	_ = os.RemoveAll(e.backupDir)
	e.emit(Event{StepID: "restore", State: StateDone, Message: i18n.T("install.event.restored")})
}

func (e *engine) step(ctx context.Context, s Step) error {
	if s.Pip == nil && (s.Kind == KindPip || s.Kind == KindSnapshot || s.Kind == KindLock) {
		return errors.New(i18n.T("install.err.unknown_step", i18n.D{"Step": strconv.Quote(s.ID)}))
	}
	switch s.ID {
	case StepVenv:
		h, err := createVenv(ctx, e.r, e.plan.python, e.plan.Venv, e.plan.userEnv, UnpackedDir(filepath.Dir(e.plan.StageDir)))
		if h != nil {
			e.adoptScheme(h)
		}
		return err
	case StepPipUpgrade:
		res := e.run(ctx, s.ID, runner.Cmd{Name: s.ID, Argv: pipArgv(e.plan.pip, *s.Pip), Env: e.plan.userEnv})
		if why := unreachableIndex(res.Tail); why != "" {
			// pip exits 0 when it cannot reach the index ("Requirement already satisfied"): nothing was upgraded.
			return skipped(i18n.T("install.pip_upgrade.unreachable", i18n.D{"Why": why, "Proxy": proxyNote(e.proxy)}))
		}
		if res.Err != nil {
			return i18n.Wrap(res.Err, i18n.T("install.pip_upgrade.failed", i18n.D{"Err": res.Err}))
		}
		e.afterPipUpgrade(ctx)
		if !e.plan.NewVenv {
			// Before the snapshot, so a later failure leaves pip upgraded: say so rather than let
			// "unchanged" claim the venv is byte-for-byte as it was.
			e.out.Warnings = append(e.out.Warnings, i18n.T("install.warn.pip_upgraded"))
		}
		return nil
	case StepSnapshot:
		// The next stage step's first part reads the venv's pip and the cache only: it runs beside
		// pip freeze.
		if n := e.stepAfter(StepSnapshot); n != nil && (n.ID == StepStage || n.ID == StepStageOpt) {
			e.prestage = e.startPrestage(ctx, *n)
		}
		return e.takeSnapshot(ctx, s)
	case StepStage, StepStageOpt:
		e.askScheme(ctx)
		return e.stage(ctx, s)
	case StepStageDeps:
		return e.stageDeps(ctx, s)
	case StepBackup:
		// The last moment before the first change: the wheels are staged, so their sizes are known.
		if err := e.checkVenvSpace(); err != nil {
			return err
		}
		if err := e.checkReinstallStaged(); err != nil {
			return err
		}
		if err := e.recordResolution(); err != nil {
			e.note("stage: the resolution was not recorded: " + err.Error()) //i18n:raw the log, for support
		}
		e.checkBuildFits()
		return e.backup(ctx)
	case StepUninstall:
		e.changed = true
		if handled, err := e.ownUninstall(ctx); handled {
			return err
		}
		return e.pip(ctx, s, *s.Pip)
	case StepLeftovers:
		e.changed = true
		return e.moveLeftovers()
	case StepInstall:
		e.changed = true
		args := e.installArgs(*s.Pip)
		if handled, err := e.ownInstall(ctx, args); handled {
			e.out.Installer = "gpuwiz"
			return err
		}
		e.out.Installer = "pip"
		return e.pip(ctx, s, args)
	case StepVerify:
		e.keepSet(ctx)
		rep, err := verify.RunWith(ctx, e.r, e.py, e.plan.Target.Framework, e.plan.Target.Channel, verify.Options{Env: e.plan.env, MatrixN: e.plan.verifyN})
		if err != nil {
			return err
		}
		e.out.Verify = &rep
		return nil
	case StepLock:
		var err error
		if e.lockWrite != nil {
			_, err = e.lockWrite.wait()
		} else {
			err = e.writeLockFiles(ctx, s)
		}
		if err != nil {
			return err
		}
		e.protect()
		return nil
	}
	return errors.New(i18n.T("install.err.unknown_step", i18n.D{"Step": strconv.Quote(s.ID)}))
}

// pip runs a pip step's command (a) in the framework environment: the one place the engine starts
// a step's pip, its argv rendered from a there.
func (e *engine) pip(ctx context.Context, s Step, a PipArgs) error {
	res := e.run(ctx, s.ID, runner.Cmd{Name: s.ID, Argv: pipArgv(e.plan.pip, a), Env: e.plan.env})
	if res.Err != nil {
		note := networkNote(res.Tail)
		if note != "" {
			note += proxyNote(e.proxy)
			return indexUnreachable{fmt.Errorf("pip %s: %w%s%s", a.Sub, res.Err, tailNote(res.Tail), note)}
		}
		return fmt.Errorf("pip %s: %w%s", a.Sub, res.Err, tailNote(res.Tail))
	}
	return nil
}

func tailNote(tail []string) string {
	for i := len(tail) - 1; i >= 0; i-- {
		if strings.Contains(tail[i], "ERROR") {
			return ": " + strings.TrimSpace(tail[i])
		}
	}
	return ""
}

// networkFailures are what pip prints when it cannot reach an index, and what to call each.
//
//i18n:raw pip's own output, matched, never shown by gpuwiz
var networkFailures = []struct {
	seen  string
	means func() string
}{
	{"Name or service not known", noResolve},
	{"Temporary failure in name resolution", noResolve},
	{"getaddrinfo failed", noResolve},
	{"nodename nor servname", noResolve},
	{"No address associated with hostname", noResolve},
	{"Network is unreachable", func() string { return i18n.T("install.net.unreachable") }},
	{"Connection refused", func() string { return i18n.T("install.net.refused") }},
	{"ProxyError", func() string { return i18n.T("install.net.proxy") }},
	{"CERTIFICATE_VERIFY_FAILED", func() string { return i18n.T("install.net.cert") }},
	{"timed out", func() string { return i18n.T("install.net.timeout") }},
}

func noResolve() string { return i18n.T("install.net.dns") }

// unreachableIndex is what pip's output says went wrong reaching an index, "" when nothing did.
func unreachableIndex(tail []string) string {
	for _, f := range networkFailures {
		for _, l := range tail {
			if strings.Contains(l, f.seen) {
				return f.means()
			}
		}
	}
	for _, l := range tail {
		if strings.Contains(l, "Could not fetch URL") || strings.Contains(l, "Max retries exceeded") {
			return i18n.T("install.net.no_answer")
		}
	}
	return ""
}

// networkNote names a failure to reach the package index in pip's output, with what to do.
func networkNote(tail []string) string {
	if why := unreachableIndex(tail); why != "" {
		return i18n.T("install.net.note", i18n.D{"Why": why})
	}
	return ""
}

// run runs one child, forwarding its lines (and pip's raw progress) as events.
func (e *engine) run(ctx context.Context, stepID string, c runner.Cmd) runner.Result {
	lines := make(chan runner.Line, 256)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var rate pipRate
		for l := range lines {
			if stepID == StepInstall {
				e.noteInstalledWheel(l.Text)
			}
			if stepID == StepStage || stepID == StepStageOpt || stepID == StepStageDeps {
				e.noteStagedWheel(l.Text)
			}
			ev := Event{StepID: stepID, Line: l.Text}
			if p, ok := runner.ParseProgress(l.Text); ok {
				rate.add(&p, time.Now())
				ev = Event{StepID: stepID, Progress: &p}
			}
			e.emitLine(ev)
		}
	}()
	res := e.r.Run(ctx, c, lines)
	close(lines)
	wg.Wait()
	return res
}

func (e *engine) emitLine(ev Event) {
	if ev.Line != "" {
		e.note(ev.Line)
	}
	if e.events == nil {
		return
	}
	select {
	case e.events <- ev:
	default:
	}
}

// note writes a line of the engine's own into the run's log, where the runner keeps one.
func (e *engine) note(text string) {
	runner.Note(e.r, text)
}

// emit sends a state change or message; a full channel gets a moment, never the whole install.
func (e *engine) emit(ev Event) {
	if e.events == nil {
		return
	}
	select {
	case e.events <- ev:
	case <-time.After(200 * time.Millisecond):
	}
}

// capture runs argv in the framework environment and returns its stdout.
func (e *engine) capture(ctx context.Context, name string, argv []string) ([]byte, error) {
	var buf bytes.Buffer
	res := e.r.Run(ctx, runner.Cmd{Name: name, Argv: argv, Env: e.plan.env, Stdout: &buf}, nil)
	if res.Err != nil {
		return nil, fmt.Errorf("%s: %w%s", name, res.Err, tailNote(res.Tail))
	}
	return buf.Bytes(), nil
}

func (e *engine) takeSnapshot(ctx context.Context, s Step) error {
	out, err := e.freezeAll(ctx, s.ID, pipArgv(e.plan.pip, *s.Pip))
	if err != nil {
		return err
	}
	e.snapshot = out
	stamp := time.Now().UTC().Format("20060102T150405.000000000Z")
	if err := os.MkdirAll(e.plan.StateDir, 0o755); err != nil {
		return err
	}
	e.out.SnapshotFile = filepath.Join(e.plan.StateDir, "snapshot-"+stamp+".txt")
	e.backupDir = filepath.Join(e.plan.StateDir, "backup-"+stamp)
	site, err := readSiteState(e.stateDirs())
	if err != nil {
		return i18n.Wrap(err, i18n.T("install.err.read_site", i18n.D{"Err": err}))
	}
	e.site = &site
	site.Owned = site.ownedList()
	listing, _ := json.MarshalIndent(site, "", " ")
	if err := atomicfile.Durable(strings.TrimSuffix(e.out.SnapshotFile, ".txt")+".json", listing, 0o644); err != nil {
		return err
	}
	if err := atomicfile.Durable(e.out.SnapshotFile, out, 0o644); err != nil {
		return err
	}
	e.journalSnapshot()
	return nil
}

// stage puts the step's wheels in the stage dir: from the cache alone when it already holds the
// set (the offline try), else from the index. Before the first stage step every cached wheel is
// checked against the sha256 it was staged with (or the venv's lock recorded); one that fails, or
// that has no recorded hash, is moved out of pip's sight and downloaded again. Every wheel a
// download adds is recorded with its hash and where it came from, whether the step succeeded or not,
// so a run that died at 80 % keeps what it finished.
func (e *engine) stage(ctx context.Context, s Step) error {
	if err := os.MkdirAll(e.plan.StageDir, 0o755); err != nil {
		return i18n.Wrap(err, i18n.T("install.err.cache_dir", i18n.D{"Dir": e.plan.StageDir, "Err": err}))
	}
	if s.ID == StepStageOpt && e.stageFrom == "record" {
		// The recorded set holds the optional packages' wheels as well: staged with the first step.
		e.cachedStage(s)
		return nil
	}
	pre := e.prestage
	e.prestage = nil
	if pre == nil || pre.step != s.ID {
		pre.stop()
		pre = e.startPrestage(ctx, s)
	}
	defer pre.stop()
	first, _ := pre.wait()
	offlineTry := first.offline
	if first.recorded != nil {
		e.stageFrom = "record"
		e.reportCache(first.cache)
		for _, f := range first.recorded {
			e.noteStaged(f)
		}
		e.emitLine(Event{StepID: s.ID, Line: i18n.N("install.cache.from_record", len(first.recorded), nil)})
		e.cachedStage(s)
		return nil
	}
	if first.locked != nil {
		e.stageFrom = "lock"
		e.reportCache(first.cache)
		for _, f := range slices.Concat(first.locked, first.more) {
			e.noteStaged(f)
		}
		e.emitLine(Event{StepID: s.ID, Line: i18n.N("install.cache.from_lock", len(first.locked), nil)})
		if len(first.more) > 0 {
			var names []string
			for _, f := range first.more {
				names = append(names, filepath.Base(f))
			}
			e.emitLine(Event{StepID: s.ID, Line: i18n.N("install.cache.from_lock_more", len(first.more), i18n.D{"Wheels": strings.Join(names, " ")})})
		}
		e.cachedStage(s)
		return nil
	}
	if s.ID == StepStage {
		if aside := e.reportCache(first.cache); len(aside) > 0 {
			if err := quarantine(e.plan.StageDir, aside); err != nil {
				return err
			}
			first.hopeless = offlineHopeless(*s.OfflinePip) // the folder changed
			offlineTry = e.startOffline(ctx, s, first.hopeless)
		}
	}
	defer func() { offlineTry.stop() }()
	// pip's resolve for a download starts only now: the shim it runs may write wheels into the
	// cache folder, which the check above must not take for unknown files.
	// When the offline try cannot succeed (or none runs), the wheels pip looks at are downloaded
	// while it resolves.
	early := offlineTry == nil || first.hopeless != ""
	resolved := e.startResolve(ctx, s, early) // while the offline try runs
	defer resolved.stop()
	offline, err := offlineTry.wait()
	if err == nil {
		for _, l := range offline {
			e.noteStagedWheel(l)
		}
		e.cachedStage(s)
		return nil
	} else if ctx.Err() != nil {
		return err
	}
	e.emitLine(Event{StepID: s.ID, Line: i18n.T("install.event.cache_miss")})
	if s.ID == StepStage {
		e.out.Source = e.plan.IndexURL
		if e.plan.FindLinks != "" {
			e.out.Source = e.plan.FindLinks
		}
	}
	if done, err := e.stageWithFetch(ctx, s, resolved); done {
		return err
	}
	before := dirFiles(e.plan.StageDir)
	err = e.pip(ctx, s, *s.Pip)
	e.out.BytesDownloaded += newBytes(before, dirFiles(e.plan.StageDir))
	if rerr := recordNew(e.plan.StageDir, e.out.Source); rerr != nil && err == nil {
		err = i18n.Wrap(rerr, i18n.T("install.err.record", i18n.D{"Err": rerr}))
	}
	if err != nil && s.ID == StepStageOpt {
		e.dropOptional()
	}
	if err != nil && ctx.Err() == nil && !errors.As(err, new(indexUnreachable)) {
		err = probeIndex(ctx, err, s.Pip.IndexURL, e.proxy)
	}
	return err
}

// cachedStage ends a stage step that the wheel cache satisfied whole.
func (e *engine) cachedStage(s Step) {
	e.emit(Event{StepID: s.ID, Message: i18n.T("install.event.all_cached")})
	e.did[s.ID] = e.fromCache(s)
	if s.ID == StepStage {
		e.stepSkip[StepStageDeps] = true
		e.out.Source = "cache"
	}
}

// checkBuildFits warns, once the build's wheels are staged and before anything in the venv changes,
// when the deepest file they install would not fit below the venv on Windows with long paths off.
func (e *engine) checkBuildFits() {
	goos := e.plan.venv.GOOS
	if goos == "" {
		goos = hostGOOS()
	}
	if goos != "windows" {
		return
	}
	staged, err := stagedWheels(e.plan.StageDir)
	if err != nil || len(staged) == 0 {
		return
	}
	files := make([]string, len(staged))
	for i, w := range staged {
		files[i] = w.file
	}
	deepest, err := pyenv.DeepestWheelFile(files)
	if err != nil {
		return
	}
	if w := pyenv.BuildFits(e.plan.Venv, deepest, goos, pyenv.ReadLongPaths()); w != "" {
		e.out.Warnings = append(e.out.Warnings, w)
		e.emit(Event{StepID: StepBackup, Message: w})
	}
}

// fromCache is what a download step did when every wheel came from the wheel cache.
func (e *engine) fromCache(s Step) string {
	pins := e.pins
	if s.ID == StepStageOpt {
		pins = e.plan.optional
	}
	return i18n.T("install.step.from_cache", i18n.D{"Pins": strings.Join(pins, " ")})
}

// prestaged is the start of a stage step: the check of every cached wheel (the first stage step's
// only) and the offline try begun beside it.
type prestaged struct {
	cache    cacheCheck
	recorded []string              // the build's wheels, when the resolution recorded for this run's key was taken (resolved.go): no pip at all
	offline  *background[[]string] // nil when the check set wheels aside (the try is made again after), or the lock staged the build
	locked   []string              // the build's wheels, when the venv's lock named them (stageFromLock): no offline try
	more     []string              // with locked: the other wheels pip's dry run against the venv asked for
	hopeless string                // offlineHopeless of the folder the offline try reads: the try and the early fetch both go by it
}

// startPrestage begins s's first part in the background: the offline try (a pip start, about a
// second), or for the lock's build pip's dry run (lockstage.go), runs while the cached wheels are
// checked; when a wheel fails the check (it may have been
// the try's choice), the try is stopped, to be made again once the wheel is set aside. The engine
// starts it during the snapshot step, which reads the venv only, as the try and the check do.
func (e *engine) startPrestage(ctx context.Context, s Step) *prestage {
	b := inBackground(ctx, func(ctx context.Context) (prestaged, error) {
		var p prestaged
		checked := false // the cache's check ran already
		if s.ID == StepStage {
			// The resolution recorded for this request: when the cache still holds its wheels
			// unchanged, pip is not started. The cache's check runs first here (it decides).
			set, why := e.recordedSet()
			if set != nil {
				p.cache, checked = checkCache(e.plan.StageDir, e.plan.lockHashes), true
				files, err := e.acceptSet(set, p.cache)
				if err == nil {
					e.note(fmt.Sprintf("stage: the resolution recorded %s taken (%d wheels): pip is not started", set.Recorded.Format(time.RFC3339), len(files))) //i18n:raw the log, for support
					p.recorded = files
					return p, nil
				}
				why = err.Error()
			}
			e.note("stage: no recorded resolution taken: " + why) //i18n:raw the log, for support
			if set != nil && len(p.cache.Bad)+len(p.cache.Unknown) > 0 {
				return p, nil // set aside first; the offline try follows
			}
		}
		var dry *background[pipReport]
		locked := e.lockedWheels(s)
		p.hopeless = offlineHopeless(*s.OfflinePip)
		if locked == nil {
			p.offline = e.startOffline(ctx, s, p.hopeless)
		} else {
			dry = inBackground(ctx, e.lockDryRun)
		}
		if s.ID == StepStage && !checked {
			if p.cache = checkCache(e.plan.StageDir, e.plan.lockHashes); len(p.cache.Bad)+len(p.cache.Unknown) > 0 {
				p.offline.stop() // pip must not hold a wheel while it is moved (Windows)
				p.offline = nil
				dry.stop()
				return p, nil
			}
		}
		if locked != nil {
			rep, err := dry.wait()
			if more, ok := e.stageFromLock(locked, rep, err, p.cache); ok {
				p.locked, p.more = locked, more
			} else {
				p.offline = e.startOffline(ctx, s, p.hopeless)
			}
		}
		return p, nil
	})
	return &prestage{step: s.ID, b: b}
}

// prestage is a stage step's first part running in the background (startPrestage).
type prestage struct {
	step string
	b    *background[prestaged]
}

func (p *prestage) wait() (prestaged, error) { return p.b.wait() }

// stop ends the check and the offline try; safe on nil.
func (p *prestage) stop() {
	if p == nil {
		return
	}
	p.b.stop()
	if v, _ := p.b.wait(); v.offline != nil {
		v.offline.stop()
	}
}

// reportCache says what the check of the cached wheels found, and returns those to set aside
// (quarantine): a wheel that fails its sha256, or has none recorded.
func (e *engine) reportCache(c cacheCheck) []string {
	if n := len(c.Verified) + len(c.Bad) + len(c.Unknown); n > 0 {
		//i18n:raw the log, for support
		e.note(fmt.Sprintf("the cache's check: %d wheels, %d hashed (their stamp was not the recorded one)", n, len(c.Hashed)))
	}
	for _, f := range c.Bad {
		e.emit(Event{StepID: StepStage, Message: i18n.T("install.cache.bad", i18n.D{"File": f})})
	}
	for _, f := range c.Unknown {
		e.emit(Event{StepID: StepStage, Message: i18n.T("install.cache.unknown", i18n.D{"File": f})})
	}
	if len(c.Verified) > 0 {
		e.emitLine(Event{StepID: StepStage, Line: i18n.N("install.cache.verified", len(c.Verified), i18n.D{"Size": i18n.Size(c.Bytes)})})
	}
	return append(c.Bad, c.Unknown...)
}

// startOffline begins the stage's offline try: pip download from the cache folder alone. Its
// output goes to the log only: its miss is expected (pip's "ERROR: Could not find a version"
// means "not all in the cache yet") and is no error to the user. Its lines still say which cached
// wheels it chose ("File was already downloaded …"): the install step takes exactly those when the
// try succeeds.
//
// The try is not made when hopeless names a pinned top-level requirement the cache folder holds no
// file for (offlineHopeless): pip could only fail (a second or more for nothing on a first
// install). The log says which requirement.
func (e *engine) startOffline(ctx context.Context, s Step, hopeless string) *background[[]string] {
	return inBackground(ctx, func(ctx context.Context) ([]string, error) {
		if hopeless != "" {
			e.note(fmt.Sprintf("%s: the offline try is skipped: the cache holds no wheel for %s", s.ID, hopeless)) //i18n:raw the log, for support
			return nil, errOfflineSkipped
		}
		var out []string
		lines := make(chan runner.Line, 256)
		read := make(chan struct{})
		go func() {
			defer close(read)
			for l := range lines {
				out = append(out, l.Text)
			}
		}()
		res := e.r.Run(ctx, runner.Cmd{Name: s.ID + " (offline)", Argv: pipArgv(e.plan.pip, *s.OfflinePip), Env: e.plan.env}, lines) //i18n:raw the step's label in the log
		close(lines)
		<-read
		return out, res.Err
	})
}

// errOfflineSkipped is an offline try not made (offlineHopeless): a miss, as pip's own would be.
var errOfflineSkipped = errors.New("offline try skipped: a pinned requirement has no file in the cache") //i18n:raw never shown: the stage reads it as a miss

// offlineHopeless names a pinned top-level requirement of the offline try a for which its
// find-links folders hold no file: no wheel of that name and version, and no other file (an sdist)
// of that project. "" when each pin has one (pip decides then), or when a pin is not a plain
// name==version.
func offlineHopeless(a PipArgs) string {
	var staged []wheelInfo
	others := map[string]bool{} // directory entries that are no wheel, by normalised name
	for _, dir := range a.FindLinks {
		ws, err := stagedWheels(dir)
		if err != nil {
			return ""
		}
		staged = append(staged, ws...)
		entries, _ := os.ReadDir(dir)
		for _, en := range entries {
			if !strings.HasSuffix(en.Name(), ".whl") {
				others[pep.Normalize(en.Name())] = true
			}
		}
	}
	for _, pin := range a.Pins {
		name, version, ok := strings.Cut(pin, "==")
		if !ok || name == "" || strings.ContainsAny(pin, ";@ <>!~,[") || strings.HasPrefix(version, "=") {
			continue
		}
		if _, ok := wheelFor(staged, pin); ok {
			continue
		}
		project := pep.Normalize(name) + "-"
		sdist := false
		for f := range others {
			sdist = sdist || strings.HasPrefix(f, project)
		}
		if !sdist {
			return pin
		}
	}
	return ""
}

// probeIndex asks the index pip used (the step's typed index URL) whether it answers at all, when
// pip's own output did not say (with PIP_RETRIES=0 it prints only "No matching distribution"): an
// index that cannot be reached is the commonest cause and has a plain fix.
func probeIndex(ctx context.Context, err error, index string, proxy *netproxy.Resolver) error {
	if index == "" {
		return err
	}
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, rerr := http.NewRequestWithContext(pctx, http.MethodGet, strings.TrimRight(index, "/")+"/", nil)
	if rerr != nil {
		return err
	}
	resp, herr := proxy.Client().Do(req)
	if herr != nil {
		why := herr.Error()
		if u := (*url.Error)(nil); errors.As(herr, &u) {
			why = u.Err.Error()
		}
		return indexUnreachable{i18n.Wrap(err, i18n.T("install.probe.unreachable", i18n.D{"Err": urls.Redact(err.Error()), "Index": urls.Redact(index), "Why": urls.Redact(why), "Proxy": proxyNote(proxy)}))}
	}
	resp.Body.Close()
	if resp.StatusCode >= 400 {
		return i18n.Wrap(err, i18n.T("install.probe.status", i18n.D{"Err": urls.Redact(err.Error()), "Index": urls.Redact(index), "Status": resp.Status}))
	}
	return err
}

// stageDeps downloads the dependencies of the framework wheel (staged alone from the official
// index) from the mirror.
func (e *engine) stageDeps(ctx context.Context, s Step) error {
	staged, err := stagedWheels(e.plan.StageDir)
	if err != nil {
		return err
	}
	w, ok := wheelFor(staged, e.plan.pins[0])
	if !ok {
		return errors.New(i18n.T("install.err.not_staged", i18n.D{"Pin": e.plan.pins[0], "Dir": e.plan.StageDir}))
	}
	reqs, err := wheelRequires(w.file)
	if err != nil {
		return err
	}
	if len(reqs) == 0 {
		return skipped(i18n.T("install.skip.no_deps", i18n.D{"Wheel": filepath.Base(w.file)}))
	}
	if err := atomicfile.Write(e.plan.depsFile(), []byte(strings.Join(reqs, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	if done, err := e.stageWithFetch(ctx, s, nil); done {
		return err
	}
	before := dirFiles(e.plan.StageDir)
	err = e.pip(ctx, s, *s.Pip)
	e.out.BytesDownloaded += newBytes(before, dirFiles(e.plan.StageDir))
	if rerr := recordNew(e.plan.StageDir, e.plan.Target.Mirror); rerr != nil && err == nil {
		err = i18n.Wrap(rerr, i18n.T("install.err.record", i18n.D{"Err": rerr}))
	}
	return err
}

func (e *engine) dropOptional() {
	e.emit(Event{StepID: StepStageOpt, Message: i18n.T("install.event.optional_dropped", i18n.D{"Pins": strings.Join(e.plan.optional, " ")})})
	e.optionalDropped = true
}

// installArgs is the install step's command as it runs: without the optional packages when their
// stage failed.
func (e *engine) installArgs(a PipArgs) PipArgs {
	if !e.optionalDropped || len(e.plan.optional) == 0 {
		e.pins = append(e.pins, e.plan.optional...)
		return a
	}
	a.Optional = nil
	return a
}

// afterPipUpgrade switches later steps to raw progress when the upgraded pip has it.
func (e *engine) afterPipUpgrade(ctx context.Context) {
	out, err := e.capture(ctx, "pip --version", //i18n:raw the step's label in the log
		e.plan.pip.Argv("--version"))
	if err != nil {
		return
	}
	fields := strings.Fields(string(out))
	if len(fields) < 2 || pipOlderThan(fields[1], rawProgressFrom) {
		return
	}
	for i := range e.plan.Steps {
		for _, a := range []*PipArgs{e.plan.Steps[i].Pip, e.plan.Steps[i].OfflinePip} {
			if a != nil && a.Progress == "off" && e.plan.Steps[i].ID != StepPipUpgrade {
				a.Progress = "raw"
			}
		}
	}
}

// copySteps deep-copies steps so the engine's adjustments of their pip commands never reach the
// caller's plan.
func copySteps(in []Step) []Step {
	out := make([]Step, len(in))
	for i, s := range in {
		s.Argv = append([]string(nil), s.Argv...)
		if s.Offline != nil {
			s.Offline = append([]string(nil), s.Offline...)
		}
		s.Pip, s.OfflinePip = s.Pip.clone(), s.OfflinePip.clone()
		out[i] = s
	}
	return out
}

// checkReinstallStaged: every dist the plan removes only to put it back (a CUDA library with missing
// files) has a wheel among the ones the build staged; else it would be removed and not come back.
func (e *engine) checkReinstallStaged() error {
	if len(e.plan.ReinstallDists) == 0 {
		return nil
	}
	have := map[string]bool{}
	for f := range e.stagedFiles {
		if w, err := pep.ParseWheel(filepath.Base(f)); err == nil {
			have[w.Name] = true
		}
	}
	if len(have) == 0 { // nothing recorded of the stage steps: what the stage folder holds
		staged, err := stagedWheels(e.plan.StageDir)
		if err != nil {
			return err
		}
		for _, w := range staged {
			have[w.name] = true
		}
	}
	var missing []string
	for _, n := range e.plan.ReinstallDists {
		if !have[n] {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		return errors.New(i18n.T("install.err.reinstall_not_staged", i18n.D{"Dists": strings.Join(missing, " "), "Dir": e.plan.StageDir}))
	}
	return nil
}
