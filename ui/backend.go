package ui

import (
	"context"
	"time"

	"gpuwiz/matrix"
	"gpuwiz/steps/app"
	"gpuwiz/steps/driver"
	"gpuwiz/steps/gpu"
)

// Backend is everything the wizard asks of the machine. The real one (backend_steps.go) calls the
// application layer (steps/app), the same sessions the commands use; tests use a fake. Every method may block: the ui calls them only inside tea.Cmds.
type Backend interface {
	Probe(ctx context.Context) (gpu.Report, error)
	// Channels judges every build of framework against facts (FrameworkVersion "" means all versions).
	Channels(ctx context.Context, facts matrix.Facts) (matrix.Selection, error)
	Pythons(ctx context.Context) ([]Interpreter, error)
	CheckVenv(path string) PathCheck
	InspectVenv(ctx context.Context, path string) (VenvInfo, error)
	// KnownVenvs lists the venvs gpuwiz worked on (newest first), then the active one, ./venv,
	// ./.venv and conda's, each with what it holds; warning says what could not be read.
	KnownVenvs(ctx context.Context) (list []KnownVenv, warning string)
	// Sources lists where the packages of req's build can come from and checks each, all at once
	// with a short timeout; with req.Custom set it checks only that URL.
	Sources(ctx context.Context, req SourcesRequest) (SourcesReport, error)
	Plan(ctx context.Context, req PlanRequest) (Plan, error)
	// Install runs plan, sending progress on events (it may block briefly when events is full) and
	// returning when done or when ctx is cancelled, after restoring what it can.
	Install(ctx context.Context, plan Plan, events chan<- InstallEvent) Outcome
	Verify(ctx context.Context, venv string, c matrix.Candidate) (VerifyReport, error)
	Doctor(ctx context.Context, venv string) (DoctorReport, error)
	RepairPlan(ctx context.Context, venv string, r DoctorReport) (Plan, error)
	Activation(venv string) Activation
	// PlanAdd previews installing a project's requirements into a venv gpuwiz installed a framework
	// into: pip's dry run under the venv's constraints, nothing changed. A refusal (a requirement that
	// needs another framework build) comes back as a preview with Refusal set, not as an error.
	// Install runs the preview's Plan.
	PlanAdd(ctx context.Context, req AddRequest) (AddPreview, error)
	// Bench starts the benchmark with the venv's Python; the feed closes when it ends or ctx is done.
	Bench(ctx context.Context, venv string, gpuIndex int) (BenchFeed, string, error)
	// DriverOffer is the driver for the machine's cards and, when one can be installed here, the
	// installer ready to fetch, check and start (the driver session of steps/app).
	DriverOffer(ctx context.Context) (DriverOffer, error)
	// RunDriver downloads, checks and starts the offer's installer, sending progress on events (not
	// closed); a new GPU probe after it sees the new driver.
	RunDriver(ctx context.Context, o DriverOffer, events chan<- app.DriverEvent) app.DriverResult
	// Resume is where an earlier driver install that asked for a restart left the wizard (nil: none),
	// with the GPU report now.
	Resume(ctx context.Context) (*app.Resumed, gpu.Report, error)
}

// DriverOffer is the driver step as the GPU screen shows it.
type DriverOffer struct {
	Check   app.DriverCheck
	Card    string
	Version string // the installer's driver
	File    string
	Have    int64 // bytes of it already in the cache (an interrupted download)
	Why     []driver.Reason
	// Ready: u can fetch and start it here (Windows, an installer known, no restart pending);
	// Failure says why not.
	Ready   bool
	Failure *app.DriverFailure
	Impl    any // the session, handed back to RunDriver
}

// Interpreter is one Python found on the machine.
type Interpreter struct {
	Path     string
	Version  string
	Bits     int
	Kind     string // "python.org", "store", "conda", "pyenv", "system"
	Source   string // where it was found: "py -0p", "PATH"
	Prefix   string // sys.prefix: a conda env's root
	Warnings []string
}

