package app

import (
	"gpuwiz/matrix"
	"gpuwiz/steps/bench"
	"gpuwiz/steps/doctor"
	"gpuwiz/steps/driver"
	"gpuwiz/steps/gpu"
	"gpuwiz/steps/indexcheck"
	"gpuwiz/steps/install"
	"gpuwiz/steps/keep"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/pyget"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/urls"
	"gpuwiz/steps/userpath"
	"gpuwiz/steps/venvs"
	"gpuwiz/steps/verify"
)

// The values that cross the seam. The front ends (ui, steps/cli) import app and presentation
// packages only; the facts they show are the step packages' own value types, named here so that a
// front end never imports a step package (layering_test.go in ui and steps/cli holds them to it).
// Behaviour does not cross this way: sessions (install, repair, add, bench, driver, Python install,
// source probe) are app's own types with methods.

// GPU and the version matrix.
type (
	GPUReport = gpu.Report
	Candidate = matrix.Candidate
	Facts     = matrix.Facts
	Selection = matrix.Selection
)

// NewFootnotes numbers the footnotes of a channel table's rows; RowTexts is one candidate's row.
var (
	NewFootnotes = matrix.NewFootnotes
	RowTexts     = matrix.RowTexts
)

// Python interpreters and environments.
type (
	Interpreter     = pyenv.Interpreter
	DiscoverOptions = pyenv.DiscoverOptions
	Venv            = pyenv.Venv
)

var (
	DiscoverPythons = pyenv.Discover
	CheckVenvPath   = pyenv.CheckVenvPath
)

// Installing a Python.
const (
	PythonByInstaller = pyget.MethodInstaller
	PythonByDistro    = pyget.MethodDistro
)

// The install engine's events and results.
type (
	InstallEvent     = install.Event
	ReinstallOptions = install.ReinstallOptions
)

const (
	EngineInstalled = install.ResultInstalled
	EngineRestored  = install.ResultRestored
	EngineUnchanged = install.ResultUnchanged
)

var DefaultCacheDir = install.DefaultCacheDir

// Diagnosis and repair.
type (
	DoctorOptions = doctor.Options
	DoctorReport  = doctor.Report
	Repair        = doctor.Repair
	RepairEvent   = doctor.RepairEvent
	VerifyReport  = verify.Report
)

// The benchmark.
type (
	BenchEvent   = bench.Event
	BenchFailure = bench.Failure
	BenchOptions = bench.Options
	BenchStep    = bench.Step
	BenchSummary = bench.Summary
)

var BenchDTypes = bench.DTypes

// Commands' records and what may be shown of a URL.
var (
	QuoteArgv = runner.QuoteArgv
	Redact    = urls.Redact
)

// ---- added for the wizard (ui) below this line; keep the blank lines around the markers ----

// The wizard's checks, findings, activation commands and a project's changes.
type (
	Check      = verify.Check
	Finding    = doctor.Finding
	Activation = pyenv.Activation
	AddChange  = install.AddChange
	AddTrouble = install.AddTrouble
	AddRefusal = install.AddRefusal
	Progress   = runner.Progress
)

const (
	ShellPowerShell = pyenv.ShellPowerShell
	ShellCmd        = pyenv.ShellCmd
	ShellPosix      = pyenv.ShellPosix
	ShellConda      = pyenv.ShellConda

	TroubleSecondFramework = install.TroubleSecondFramework
	TroubleOpenCVVariants  = install.TroubleOpenCVVariants
	TroubleNumpyMajor      = install.TroubleNumpyMajor
)

// The wizard's GPU screens, channel table and benchmark.
type (
	GPU           = gpu.GPU
	GPUSample     = gpu.Sample
	GPUProcess    = gpu.Process
	Footnotes     = matrix.Footnotes
	BenchTally    = bench.Tally
	BenchFinished = bench.Finished
	BenchDone     = bench.Done
)

var (
	ArchWarningIn  = gpu.ArchWarningIn
	FootnoteMarks  = matrix.Marks
	EmbeddedMatrix = matrix.Embedded
	NewBenchTally  = bench.NewTally
)

