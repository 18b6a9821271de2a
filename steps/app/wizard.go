package app

import (
	"context"
	"errors"
	"runtime"
	"strings"

	"gpuwiz/matrix"
	"gpuwiz/steps/bench"
	"gpuwiz/steps/doctor"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/install"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/venvs"
	"gpuwiz/steps/verify"
)

// Wizard is the application layer as the terminal wizard (ui) asks it: one method per question,
// each taking and returning app's own types. Every method may block; the wizard calls them only
// inside its commands. ui fakes it through an interface of the same method set.
type Wizard struct {
	env *Env
	run runner.Runner
}

// NewWizard is the wizard's application layer over the run's environment (--matrix, --sources,
// --simulate).
func NewWizard(env *Env) *Wizard { return &Wizard{env: env, run: runner.New(nil)} }

// PathCheck is the verdict on a venv path typed by the user.
type PathCheck struct {
	Path     string // the absolute path the typed text means (steps/userpath); shown back when it differs
	Errors   []string
	Warnings []string
	Exists   bool // a venv is already there: it will be reused
	Conda    bool // what is there is a conda env
	// Env is the kind in words of an environment there that is neither a venv nor a conda env (a
	// bundle's embedded Python, a Python's own prefix); "" otherwise.
	Env string
	// NotEnv: the folder holds files but no Python environment.
	NotEnv bool
	// File: the path is a file that is no environment's interpreter.
	File bool
}

// VenvInfo is what an existing venv holds.
type VenvInfo struct {
	Path             string
	PythonVersion    string
	Framework        string // "torch", "paddle" or ""
	FrameworkVersion string // "2.6.0"
	Channel          string // "cu126", "cpu" or ""
	Packages         []string
}

// KnownVenv is one environment the wizard offers before a typed path.
type KnownVenv struct {
	Path      string
	Framework string // "torch", "paddle" or "": what it holds
	// Found is what it holds, gpuwiz's last run there or where it was found (a front end words it:
	// steps/words.VenvLine).
	Found FoundVenv
	// Nearby: found around the folder gpuwiz runs from (or ComfyUI Desktop's), not one gpuwiz
	// knows: listed to pick, never put in the path field unasked.
	Nearby bool
}

// PlanRequest is what the wizard wants installed, and where.
type PlanRequest struct {
	Venv      string
	Python    string // interpreter that creates the venv when it does not exist
	Candidate matrix.Candidate
	Reuse     bool
	// Where the packages come from (the package-source step); all empty: the channel's index.
	IndexURL  string // a PEP 503 index for the whole family, in place of the channel's
	FindLinks string // a flat page of the framework's wheels (pip --find-links)
	Mirror    string // a PyPI-style index for the dependencies
	Source    string // the chosen source in words, for the plan screen
	SourceWhy string // why the plan takes that source, in the front end's words ("" : none said)
}

// PlanKind is which session a Plan runs.
type PlanKind int

const (
	PlanOfInstall PlanKind = iota
	PlanOfRepair
	PlanOfAdd
)

// Plan is a session's plan as a front end lists it before the user confirms: its steps, commands,
// the engine's and doctor's notes and warnings in their words, and what app adds as values the
// front end words (a step's Kind, a command gpuwiz runs itself, what a repair leaves to the user).
// Wizard.Install runs the session it was made from.
type Plan struct {
	Kind          PlanKind
	Steps         []PlanStep
	Commands      []PlanCommand
	Uninstall     []string
	Install       []string
	DownloadBytes int64 // 0 when unknown
	Notes         []string
	Warnings      []string
	// LeftToYou are the problems a repair does not fix: shown as warnings, each with its fix.
	LeftToYou []Finding
	Venv      string
	Candidate matrix.Candidate
	// Index is the index's answer for an install's build (a front end notes one it could not read).
	Index IndexCheck

	session any // *InstallSession, *RepairSession or *AddSession
}

// InstallSession is the install session the plan runs (nil for a repair or an add).
func (p Plan) InstallSession() *InstallSession {
	s, _ := p.session.(*InstallSession)
	return s
}

// PlanStep is one step of the plan, as listed while it runs.
type PlanStep struct {
	ID    string
	Title string // the install engine's or doctor's title, in their words; "" when Kind names the step
	Kind  PlanStepKind
}

// PlanStepKind is what a plan step is: one the engine or doctor titled, or one app adds to a
// repair, which the front end words.
type PlanStepKind int

const (
	PlanStepTitled      PlanStepKind = iota // Title says what it does
	PlanStepReinstall                       // a repair's install of Plan.Candidate through the install engine
	PlanStepDoctorAgain                     // doctor runs again once the repair is done
)

