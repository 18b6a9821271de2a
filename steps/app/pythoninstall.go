package app

import (
	"context"
	"errors"
	"runtime"
	"strings"

	"gpuwiz/steps/install"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/pyget"
	"gpuwiz/steps/runner"
)

// Getting a Python for this user: the plan and its run, both front ends' (python install, the
// wizard's venv screen).
type (
	PythonPlan   = pyget.Plan
	PythonEvent  = pyget.Event
	PythonResult = pyget.Result
)

// PythonMirrors are the known copies of python.org's tree; PythonOfficialBase is python.org's.
var PythonMirrors = pyget.Mirrors

const PythonOfficialBase = pyget.OfficialBase

// PythonRequest is the Python to get: a minor ("3.12", "" the matrix's recommendation) or a
// version ("3.12.10"), from a mirror of python.org's tree, with the installer's SHA-256 when gpuwiz
// does not carry it.
type PythonRequest struct {
	Version string
	Mirror  string
	SHA256  string
	LogPath string // "" : install.DefaultLogPath("python-install")
}

// PythonSession is a planned Python install, ready to run once. AlreadyInstalled is an interpreter
// here that the plan would install (same minor, and version when one was named; 64-bit; able to
// make venvs): nothing needs to run.
type PythonSession struct {
	Plan             PythonPlan
	AlreadyInstalled *Interpreter
	LogPath          string
	opts             pyget.Options
}

// PlanPython makes the plan for req: nothing is changed yet. Bad input (a version gpuwiz cannot get)
// is a usage error (exit 2); anything else that stops the plan exit 1.
func (e *Env) PlanPython(ctx context.Context, req PythonRequest) (*PythonSession, error) {
	version := req.Version
	if version == "" {
		version = e.RecommendedPython()
	}
	o := pyget.Options{Version: version, Mirror: req.Mirror, SHA256: req.SHA256, Client: e.Net("").Client()}
	plan, err := pyget.MakePlan(o)
	if err != nil {
		if errors.Is(err, pyget.ErrBadInput) {
			return nil, Usagef("%s", strings.TrimPrefix(err.Error(), pyget.ErrBadInput.Error()+": "))
		}
		return nil, Exitf(ExitFailure, "%w", err)
	}
	s := &PythonSession{Plan: plan, opts: o, LogPath: req.LogPath}
	if s.LogPath == "" {
		s.LogPath = install.DefaultLogPath("python-install")
	}
	exact := ""
	if strings.Count(strings.TrimSpace(version), ".") == 2 {
		exact = plan.Version
	}
	s.AlreadyInstalled = installedPython(ctx, plan.Minor, exact)
	return s, nil
}

// installedPython is an interpreter already here that the plan would install: same minor (and
// version when one was named), 64-bit, able to make venvs.
func installedPython(ctx context.Context, minor, exact string) *Interpreter {
	found, err := pyenv.Discover(ctx, pyenv.DiscoverOptions{})
	if err != nil {
		return nil
	}
	for _, in := range found {
		if in.MinorVersion() == minor && (exact == "" || in.Version == exact) &&
			in.Kind != "store" && in.Kind != "venv" && in.Bits == 64 && len(in.VenvMissing) == 0 {
			return &in
		}
	}
	return nil
}

// Run installs the planned Python for this user (a distribution's Python is the user's command to
// run: the plan only names it), its commands in the session's log, sending progress to onEvent
// (nil: none). opened is the log file it wrote ("" when it could not).
func (s *PythonSession) Run(ctx context.Context, onEvent func(PythonEvent)) (res PythonResult, opened string, err error) {
	w, opened, closeLog := install.OpenLog(s.LogPath)
	defer closeLog()
	o := s.opts
	o.Run, o.OnEvent = runner.New(w), onEvent
	res, err = pyget.Run(ctx, o, s.Plan)
	return res, opened, err
}

// PythonOffer is the Python the wizard offers to install and how, for the wizard to word.
type PythonOffer struct {
	Minor string // "3.12"
	// Method is how it would be got (pyget's: "winget", PythonByInstaller, PythonByDistro); "" when
	// it cannot be got here, and Err says why.
	Method string
	Err    error
	// NeedsRoot: the distribution's packages, whose command needs root (gpuwiz does not run a package
	// manager as root).
	NeedsRoot  bool
	Command    string // the command the user runs themselves (Linux: the distribution's), "" when gpuwiz runs it
	CanInstall bool   // gpuwiz installs it itself (Windows)
}

// PythonOffer says how the matrix's recommended Python would be got here.
func (w *Wizard) PythonOffer() PythonOffer {
	minor := w.env.RecommendedPython()
	off := PythonOffer{Minor: minor}
	p, err := pyget.MakePlan(pyget.Options{Version: minor})
	if err != nil {
		off.Err = err
		return off
	}
	off.Method = p.Method
	switch {
	case p.Method == pyget.MethodDistro && p.Fix != nil:
		off.NeedsRoot, off.Command = true, p.Fix.Command
	case p.Method == pyget.MethodDistro:
	default:
		off.CanInstall = runtime.GOOS == "windows"
	}
	return off
}

// InstallPython installs the Python of minor for this user (the Python-install session) and
// returns the new interpreter, or the one already here that the plan would install.
func (w *Wizard) InstallPython(ctx context.Context, minor string) (Interpreter, error) {
	s, err := w.env.PlanPython(ctx, PythonRequest{Version: minor})
	if err != nil {
		return Interpreter{}, err
	}
	if s.AlreadyInstalled != nil {
		return *s.AlreadyInstalled, nil
	}
	res, _, err := s.Run(ctx, nil)
	if err != nil {
		return Interpreter{}, err
	}
	if res.Python == nil {
		return Interpreter{}, nil
	}
	return *res.Python, nil
}
