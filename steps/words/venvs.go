package words

import (
	"runtime"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/shellquote"
	"gpuwiz/steps/venvs"
)

// VenvLine is one environment in words: what it holds, and gpuwiz's last run there or where it was
// found. "PyTorch 2.6.0 (cu126), Python 3.12.8 · installed on 2026-12-03". The venvs and envs
// commands, doctor's list of known environments and the wizard's venv screen show the same line.
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
	action := actionWords(venvs.Action(e.Action))
	switch {
	case e.OK:
		return resultWords(venvs.Result(e.Result))
	case venvs.Result(e.Result) == venvs.Cancelled:
		return i18n.T("cli.venvs.run.cancelled", i18n.D{"Action": action})
	case venvs.Result(e.Result) == venvs.VerifyFailed:
		return i18n.T("cli.venvs.run.verify_failed")
	case e.Result == "" || e.Result == e.Action+" failed" || venvs.Result(e.Result) == venvs.Failed:
		return i18n.T("cli.venvs.run.failed", i18n.D{"Action": action})
	}
	return i18n.T("cli.venvs.run.failed_then", i18n.D{"Action": action, "Result": resultWords(venvs.Result(e.Result))})
}

// actionWords is the list's action in words; the list file keeps the value.
func actionWords(a venvs.Action) string { return actionNames.Say(a, string(a)) }

var actionNames = i18n.Words[venvs.Action]{
	venvs.ActionInstall: func() string { return i18n.T("cli.venvs.action.install") },
	venvs.ActionRepair:  func() string { return i18n.T("cli.venvs.action.repair") },
	venvs.ActionCreate:  func() string { return i18n.T("cli.venvs.action.create") },
}

// resultWords is the list's result in words; the list file keeps the value.
func resultWords(r venvs.Result) string { return resultNames.Say(r, string(r)) }

var resultNames = i18n.Words[venvs.Result]{
	venvs.Installed:    func() string { return i18n.T("cli.venvs.result.installed") },
	venvs.Repaired:     func() string { return i18n.T("cli.venvs.result.repaired") },
	venvs.Created:      func() string { return i18n.T("cli.venvs.result.created") },
	venvs.Restored:     func() string { return i18n.T("cli.venvs.result.restored") },
	venvs.Unchanged:    func() string { return i18n.T("cli.venvs.result.unchanged") },
	venvs.Damaged:      func() string { return i18n.T("cli.venvs.result.damaged") },
	venvs.ProblemsLeft: func() string { return i18n.T("cli.venvs.result.problems_left") },
}
