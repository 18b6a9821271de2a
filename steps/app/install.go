package app

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"strings"

	"gpuwiz/matrix"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/indexcheck"
	"gpuwiz/steps/install"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/words"
)

// InstallRequest is what a front end wants installed, and where.
type InstallRequest struct {
	// Candidate is the build chosen (the wizard's channel screen); nil: the matrix chooses among the
	// builds of Framework that fit Channel and FrameworkVersion (ChooseCandidate).
	Candidate        *matrix.Candidate
	Framework        string
	FrameworkVersion string
	Channel          string

	Venv   string // the environment's root, absolute
	Python string // the interpreter a new venv is made from
	// Where the packages come from; all empty: the channel's index.
	IndexURL  string // a PEP 503 index for the whole family, in place of the channel's
	Mirror    string // a PyPI-style index for the dependencies
	FindLinks string // a flat page (or folder) of the framework's wheels
	CacheDir  string
	SourceWhy string // why the plan takes that source, in words ("" when the user typed it)

	LogPath      string // "" : install.DefaultLogPath("install")
	NoPipUpgrade bool
	FixPth       bool // consent: an embedded Python's ._pth gets `import site` (its site-packages is off sys.path)
	Force        bool // a build that does not fit, or that the index does not serve, goes on with a note
}

// InstallSession is one planned install: the build, the engine's plan and the index's answer, ready
// to run once.
type InstallSession struct {
	Candidate matrix.Candidate
	// Notes are the session's own notes before the plan's: the facts learned from this machine, the
	// matrix's notes (words.NoteSaid), what the build taken means (unverified, forced).
	Notes []words.Note
	Index IndexCheck
	Plan  install.Plan
	// Options are the engine's options the plan was made from.
	Options install.Options
	// LogPath is where the log goes when the session runs.
	LogPath string

	log *runLog
	r   runner.Runner
}

// ErrNotServed is the refusal of a build the index does not serve (exit 3); Check holds the answer,
// with the next-best build, for the front end to put into words.
type ErrNotServed struct{ Check IndexCheck }

func (e *ErrNotServed) Error() string { return e.Check.Verdict.Message() }

// PlanInstall chooses the build (unless the request names it), asks the index whether it serves it,
// and makes the engine's plan: nothing is changed yet. An error carries its exit code (ExitError):
// bad input 2, a build that does not fit or is not served 3 (*ErrNotServed inside).
func (e *Env) PlanInstall(ctx context.Context, req InstallRequest) (*InstallSession, error) {
	v := pyenv.Venv{Root: req.Venv}
	s := &InstallSession{log: &runLog{}}
	if req.Candidate != nil {
		s.Candidate = *req.Candidate
	} else {
		c, notes, err := e.ChooseCandidate(ctx, req)
		if err != nil {
			return nil, err
		}
		s.Candidate, s.Notes = *c, notes
	}
	python := req.Python
	if v.Exists() {
		python = v.Python()
	}
	src := indexcheck.Source{FindLinks: req.FindLinks}
	if req.IndexURL != s.Candidate.IndexURL {
		src.IndexURL = req.IndexURL
	}
	check, err := e.CheckServed(ctx, IndexQuery{Candidate: s.Candidate, Python: python, Source: src, FrameworkVersion: req.FrameworkVersion})
	if err != nil {
		return nil, err
	}
	s.Index = check
	if check.Refused() && !req.Force {
		return nil, &ExitError{Code: ExitIncompatible, Err: &ErrNotServed{check}}
	}
	s.LogPath = req.LogPath
	if s.LogPath == "" {
		s.LogPath = install.DefaultLogPath("install")
	}
	opts := install.Options{Venv: v, Python: req.Python, Target: install.TargetOf(s.Candidate), Mirror: req.Mirror, Net: e.Net(v.Root),
		FindLinks: req.FindLinks, CacheDir: req.CacheDir, LogPath: s.LogPath, NoPipUpgrade: req.NoPipUpgrade, SourceWhy: req.SourceWhy, FixPth: req.FixPth}
	if req.IndexURL != s.Candidate.IndexURL {
		opts.IndexURLOverride = req.IndexURL // a mirror of the channel's index
	}
	s.Options, s.r = opts, runner.New(s.log)
	plan, err := install.Prepare(ctx, s.r, opts)
	if err != nil {
		if errors.Is(err, install.ErrBadInput) {
			return nil, Usagef("%s", strings.TrimPrefix(err.Error(), install.ErrBadInput.Error()+": "))
		}
		return nil, Exitf(ExitFailure, "%w", err)
	}
	if w := e.knownDepthWarning(s.Candidate, v); w != "" {
		plan.Warnings = append(plan.Warnings, w)
	}
	s.Plan = plan
	return s, nil
}