// PlanCommand is one line of a plan's commands: a command as it would be typed, or a step gpuwiz
// does itself, for the front end to word.
type PlanCommand struct {
	Line   string // the command, its argv quoted; "" for the two below
	Remove string // gpuwiz deletes this path itself
	// Reinstall: the install engine installs Plan.Candidate from Source (the repair's source in the
	// engine's words; "" : Plan.Candidate.IndexURL alone, as --index-url).
	Reinstall bool
	Source    string
}

// StepPending is a step not started yet (InstallEvent.State; StepRunning, StepDone, StepFailed and
// StepSkipped are the others).
const StepPending = "pending"

// Outcome is how a session run from a Plan ended.
type Outcome struct {
	OK          bool
	Result      Result // how it ended: Installed, Cancelled, Failed, ...
	Restored    bool   // the run had changed the venv and put the previous set of packages back
	Unchanged   bool   // the run ended before it changed anything in the venv (the engine's "unchanged")
	VenvRemoved bool   // the run had created the venv and removed it again
	Leftovers   []Leftover
	// Outside: per dist, the files its RECORD named outside the venv, which the run left alone.
	Outside         []OutsideFiles
	Err             error
	LogPath         string
	LockFile        string
	ConstraintsFile string
	// Protected is the venv's own pip configuration file that now names the constraints file: every
	// later pip install in the venv keeps the build ("" when the venv was not protected).
	Protected string
	Verify    *Checklist
	// NotVenv: the environment is no venv (a conda env, a bundle's embedded Python, a Python's own
	// prefix): the screens call it an environment.
	NotVenv bool
}

// OutsideFiles are the files one dist's RECORD named outside the venv.
type OutsideFiles = install.Outside

// Leftover is what a failed install could not put back, and the command that clears it.
type Leftover = install.Leftover

// Checklist is the checks after an install or a repair.
type Checklist struct {
	OK     bool
	Checks []Check
	// Context is what the check saw that changes nothing about the build (doctor's context
	// findings after a repair): listed under the verdict, never a failed check.
	Context []Check
}

// ChecklistOf is verify's report as a checklist.
func ChecklistOf(r verify.Report) Checklist { return Checklist{OK: r.OK, Checks: r.Checks} }

func (w *Wizard) Probe(ctx context.Context) (GPUReport, error) { return w.env.GPUReport(ctx) }

// Channels judges every build of facts' framework against facts (FrameworkVersion "" means all
// versions).
func (w *Wizard) Channels(ctx context.Context, facts Facts) (Selection, error) {
	m, err := w.env.Matrix()
	if err != nil {
		return Selection{}, err
	}
	return m.Select(facts), nil
}

// Pythons are the interpreters found here that can make a venv (no venv's own python).
func (w *Wizard) Pythons(ctx context.Context) ([]Interpreter, error) {
	found, err := pyenv.Discover(ctx, pyenv.DiscoverOptions{})
	out := make([]Interpreter, 0, len(found))
	for _, p := range found {
		if p.Kind == "venv" {
			continue // a venv's python is not a base for a new venv
		}
		out = append(out, p)
	}
	return out, err
}

// CheckVenv checks the environment a path names (an interpreter's path names its environment, as
// the commands' --venv takes it: EnvRootOf); Path is that environment's folder.
func (w *Wizard) CheckVenv(path string) PathCheck {
	path = EnvRootOf(path)
	pc := pyenv.CheckVenvPath(path, runtime.GOOS)
	v := pyenv.Venv{Root: path}
	out := PathCheck{Path: path, Errors: pc.Errors, Warnings: pc.Warnings, NotEnv: pc.NotEnv, File: pc.File, Exists: strings.TrimSpace(path) != "" && v.Exists(), Conda: strings.TrimSpace(path) != "" && v.IsConda()}
	if l := v.Layout(); out.Exists && !out.Conda && (l.Kind == pyenv.EnvEmbedded || l.Kind == pyenv.EnvPrefix) {
		out.Env = pyenv.KindWords(l)
	}
	return out
}

func (w *Wizard) InspectVenv(ctx context.Context, path string) (VenvInfo, error) {
	v := pyenv.Venv{Root: path}
	in, err := pyenv.Inspect(ctx, w.run, v.Python())
	if err != nil {
		return VenvInfo{}, err
	}
	info := VenvInfo{Path: path, PythonVersion: in.Python.Version}
	for _, d := range in.Dists {
		info.Packages = append(info.Packages, d.Name+"=="+d.Version)
	}
	held := in.Held()
	info.Framework, info.FrameworkVersion, info.Channel = held.Framework, held.Public(), held.Channel()
	if held.Framework == "paddle" {
		info.Channel = paddleChannel(held.Package, info.FrameworkVersion, install.ReadLockSources(path))
	}
	return info, nil
}

