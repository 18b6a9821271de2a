package app

import (
	"context"
	"errors"
	"strings"

	"github.com/hashicorp/go-version"

	"gpuwiz/steps/install"
	"gpuwiz/steps/pep"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
)

// AddRequest asks for a project's requirements in a venv gpuwiz installed a framework into.
type AddRequest struct {
	Venv         string   // absolute
	Requirements []string // requirements files, absolute
	Packages     []string
	IndexURL     string
	FindLinks    string
	CacheDir     string
	LogPath      string // "": install.DefaultLogPath("add")
}

// AddSession is a previewed add: what pip's dry run in the venv says would change, ready to run.
type AddSession struct {
	Preview install.AddPreview
	// WayOut is the build that satisfies a refused requirement, on the venv's channel ("" none).
	WayOut  string
	Options install.AddOptions
	LogPath string

	log  *runLog
	r    runner.Runner
	plan *install.Plan // made by Prepare, else by Run
}

// PlanAdd previews the add. A refusal (a requirement needing another framework build) is an error
// with exit code 3 and the session, with its Preview and WayOut, for the front end to word; bad input
// (nothing asked, no gpuwiz lock in the venv) is exit 2.
func (e *Env) PlanAdd(ctx context.Context, req AddRequest) (*AddSession, error) {
	s := &AddSession{log: &runLog{}, LogPath: req.LogPath}
	if s.LogPath == "" {
		s.LogPath = install.DefaultLogPath("add")
	}
	s.r = runner.New(s.log)
	s.Options = install.AddOptions{Venv: pyenv.Venv{Root: req.Venv}, Requirements: req.Requirements, Packages: req.Packages,
		IndexURL: req.IndexURL, FindLinks: req.FindLinks, CacheDir: req.CacheDir, LogPath: s.LogPath}
	prev, err := install.PreviewAdd(ctx, s.r, s.Options)
	s.Preview = prev
	switch {
	case errors.Is(err, install.ErrAddRefused):
		if prev.Refusal != nil {
			s.WayOut = e.addWayOut(prev, prev.Refusal.Needs)
		}
		return s, &ExitError{Code: ExitIncompatible, Err: err}
	case errors.Is(err, install.ErrBadInput), errors.Is(err, install.ErrNotGpuwizVenv):
		return s, Usagef("%s", strings.TrimPrefix(err.Error(), install.ErrBadInput.Error()+": "))
	case err != nil:
		return s, Exitf(ExitFailure, "%w", err)
	}
	return s, nil
}

// addWayOut is the newest release of the matrix on the venv's channel whose version satisfies
// needs ("torch>=2.7"), or "".
func (e *Env) addWayOut(p install.AddPreview, needs string) string {
	m, err := e.Matrix()
	if err != nil || m == nil {
		return ""
	}
	name, spec := needs, ""
	if i := strings.IndexAny(needs, "<>=!~"); i > 0 {
		name, spec = strings.TrimSpace(needs[:i]), strings.TrimSpace(needs[i:])
	}
	cons, err := version.NewConstraint(strings.ReplaceAll(spec, "~=", "~>"))
	if err != nil {
		return ""
	}
	rels := m.Torch
	if p.Framework == "paddle" {
		rels = m.Paddle
	}
	best := ""
	var bestV *version.Version
	for _, r := range rels {
		v := r.Version
		switch pep.Normalize(name) {
		case "torchvision":
			v = r.Torchvision
		case "torchaudio":
			v = r.Torchaudio
		}
		pv, err := version.NewVersion(v)
		if err != nil || !cons.Check(pv) {
			continue
		}
		for _, b := range r.Builds {
			if b.Channel == p.Channel && (bestV == nil || pv.GreaterThan(bestV)) {
				best, bestV = r.Version, pv
			}
		}
	}
	return best
}

// Prepare makes the install engine's plan for the previewed changes (its steps, for a front end to
// list before it runs); Run prepares it itself when Prepare was not called.
func (s *AddSession) Prepare(ctx context.Context) (install.Plan, error) {
	s.Options.LogPath = s.LogPath
	plan, err := install.PrepareAdd(ctx, s.r, s.Options, s.Preview)
	if err != nil {
		return install.Plan{}, Exitf(ExitFailure, "%w", err)
	}
	s.plan = &plan
	return plan, nil
}

// AddResult is how an add ended.
type AddResult struct {
	Outcome  install.Outcome
	Result   Result
	ExitCode int
}

// Run installs the previewed changes with the install engine's guarantees and writes the log.
func (s *AddSession) Run(ctx context.Context, events chan<- install.Event) (AddResult, error) {
	path := s.log.open(s.LogPath)
	defer s.log.close()
	if s.plan == nil {
		if _, err := s.Prepare(ctx); err != nil {
			return AddResult{ExitCode: ExitFailure}, err
		}
	}
	plan := *s.plan
	plan.LogPath = path
	o := install.Run(ctx, s.r, plan, events)
	return AddResult{Outcome: o, Result: Result(o.Result), ExitCode: installExitCode(o, ctx)}, nil
}