// PathCheck is the verdict on a venv path typed by the user.
type PathCheck struct {
	Path     string // the absolute path the typed text means (steps/userpath); shown back when it differs
	Errors   []string
	Warnings []string
	Exists   bool // a venv is already there: it will be reused
	Conda    bool // what is there is a conda env
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

// KnownVenv is one environment the venv screen offers before a typed path.
type KnownVenv struct {
	Path      string
	Framework string // "torch", "paddle" or "": what it holds
	Line      string // what it holds and gpuwiz's last run there, in words
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
}

// Plan is what will run, in words and commands, before the user confirms.
type Plan struct {
	Steps         []PlanStep
	Commands      []string
	Uninstall     []string
	Install       []string
	DownloadBytes int64 // 0 when unknown
	Notes         []string
	Warnings      []string
	Venv          string
	Candidate     matrix.Candidate
	Impl          any // the steps package's own plan, handed back to Install
}

// PlanStep is one step of the plan, as listed on the install screen.
type PlanStep struct {
	ID    string
	Title string
}

// Step states carried by InstallEvent.State.
const (
	StepPending = "pending"
	StepRunning = "running"
	StepDone    = "done"
	StepFailed  = "failed"
	StepSkipped = "skipped"
)

// InstallEvent is one report from a running install: a state change, a log line or progress.
type InstallEvent struct {
	StepID  string
	State   string // "" when unchanged
	Line    string // one line of child output, "" when none
	Done    int64  // download progress in bytes; Total 0 when none
	Total   int64
	Rate    float64       // bytes per second, 0 when unknown (gpuwiz's own downloader reports it)
	ETA     time.Duration // time left at that rate, 0 when unknown
	Message string
	// Did is what a finished step really did when that is not its planned title (the engine's
	// install.Event.Did: every wheel came from the cache, nothing was downloaded).
	Did string
}

// Outcome is how an install ended.
type Outcome struct {
	OK          bool
	Result      app.Result // how it ended: app.Installed, app.Cancelled, app.Failed, ...
	Restored    bool       // the run had changed the venv and put the previous set of packages back
	Unchanged   bool       // the run ended before it changed anything in the venv (the engine's "unchanged")
	VenvRemoved bool       // the run had created the venv and removed it again
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
	Verify    *VerifyReport
}

// OutsideFiles are the files one dist's RECORD named outside the venv.
type OutsideFiles struct {
	Dist  string
	Paths []string
}

// AddRequest is a project's requirements for a venv: files (absolute) and package names.
type AddRequest struct {
	Venv         string
	Requirements []string
	Packages     []string
}

// AddPreview is what installing a project's requirements would change, from pip's dry run.
type AddPreview struct {
	Framework string   // "torch" or "paddle"
	Channel   string   // "cu126"
	Build     []string // the framework pins the venv keeps ("torch==2.6.0+cu126")
	Changes   []AddChange
	Troubles  []AddTrouble
	Refusal   *AddRefusal
	WayOut    string // the framework version on Channel that satisfies a refused requirement ("" none)
	Plan      Plan   // what Install runs (no steps when there is nothing to do or it was refused)
}

// AddChange is one package added (From "") or upgraded.
type AddChange struct{ Name, From, To string }

// Trouble codes of AddTrouble.Code (steps/install's).
const (
	TroubleSecondFramework = "second-framework"
	TroubleOpenCVVariants  = "opencv-variants"
	TroubleNumpyMajor      = "numpy-major"
)

// AddTrouble is a known troublemaker among the changes, with the packages involved ("numpy 2.1.0").
type AddTrouble struct {
	Code  string
	Dists []string
}

// AddRefusal is a requirement that needs another framework build than the one installed.
type AddRefusal struct{ Requirement, Needs, Installed string }

// Leftover is what a failed install could not put back, and the command that clears it.
type Leftover struct{ What, Path, Clear string }

// VerifyReport is the checklist after an install.
type VerifyReport struct {
	OK     bool
	Checks []Check
	// Context is what the check saw that changes nothing about the build (doctor's context
	// findings after a repair): listed under the verdict, never a failed check.
	Context []Check
}

// Check is one verification with its evidence and, when failed, cause and fix.
type Check struct {
	ID, Title string
	OK        bool
	Evidence  string
	Cause     string
	Fix       string
}

// DoctorReport is what doctor found in a venv.
type DoctorReport struct {
	Findings []Finding
	Impl     any // the steps package's own report, handed back to RepairPlan
}

// Finding is one problem doctor found.
type Finding struct {
	Code, Severity, Title, Evidence, Fix string
}

// Activation is how to enter the venv from each shell: a conda env has only Conda.
type Activation struct {
	PowerShell string
	Cmd        string
	Posix      string
	Conda      string // conda activate <env>, any shell with conda's integration
}

// Empty reports whether there is no command to show.
func (a Activation) Empty() bool {
	return a.PowerShell == "" && a.Cmd == "" && a.Posix == "" && a.Conda == ""
}
