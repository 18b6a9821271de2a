package ui

import (
	"context"

	"gpuwiz/steps/app"
)

// App is everything the wizard asks of the machine: the application layer (steps/app), whose
// app.Wizard is the real one; tests use a fake. Every method takes and returns app's own types and
// may block: the ui calls them only inside tea.Cmds.
type App interface {
	Probe(ctx context.Context) (app.GPUReport, error)
	// Channels judges every build of framework against facts (FrameworkVersion "" means all versions).
	Channels(ctx context.Context, facts app.Facts) (app.Selection, error)
	Pythons(ctx context.Context) ([]app.Interpreter, error)
	CheckVenv(path string) app.PathCheck
	InspectVenv(ctx context.Context, path string) (app.VenvInfo, error)
	// KnownVenvs lists the venvs gpuwiz worked on (newest first), then the active one, ./venv,
	// ./.venv and conda's, each with what it holds; warning says what could not be read.
	KnownVenvs(ctx context.Context) (list []app.KnownVenv, warning string)
	// Sources lists where the packages of req's build can come from and checks each, all at once
	// with a short timeout; with req.Custom set it checks only that URL.
	Sources(ctx context.Context, req app.SourcesRequest) (app.SourcesReport, error)
	// Plan is the install session of req, listed; a build the index does not serve is refused with
	// *app.ErrNotServed inside the error.
	Plan(ctx context.Context, req app.PlanRequest) (app.Plan, error)
	// Install runs plan's session (an install, a repair or an add), sending progress on events (it
	// may block briefly when events is full) and returning when done or when ctx is cancelled,
	// after restoring what it can.
	Install(ctx context.Context, plan app.Plan, events chan<- app.InstallEvent) app.Outcome
	Verify(ctx context.Context, venv string, c app.Candidate) (app.Checklist, error)
	Doctor(ctx context.Context, venv string) (*app.Diagnosis, error)
	RepairPlan(ctx context.Context, venv string, d *app.Diagnosis) (app.Plan, error)
	Activation(venv string) []app.Activation
	// PlanAdd previews installing a project's requirements into a venv gpuwiz installed a framework
	// into: pip's dry run under the venv's constraints, nothing changed. A refusal (a requirement that
	// needs another framework build) comes back as a preview with Refusal set, not as an error.
	// Install runs the preview's Plan.
	PlanAdd(ctx context.Context, req app.AddRequest) (app.AddPreview, error)
	// AddSources is where an add into venv would take the project's packages from (the mirror its
	// lock recorded, else the user's pip settings) and the other places to choose from.
	AddSources(ctx context.Context, venv string) app.AddSources
	// Bench starts the benchmark with the venv's Python; its channels close when it ends or ctx is done.
	Bench(ctx context.Context, venv string, gpuIndex int) (*app.BenchRun, error)
	// DriverOffer is the driver for the machine's cards and, when one can be installed here, the
	// installer ready to fetch, check and start (the driver session of steps/app).
	DriverOffer(ctx context.Context) (app.DriverOffer, error)
	// RunDriver downloads, checks and starts the offer's installer, sending progress on events (not
	// closed); a new GPU probe after it sees the new driver.
	RunDriver(ctx context.Context, o app.DriverOffer, events chan<- app.DriverEvent) app.DriverResult
	// Resume is where an earlier driver install that asked for a restart left the wizard (nil: none),
	// with the GPU report now.
	Resume(ctx context.Context) (*app.Resumed, app.GPUReport, error)
}

// PythonGetter is an App that can get a Python for this user when none suitable is found
// (optional: without it the Python screen gives the advice only). app.Wizard is one.
type PythonGetter interface {
	// PythonOffer says how a Python would be got here.
	PythonOffer() app.PythonOffer
	// InstallPython installs it for this user (Windows) and returns the new interpreter.
	InstallPython(ctx context.Context, minor string) (app.Interpreter, error)
}

var (
	_ App          = (*app.Wizard)(nil)
	_ PythonGetter = (*app.Wizard)(nil)
)
