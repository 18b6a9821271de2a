package app

import (
	"context"

	"gpuwiz/matrix"
	"gpuwiz/steps/doctor"
	"gpuwiz/steps/install"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/venvs"
)

// Action is what a run did to an environment, as the list of venvs keeps it.
type Action = venvs.Action

const (
	ActionInstall = venvs.ActionInstall
	ActionRepair  = venvs.ActionRepair
	ActionCreate  = venvs.ActionCreate
)

// Result is how an install, a repair or a creation ended: a value of the list of venvs and of the
// JSON output, the same in every language; the front ends put it into words.
type Result = venvs.Result

const (
	Installed    = venvs.Installed
	Unchanged    = venvs.Unchanged
	Restored     = venvs.Restored
	Damaged      = venvs.Damaged
	Created      = venvs.Created
	Repaired     = venvs.Repaired
	ProblemsLeft = venvs.ProblemsLeft
	RepairFailed = venvs.RepairFailed
	Cancelled    = venvs.Cancelled
	Interrupted  = venvs.Interrupted
	Failed       = venvs.Failed
	VerifyFailed = venvs.VerifyFailed
)

// InstallResultOf is how an install ended, for the list of venvs, and whether it ended well: ok only
// when the set is in place and verification (when it ran) passed; Cancelled when the user cancelled
// it, whatever the engine then did to put the venv back (unchanged, restored).
func InstallResultOf(o install.Outcome, ctx context.Context) (result Result, ok bool) {
	switch {
	case o.Result == install.ResultInstalled && o.Verify != nil && !o.Verify.OK:
		return VerifyFailed, false
	case o.Result == install.ResultInstalled:
		return Installed, true
	case ctx.Err() != nil && (o.Result == install.ResultUnchanged || o.Result == install.ResultRestored):
		return Cancelled, false
	}
	return Result(o.Result), false
}

// RecordVenv puts the venv at path on the list of venvs gpuwiz worked on, with what it holds now and
// how the run ended; cand names the build when the files do not (Paddle's channel). A venv that is
// gone (removed after a failed first install) leaves the list. The error, a list that could not be
// written, is a warning for the front end, never the run's failure.
func RecordVenv(ctx context.Context, path string, action Action, result Result, ok bool, cand *matrix.Candidate) error {
	ctx = context.WithoutCancel(ctx) // an interrupted run is recorded too
	store, err := venvs.Default()
	if err != nil {
		return err
	}
	if !(pyenv.Venv{Root: path}).Exists() {
		return store.Forget(ctx, path)
	}
	h := venvs.Read(path, "")
	e := venvs.Entry{Path: path, Framework: h.Framework, FrameworkVersion: h.FrameworkVersion, Channel: h.Channel,
		Python: h.Python, Action: string(action), Result: string(result), OK: ok}
	if ok && cand != nil && cand.Framework == h.Framework && cand.FrameworkVersion == h.FrameworkVersion && e.Channel == "" {
		e.Channel = cand.Channel
	}
	return store.Record(ctx, e)
}

// RepairResult is how a repair ended, for the list of venvs and the front ends: Repaired,
// ProblemsLeft, RepairFailed or Cancelled.
func RepairResult(res doctor.RepairResult, err error, ctx context.Context) Result {
	switch {
	case ctx.Err() != nil:
		return Cancelled
	case err != nil || res.Failed:
		return RepairFailed
	case res.After != nil && res.After.Problems > 0:
		return ProblemsLeft
	}
	return Repaired
}

// KnownVenvs lists the environments gpuwiz worked on (newest first), then the active one, ./venv,
// ./.venv and conda's, each with what it holds; warning says what could not be read.
func KnownVenvs(ctx context.Context) ([]venvs.Found, string) {
	store, err := venvs.Default()
	if err != nil {
		return nil, err.Error()
	}
	return venvs.Find(ctx, venvs.FindOptions{Store: store, Nearby: true})
}
