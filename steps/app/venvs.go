package app

import (
	"context"
	"runtime"

	"gpuwiz/matrix"
	"gpuwiz/steps/doctor"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/install"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/shellquote"
	"gpuwiz/steps/venvs"
)

// Action is what a run did to an environment, as the list of venvs keeps it.
type Action string

const (
	ActionInstall Action = "install"
	ActionRepair  Action = "repair"
	ActionCreate  Action = "create"
)

// Result is how an install, a repair or a creation ended: a value of the list of venvs and of the
// JSON output, the same in every language; the front ends put it into words.
type Result string

const (
	Installed    Result = "installed" // the install engine's results (install.Result*)
	Unchanged    Result = "unchanged"
	Restored     Result = "restored"
	Damaged      Result = "damaged"
	Created      Result = "created"
	Repaired     Result = "repaired"
	ProblemsLeft Result = "repaired, problems left" //i18n:raw a value of the list file
	RepairFailed Result = "repair failed"           //i18n:raw a value of the list file
	Cancelled    Result = "cancelled"
	Interrupted  Result = "interrupted" // the wizard closed by a signal during the run
	Failed       Result = "failed"
	// VerifyFailed is an install whose new set is in place but failed verification: not Installed,
	// which the list shows as working.
	VerifyFailed Result = "verify failed" //i18n:raw a value of the list file
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

// NotRecordedWarning words RecordVenv's error for a front end's warning line.
func NotRecordedWarning(err error) string {
	return i18n.T("cli.venvs.not_recorded", i18n.D{"Err": err})
}

// VenvLine is one environment in words: what it holds, and gpuwiz's last run there or where it was
// found. "PyTorch 2.6.0 (cu126), Python 3.12.8 · installed on 2026-12-03". The venvs command and the
// wizard's venv screen show the same line.
func VenvLine(f venvs.Found) string {
	s := f.Holds.Describe()
	if f.Kind != "" && f.Kind != pyenv.EnvConda && (f.Kind != pyenv.EnvVenv || f.UV != "") {
		// Not a plain venv: say what it is ("embedded Python: PyTorch 2.8.0 (cu128), Python 3.12").
		s = i18n.T("cli.venvs.kind_line", i18n.D{"Kind": pyenv.KindWords(pyenv.Layout{Kind: f.Kind, UV: f.UV}), "Line": s})
	}
	if in := f.Interrupted; in != nil && !in.Running {
		// A run that stopped half-way: the venv may be between two builds.
		return s + " · " + i18n.T("cli.venvs.interrupted", i18n.D{"What": in.Journal.What(), "Date": in.Journal.Started.Local().Format("2006-01-02 15:04"),
			"Fix": shellquote.Command(runtime.GOOS, "gpuwiz", "doctor", "--venv", f.Path, "--fix")})
	}
	switch {
	case f.Known != nil:
		s += " · " + i18n.T("cli.venvs.last_run", i18n.D{"Run": lastRun(*f.Known), "Date": f.Known.When.Local().Format("2006-01-02")})
	case f.Source == venvs.SourceActive:
		s += " · " + i18n.T("cli.venvs.source.active")
	case f.Source == venvs.SourceHere:
		s += " · " + i18n.T("cli.venvs.source.here")
	case f.Source == venvs.SourceConda:
		s += " · " + i18n.T("cli.venvs.source.conda")
	case f.Source == venvs.SourceNearby:
		s += " · " + i18n.T("cli.venvs.source.nearby")
	case f.Source == venvs.SourceComfyDesktop:
		s += " · " + i18n.T("cli.venvs.source.comfy_desktop")
	}
	return s
}

// lastRun is how gpuwiz's last run there ended: "installed", "repaired", "install failed, restored",
// "repair cancelled".
func lastRun(e venvs.Entry) string {
	action := actionWords(Action(e.Action))
	switch {
	case e.OK:
		return resultWords(Result(e.Result))
	case Result(e.Result) == Cancelled:
		return i18n.T("cli.venvs.run.cancelled", i18n.D{"Action": action})
	case Result(e.Result) == VerifyFailed:
		return i18n.T("cli.venvs.run.verify_failed")
	case e.Result == "" || e.Result == e.Action+" failed" || Result(e.Result) == Failed:
		return i18n.T("cli.venvs.run.failed", i18n.D{"Action": action})
	}
	return i18n.T("cli.venvs.run.failed_then", i18n.D{"Action": action, "Result": resultWords(Result(e.Result))})
}

// actionWords is the list's action in words; the list file keeps the value.
func actionWords(a Action) string {
	switch a {
	case ActionInstall:
		return i18n.T("cli.venvs.action.install")
	case ActionRepair:
		return i18n.T("cli.venvs.action.repair")
	case ActionCreate:
		return i18n.T("cli.venvs.action.create")
	}
	return string(a)
}

// resultWords is the list's result in words; the list file keeps the value.
func resultWords(r Result) string {
	switch r {
	case Installed:
		return i18n.T("cli.venvs.result.installed")
	case Repaired:
		return i18n.T("cli.venvs.result.repaired")
	case Created:
		return i18n.T("cli.venvs.result.created")
	case Restored:
		return i18n.T("cli.venvs.result.restored")
	case Unchanged:
		return i18n.T("cli.venvs.result.unchanged")
	case Damaged:
		return i18n.T("cli.venvs.result.damaged")
	case ProblemsLeft:
		return i18n.T("cli.venvs.result.problems_left")
	}
	return string(r)
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