// Paths a user types (~, quotes, variables, relative to the working directory).
type UserPaths = userpath.Env

var (
	SystemPaths   = userpath.System
	NormalizePath = userpath.Normalize
	UnquotePath   = userpath.Unquote
)

// ---- added for the commands (steps/cli) below this line ----

// EnvVenv is the kind of an environment made by python -m venv, virtualenv or uv venv.
const EnvVenv = pyenv.EnvVenv

// The install engine's plan, outcome and events as the commands print them; pip's preview of a
// project's requirements; the wheel cache.
type (
	InstallPlan    = install.Plan
	InstallOutcome = install.Outcome
	PipPreview     = install.AddPreview
	CacheReport    = install.CacheReport
)

const (
	InstallRunning = install.StateRunning
	InstallDone    = install.StateDone
	InstallFailed  = install.StateFailed
	InstallSkipped = install.StateSkipped
	EngineDamaged  = install.ResultDamaged
)

var (
	InstallStepName = install.StepName
	DefaultLogPath  = install.DefaultLogPath
	ReadCache       = install.ReadCache
	PruneCache      = install.PruneCache
)

// Diagnosis in words, and what applying a repair did.
type DoctorRepairResult = doctor.RepairResult

var WriteDoctorText = doctor.WriteText

// The benchmark's events and the sampler's readings.
type (
	BenchHello      = bench.Hello
	BenchDevice     = bench.Device
	BenchResult     = bench.Result
	BenchCheck      = bench.Check
	BenchOOM        = bench.OOM
	BenchSkip       = bench.Skip
	BenchGPUReading = bench.GPUReading
)

var NewBenchWatch = bench.NewWatch

// The GPU's live readings.
const GPUMinSampleInterval = gpu.MinSampleInterval

var (
	NewGPUSampler      = gpu.NewSampler
	WithoutGPUReadings = gpu.WithoutReadings
)

// The version matrix as the matrix command shows and checks it.
type (
	VersionMatrix     = matrix.Matrix
	IndexSource       = indexcheck.Source
	MatrixCheckReport = indexcheck.Report
	MatrixCheckRow    = indexcheck.Result
)

const (
	IndexServed       = indexcheck.Served
	IndexPhantom      = indexcheck.Phantom
	IndexCouldNotLook = indexcheck.CouldNotLook
)

var (
	Frameworks     = matrix.Frameworks
	LoadMatrixFile = matrix.LoadFile
)

// A card's driver: its family, form and state, a Linux distribution's way.
type (
	CardFamily        = driver.Family
	CardForm          = driver.Form
	DriverState       = driver.Status
	LinuxDriverAdvice = driver.Advice
)

const (
	FamilyStudio       = driver.Studio
	FamilyRTX          = driver.RTX
	FamilyDataCenter   = driver.DataCenter
	FamilyLinuxRun     = driver.LinuxRun
	FormNotebook       = driver.Notebook
	FormAny            = driver.AnyForm
	DriverStateMissing = driver.StatusMissing
	DriverStateOld     = driver.StatusOld
	DriverStateUpdate  = driver.StatusUpdate
	DriverStateCurrent = driver.StatusCurrent
	DriverStateOwnPath = driver.StatusOwnPath
)

// Environments: a layout in words, the list of venvs, a venv's protection.
type (
	EnvLayout       = pyenv.Layout
	FoundVenv       = venvs.Found
	VenvStateFolder = venvs.StateFolder
	VenvFindOptions = venvs.FindOptions
	ProtectStatus   = keep.Status
)

var KindWords = pyenv.KindWords

// URLs a user gives, and the writer that redacts their credentials.
var (
	CheckURL        = urls.Check
	RedactingWriter = urls.NewWriter
)

// Paths a user types, as flags.
var (
	PathFlag     = userpath.NewFlag
	CleanPath    = userpath.Clean
	ErrPathUnset = userpath.ErrUnset
)

// ---- end ----
