package install

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"gpuwiz/steps/atomicfile"
	"gpuwiz/steps/envroot"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/shellquote"
	"gpuwiz/steps/urls"
)

// JournalName is the file in a venv's state folder (.gpuwiz) where a run records what it is doing
// to the venv, written before its first change and closed when it ends.
const JournalName = "journal.json"

// keepSnapshots is how many snapshots (the freeze and the folder listing of a run) a venv's state
// folder keeps; older ones are removed when a run ends.
const keepSnapshots = 3

// Journal is an install's record of what it is doing to a venv: enough for a later gpuwiz, after
// a power loss or a kill, to say what happened and to put the old set back from the backup with
// no network. Finished is zero while the run is (or was, when it died) under way.
type Journal struct {
	Format    int       `json:"format"`
	Run       string    `json:"run"` // the stamp of the run's snapshot and backup
	PID       int       `json:"pid"`
	Started   time.Time `json:"started"`
	Updated   time.Time `json:"updated"`
	Finished  time.Time `json:"finished,omitzero"`
	Result    string    `json:"result,omitempty"` // how it ended (an Outcome result), once finished
	Venv      string    `json:"venv"`
	Python    string    `json:"python"` // the venv's interpreter
	Framework string    `json:"framework"`
	Version   string    `json:"version"`
	Channel   string    `json:"channel"`
	IndexURL  string    `json:"index_url"`      // credentials are not kept
	Step      string    `json:"step"`           // the step under way (the last one started)
	Done      []string  `json:"done"`           // steps finished
	NewVenv   bool      `json:"new_venv"`       // the run creates the venv: putting back means removing it
	CreatedAt string    `json:"created_top"`    // what the run creates (the venv or a missing parent); "" for an existing empty folder
	Changed   bool      `json:"changed"`        // the uninstall or install has begun: the venv differs from its snapshot
	Remove    []string  `json:"remove"`         // dists the run uninstalls
	Install   []string  `json:"install"`        // exact pins the run installs
	Leftovers []string  `json:"leftovers"`      // ~ folders the run moves aside
	Families  []string  `json:"families"`       // the framework family's dist names
	Snapshot  string    `json:"snapshot"`       // pip freeze --all before the change
	SiteState string    `json:"site_state"`     // the folder listing before the change
	Backup    string    `json:"backup"`         // the backup folder (files hard-linked, manifest.json)
	StageDir  string    `json:"stage_dir"`      // the wheel cache the build came from
	Restoring bool      `json:"restoring"`      // a restore had begun when the journal was last written
	Why       string    `json:"why,omitempty"`  // the error that ended the run, when it failed
	Left      []string  `json:"left,omitempty"` // a failed restore: what still differs
}

// JournalPath is venv's journal file.
func JournalPath(venv string) string { return filepath.Join(venv, ".gpuwiz", JournalName) }

// Open reports a run that has not closed its journal.
func (j Journal) Open() bool { return j.Finished.IsZero() }

// ReadJournal reads venv's journal; nil when there is none.
func ReadJournal(venv string) (*Journal, error) {
	b, err := os.ReadFile(JournalPath(venv))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var j Journal
	if err := json.Unmarshal(b, &j); err != nil {
		return nil, i18n.Wrap(err, i18n.T("faults.journal.unreadable", i18n.D{"File": JournalPath(venv), "Err": err}))
	}
	return &j, nil
}

// Interrupted is an unfinished run found in a venv's journal.
type Interrupted struct {
	Journal Journal `json:"journal"`
	Running bool    `json:"running"` // a live gpuwiz holds the venv's lock: the run is still going
}

// FindInterrupted reads venv's journal and says whether a run on it did not finish: nil when the
// last run closed its journal (or there is none). Running is true when a gpuwiz process holds the
// venv's lock now (the run is alive, not dead).
func FindInterrupted(venv string) *Interrupted {
	j, err := ReadJournal(venv)
	if err != nil || j == nil || !j.Open() {
		return nil
	}
	in := &Interrupted{Journal: *j}
	if unlock, err := pyenv.Lock(venv); err != nil {
		in.Running = errors.Is(err, pyenv.ErrLocked)
	} else {
		_ = unlock()
	}
	return in
}