// knownDepthWarning warns in the plan, before anything is downloaded, when the matrix records how
// deep the release's files go (longest_path) and they would not fit below the venv on Windows with
// long paths off; the install checks again with the staged wheels' own file lists.
func (e *Env) knownDepthWarning(c matrix.Candidate, v pyenv.Venv) string {
	goos := v.GOOS
	if goos == "" {
		goos = runtime.GOOS
	}
	m, err := e.Matrix()
	if err != nil || goos != "windows" {
		return ""
	}
	row, ok := m.WindowsNeeds(c.Framework, c.FrameworkVersion)
	if !ok || row.LongestPath == 0 {
		return ""
	}
	return pyenv.BuildFits(v.Root, pyenv.DeepestFile{Path: c.Framework + " " + c.FrameworkVersion, Length: row.LongestPath}, goos, pyenv.ReadLongPaths())
}

// Activations are the commands that enter the environment, one per shell.
func (s *InstallSession) Activations() []pyenv.Activation {
	return pyenv.Venv{Root: s.Plan.Venv}.Activations()
}

// InstallResult is how an install session ended.
type InstallResult struct {
	Outcome install.Outcome
	// Result is the engine's result (Installed, Unchanged, Restored, Damaged); Cancelled is true when
	// the run was interrupted before it installed.
	Result    Result
	Cancelled bool
	ExitCode  int
	// Activations enter the environment; nil when the run removed the venv it had made.
	Activations []pyenv.Activation
	// RecordErr is the list of venvs that could not be written: a warning, not the run's failure.
	RecordErr error
}

// Run runs the session's plan, sending the engine's events on events (closed by the caller after
// Run returns), writing the log file, and records the venv on the list of venvs.
func (s *InstallSession) Run(ctx context.Context, events chan<- install.Event) InstallResult {
	plan := s.Plan
	plan.LogPath = s.log.open(s.LogPath)
	defer s.log.close()
	o := install.Run(ctx, s.r, plan, events)
	out := InstallResult{Outcome: o, Result: Result(o.Result), ExitCode: installExitCode(o, ctx)}
	out.Cancelled = ctx.Err() != nil && o.Result != install.ResultInstalled
	if !o.VenvRemoved {
		out.Activations = s.Activations()
	}
	cand := s.Candidate
	recorded, ok := InstallResultOf(o, ctx)
	out.RecordErr = RecordVenv(ctx, plan.Venv, ActionInstall, recorded, ok, &cand)
	return out
}

func installExitCode(o install.Outcome, ctx context.Context) int {
	switch {
	case o.Result == install.ResultInstalled && o.OK():
		return ExitOK
	case o.Result == install.ResultInstalled:
		return ExitVerifyFailed
	case ctx.Err() != nil:
		return ExitInterrupted
	}
	return ExitFailure
}