// paddleChannel is the channel of the Paddle build a venv holds: Paddle's version carries no local
// label (torch's +cu126), so it comes from the lock file gpuwiz wrote when that names this build;
// the CPU package is "cpu"; otherwise it is unknown ("").
func paddleChannel(dist, version string, lock install.LockSources) string {
	switch {
	case lock.Framework == "paddle" && lock.Version == version && lock.Channel != "":
		return lock.Channel
	case dist == "paddlepaddle":
		return "cpu"
	}
	return ""
}

// KnownVenvs lists the venvs gpuwiz worked on (newest first), then the active one, ./venv, ./.venv
// and conda's, each with what it holds; warning says what could not be read.
func (w *Wizard) KnownVenvs(ctx context.Context) ([]KnownVenv, string) {
	found, warning := KnownVenvs(ctx)
	out := make([]KnownVenv, 0, len(found))
	for _, f := range found {
		out = append(out, KnownVenv{Path: f.Path, Framework: f.Holds.Framework, Found: f,
			Nearby: f.Source == venvs.SourceNearby || f.Source == venvs.SourceComfyDesktop})
	}
	return out, warning
}

// Install runs the session plan was made from (an install, a repair or an add), sending progress
// on events (it may block briefly when events is full) and returning when done or when ctx is
// cancelled, after restoring what it can.
func (w *Wizard) Install(ctx context.Context, p Plan, events chan<- InstallEvent) Outcome {
	switch sess := p.session.(type) {
	case *RepairSession:
		return w.applyRepair(ctx, sess, events)
	case *InstallSession:
		var res InstallResult
		forwarding(events, func(ev chan<- install.Event) { res = sess.Run(ctx, ev) })
		return outcomeOf(res)
	case *AddSession:
		return w.runAdd(ctx, sess, events)
	}
	return Outcome{Result: Failed, Err: errors.New(i18n.T("ui.backend.unknown_plan"))}
}

// forwarding calls run with a channel of install events and passes each on to events; it returns
// once run has and every event is passed on.
func forwarding(events chan<- InstallEvent, run func(chan<- install.Event)) {
	ev := make(chan install.Event, 256)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for e := range ev {
			events <- e
		}
	}()
	run(ev)
	close(ev)
	<-done
}

func outcomeOf(res InstallResult) Outcome {
	o := res.Outcome
	out := Outcome{OK: o.Result == install.ResultInstalled, Result: Result(o.Result), Err: o.Err, Leftovers: o.Leftovers, Outside: o.Outside,
		LogPath: o.LogPath, LockFile: o.LockFile, ConstraintsFile: o.ConstraintsFile, VenvRemoved: o.VenvRemoved, Protected: o.Protected,
		NotVenv: o.EnvKind != "" && o.EnvKind != pyenv.EnvVenv}
	switch o.Result {
	case install.ResultUnchanged:
		out.Unchanged = true
	case install.ResultRestored:
		out.Restored = true
	}
	if res.Cancelled {
		out.Result = Cancelled
	}
	if o.Verify != nil {
		v := ChecklistOf(*o.Verify)
		out.Verify = &v
	}
	return out
}

// Verify checks the framework build c in venv.
func (w *Wizard) Verify(ctx context.Context, venv string, c Candidate) (Checklist, error) {
	r, err := Verify(ctx, venv, c.Framework, c.Channel)
	if err != nil {
		return Checklist{}, err
	}
	return ChecklistOf(r), nil
}

// Doctor diagnoses venv; RepairPlan takes the diagnosis.
func (w *Wizard) Doctor(ctx context.Context, venv string) (*Diagnosis, error) {
	return w.env.Diagnose(ctx, doctor.Options{Venv: venv}, nil)
}

// Activation is how to enter the venv, one command per shell (a conda env has only conda's).
func (w *Wizard) Activation(venv string) []Activation {
	return pyenv.Venv{Root: venv}.Activations()
}

// Bench starts the quick benchmark with the venv's Python on card gpuIndex; its channels close
// when it ends or ctx is done.
func (w *Wizard) Bench(ctx context.Context, venv string, gpuIndex int) (*BenchRun, error) {
	return w.env.StartBench(ctx, BenchRequest{Python: pyenv.Venv{Root: venv}.Python(),
		Options: bench.Options{Quick: true, GPU: gpuIndex}, SimulatedReadings: true})
}