// What says in words what the run was doing: "switch to torch 2.11.0 (cu128)".
func (j Journal) What() string {
	switch {
	case j.NewVenv:
		return i18n.T("faults.journal.what_new", i18n.D{"Framework": j.Framework, "Version": j.Version, "Channel": j.Channel})
	case len(j.Remove) > 0:
		return i18n.T("faults.journal.what_switch", i18n.D{"Framework": j.Framework, "Version": j.Version, "Channel": j.Channel})
	}
	return i18n.T("faults.journal.what_install", i18n.D{"Framework": j.Framework, "Version": j.Version, "Channel": j.Channel})
}

// Changes says in words what the run had changed when it stopped.
func (j Journal) Changes() string {
	switch {
	case j.NewVenv:
		return i18n.T("faults.journal.changed_new", i18n.D{"Venv": j.Venv})
	case !j.Changed:
		return i18n.T("faults.journal.changed_nothing")
	}
	remove, pins := i18n.Join(j.Remove), i18n.Join(j.Install)
	switch {
	case j.Step == StepUninstall && len(j.Remove) > 0:
		return i18n.T("faults.journal.changed_uninstall", i18n.D{"Remove": remove})
	case len(j.Remove) > 0:
		return i18n.T("faults.journal.changed_switch", i18n.D{"Remove": remove, "Install": pins})
	}
	return i18n.T("faults.journal.changed_install", i18n.D{"Install": pins})
}

// Summary is one plain sentence about an unfinished run: what, when it started, which step it
// stopped in and what it had changed.
func (in Interrupted) Summary() string {
	j := in.Journal
	started := j.Started.Local().Format("2006-01-02 15:04:05")
	if in.Running {
		return i18n.T("faults.journal.summary_running", i18n.D{"What": j.What(), "Started": started, "Step": StepName(j.Step), "PID": j.PID})
	}
	changes := j.Changes()
	if j.Restoring {
		changes = i18n.JoinClauses([]string{changes, i18n.T("faults.journal.restoring")})
	}
	return i18n.T("faults.journal.summary", i18n.D{"What": j.What(), "Started": started, "Step": StepName(j.Step), "PID": j.PID, "Changes": changes})
}

// StepName is a step's name in words.
func StepName(id string) string { return stepNames.Say(id, id) }

var stepNames = i18n.Words[string]{
	StepVenv:       func() string { return i18n.T("faults.step.venv") },
	StepPipUpgrade: func() string { return i18n.T("faults.step.pip_upgrade") },
	StepSnapshot:   func() string { return i18n.T("faults.step.snapshot") },
	StepStage:      stageName,
	StepStageDeps:  stageName,
	StepStageOpt:   stageName,
	StepBackup:     func() string { return i18n.T("faults.step.backup") },
	StepUninstall:  func() string { return i18n.T("faults.step.uninstall") },
	StepLeftovers:  func() string { return i18n.T("faults.step.leftovers") },
	StepInstall:    func() string { return i18n.T("faults.step.install") },
	StepVerify:     func() string { return i18n.T("faults.step.verify") },
	StepLock:       func() string { return i18n.T("faults.step.lock") },
	"restore":      func() string { return i18n.T("faults.step.restore") },
}

func stageName() string { return i18n.T("faults.step.stage") }

// InterruptedError refuses an install into a venv whose last run did not finish (or is running).
type InterruptedError struct{ In Interrupted }

func (e *InterruptedError) Error() string {
	if e.In.Running {
		return i18n.T("faults.install.running", i18n.D{"Summary": e.In.Summary()})
	}
	return i18n.T("faults.install.interrupted", i18n.D{"Summary": e.In.Summary(),
		"Fix":    shellquote.Command(hostGOOS(), "gpuwiz", "doctor", "--venv", e.In.Journal.Venv, "--fix"),
		"Finish": shellquote.Command(hostGOOS(), "gpuwiz", "doctor", "--venv", e.In.Journal.Venv, "--fix", "--finish")})
}

// journal keeps an engine's journal file up to date.
type journal struct {
	j    Journal
	path string
	err  error // the first write that failed (the run goes on; the outcome warns)
}

// write replaces the journal file with j: a temporary file, synced, renamed over the old one, so a
// power loss leaves the old journal or the new one, never half of one.
func (w *journal) write() {
	if w == nil || w.path == "" {
		return
	}
	w.j.Updated = time.Now().UTC()
	b, _ := json.MarshalIndent(w.j, "", " ")
	if err := atomicfile.Durable(w.path, b, 0o644); err != nil && w.err == nil {
		w.err = err
	}
}