// ChooseCandidate finds the build: the exact one asked for, or the matrix's recommendation for this
// machine (GPU report and the Python) among the builds that fit what was given. A build asked for that
// does not fit is refused with its reasons (exit 3) unless Force.
func (e *Env) ChooseCandidate(ctx context.Context, req InstallRequest) (*matrix.Candidate, []words.Note, error) {
	m, err := e.Matrix()
	if err != nil {
		return nil, nil, err
	}
	if req.FrameworkVersion != "" && !m.HasRelease(req.Framework, req.FrameworkVersion) {
		return nil, nil, Usagef("%s", i18n.T("cli.install.no_release", i18n.D{"Version": req.FrameworkVersion, "Framework": req.Framework, "Known": i18n.Join(m.Versions(req.Framework))}))
	}
	if req.Channel != "" && !slices.Contains(m.Channels(req.Framework), req.Channel) {
		return nil, nil, Usagef("%s", i18n.T("cli.install.no_channel", i18n.D{"Channel": req.Channel, "Framework": req.Framework, "Known": i18n.Join(m.Channels(req.Framework))}))
	}
	facts := matrix.Facts{Framework: req.Framework, FrameworkVersion: req.FrameworkVersion, OS: runtime.GOOS, Simulated: e.Simulated()}
	notes, err := e.FillGPUFacts(ctx, &facts)
	if err != nil {
		return nil, nil, err
	}
	v := pyenv.Venv{Root: req.Venv}
	py := req.Python
	if v.Exists() {
		py = v.Python()
	}
	if py != "" {
		in, err := pyenv.Describe(ctx, py)
		if err != nil {
			if v.Exists() {
				return nil, nil, Usagef("%s", i18n.T("cli.install.venv_python_not_python", i18n.D{"Python": py, "Err": err}))
			}
			return nil, nil, Usagef("%s", i18n.T("cli.install.python_flag_not_python", i18n.D{"Python": py, "Err": err}))
		}
		if err := matrix.ValidatePythonVersion(in.Version); err != nil {
			return nil, nil, Usagef("%s", i18n.T("cli.install.python_version_bad", i18n.D{"Python": py, "Version": in.Version, "Err": err}))
		}
		facts.PythonVersion, facts.PythonBits = in.Version, in.Bits
	}
	sel := m.Select(facts)
	said := func(ss []string) []words.Note {
		out := make([]words.Note, len(ss))
		for i, s := range ss {
			out[i] = words.Note{Code: words.NoteSaid, Said: s}
		}
		return out
	}
	if req.Channel == "" {
		if sel.Recommended == nil {
			return nil, nil, Exitf(ExitIncompatible, "%s", i18n.T("cli.install.nothing_fits", i18n.D{"Framework": req.Framework, "Reasons": i18n.JoinClauses(append(words.Texts(notes), sel.Notes...))}))
		}
		return sel.Recommended, append(notes, said(sel.Notes)...), nil
	}
	// The builds on the channel asked for, newest first (Select orders compatible ones first): the
	// newest verified one, else the newest unverified one, said as such.
	var first, unverified *matrix.Candidate
	for i := range sel.Candidates {
		c := &sel.Candidates[i]
		if c.Channel != req.Channel {
			continue
		}
		if c.Compatible && c.Verified {
			return c, append(notes, said(sel.Notes)...), nil
		}
		if c.Compatible && unverified == nil {
			unverified = c
		}
		if !c.Compatible && (first == nil || c.Verified && !first.Verified) {
			first = c // the newest verified build that does not fit, else the newest one
		}
	}
	if c := unverified; c != nil {
		// Asked for by its channel: the selection's offer of it ("to install it anyway, pass ...")
		// gives way to what installing it means.
		matrixNotes := sel.Notes
		if a := sel.AlsoFits; a != nil && a.FrameworkVersion == c.FrameworkVersion && a.Channel == c.Channel {
			matrixNotes = slices.DeleteFunc(slices.Clone(matrixNotes), sel.IsAlsoFitsNote)
		}
		notes = append(append(notes, said(matrixNotes)...), words.Note{Code: words.NoteUnverifiedAsked, Framework: req.Framework, Version: c.FrameworkVersion, Channel: c.Channel, Why: c.Note})
		return c, notes, nil
	}
	if first == nil {
		return nil, nil, Exitf(ExitIncompatible, "%s", i18n.T("cli.install.no_build_on_channel", i18n.D{"Framework": req.Framework, "Version": req.FrameworkVersion, "Channel": req.Channel}))
	}
	if req.Force {
		notes = append(append(notes, said(sel.Notes)...), words.Note{Code: words.NoteForced, Framework: req.Framework, Version: first.FrameworkVersion, Channel: first.Channel, Reasons: first.Reasons})
		return first, notes, nil
	}
	return nil, nil, Exitf(ExitIncompatible, "%s", i18n.T("cli.install.does_not_fit", i18n.D{"Framework": req.Framework, "Version": first.FrameworkVersion, "Channel": req.Channel, "Reasons": i18n.JoinClauses(first.Reasons)}))
}