// startJournal writes the journal before the run's first change.
func (e *engine) startJournal() {
	p := e.plan
	install := append(append([]string{}, p.pins...), p.optional...)
	e.jn = &journal{path: filepath.Join(p.StateDir, JournalName), j: Journal{
		Format: 1, PID: os.Getpid(), Started: time.Now().UTC(), Venv: p.Venv, Python: e.py,
		Framework: p.Target.Framework, Version: p.Target.FrameworkVersion, Channel: p.Target.Channel, IndexURL: urls.Strip(p.IndexURL),
		Done: []string{}, NewVenv: e.createdVenv, CreatedAt: e.createdTop, Remove: append([]string{}, p.Uninstall...),
		Install: install, Leftovers: append([]string{}, p.leftovers...), Families: append([]string{}, p.families...),
		StageDir: p.StageDir,
	}}
	e.jn.write()
}

// journalSnapshot records where the snapshot and the backup are.
func (e *engine) journalSnapshot() {
	if e.jn == nil {
		e.startJournal()
	}
	e.jn.j.Run = strings.TrimSuffix(strings.TrimPrefix(filepath.Base(e.out.SnapshotFile), "snapshot-"), ".txt")
	e.jn.j.Snapshot = e.out.SnapshotFile
	e.jn.j.SiteState = strings.TrimSuffix(e.out.SnapshotFile, ".txt") + ".json"
	e.jn.j.Backup = e.backupDir
	e.jn.write()
}

// journalStep records that step id starts (changes: it is the uninstall or the install).
func (e *engine) journalStep(id string, changes bool) {
	if e.jn == nil {
		return
	}
	e.jn.j.Step = id
	e.jn.j.Changed = e.jn.j.Changed || changes
	e.jn.write()
}

func (e *engine) journalDone(id string) {
	if e.jn == nil {
		return
	}
	e.jn.j.Done = append(e.jn.j.Done, id)
	e.jn.write()
}

// closeJournal ends the journal with the run's result, unless the venv still differs from its
// snapshot: then it stays open, so the next gpuwiz names the run and can try the restore again.
func (e *engine) closeJournal() {
	if e.jn == nil {
		return
	}
	if e.out.Err != nil {
		e.jn.j.Why = urls.Redact(e.out.Err.Error())
	}
	if e.out.Result == ResultDamaged {
		e.jn.j.Restoring = true
		for _, l := range e.out.Leftovers {
			e.jn.j.Left = append(e.jn.j.Left, l.What+" "+l.Path)
		}
		e.jn.write()
		return
	}
	if e.out.VenvRemoved {
		return // the journal went with the venv
	}
	if !e.jn.j.Open() {
		return // closed as installed once the install step ended (keepSet)
	}
	e.jn.j.Finished, e.jn.j.Result = time.Now().UTC(), e.out.Result
	e.jn.write()
	pruneState(e.plan.StateDir, "")
}

// pruneState keeps a venv's state folder small: every backup folder but keep (the one an open
// journal still needs) goes, and only the newest keepSnapshots snapshots stay.
func pruneState(stateDir, keep string) {
	entries, err := os.ReadDir(stateDir)
	if err != nil {
		return
	}
	var snaps []string
	venv := envroot.New(filepath.Dir(stateDir)) // a state folder linked out of the venv is not pruned
	for _, en := range entries {
		name := en.Name()
		switch {
		case en.IsDir() && strings.HasPrefix(name, "backup-") && filepath.Join(stateDir, name) != keep && venv.Removable(filepath.Join(stateDir, name)):
			_ = os.RemoveAll(filepath.Join(stateDir, name))
		case strings.HasPrefix(name, "snapshot-") && strings.HasSuffix(name, ".txt"):
			snaps = append(snaps, strings.TrimSuffix(name, ".txt"))
		}
	}
	slices.Sort(snaps) // the stamp sorts by time
	for len(snaps) > keepSnapshots && venv.Inside(filepath.Join(stateDir, snaps[0]+".txt")) {
		_ = os.Remove(filepath.Join(stateDir, snaps[0]+".txt"))
		_ = os.Remove(filepath.Join(stateDir, snaps[0]+".json"))
		snaps = snaps[1:]
	}
}
