package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/go-version"

	"gpuwiz/steps/install"
	"gpuwiz/steps/keep"
	"gpuwiz/steps/pep"
	"gpuwiz/steps/pipconf"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/sources"
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
	// Source is where the project's packages come from when the user chose it (the wizard's add
	// screen); zero: the recorded one (the lock's mirror, else the user's pip settings).
	Source AddSource
}

// Kinds of AddSource.
const (
	AddFromMirror      = "mirror" // a PyPI-style index: the lock's mirror, one of the sources list's, or a typed URL
	AddFromPipSettings = "pip"    // the user's pip settings: the index they name, else PyPI
)

// AddSource is one place an add can take the project's packages from.
type AddSource struct {
	Kind string // AddFromMirror or AddFromPipSettings
	// IndexURL is a mirror's index; for the pip settings the index they name ("" PyPI), said only.
	IndexURL string
	Name     string // the sources list's name of a mirror ("" none)
	Setting  string // the pip settings: the file or PIP_* variable that names IndexURL
	Recorded bool   // the mirror the venv's lock recorded
	// Beside is the framework's own index pip is given beside IndexURL ("" none: the venv's
	// constraints keep the installed build).
	Beside string
}

// AddSources is where an add into a venv would take its packages from, read before pip runs (the
// venv's lock, the pip settings, the sources list): what it uses unless told otherwise, and the
// other places to choose from.
type AddSources struct {
	Build []string // the framework pins the venv keeps ("torch==2.6.0+cu126")
	// FrameworkIndex is the index the venv's build came from (the lock's; "" unknown).
	FrameworkIndex string
	Current        AddSource   // what the add uses when nothing is chosen
	Choices        []AddSource // the recorded mirror, the pip settings, then the sources list's PyPI-style mirrors
}

// Typed is the source for an index URL the user typed: the listed one when it is one of Choices.
func (a AddSources) Typed(u string) AddSource {
	u = strings.TrimSpace(u)
	for _, c := range a.Choices {
		if c.Kind == AddFromMirror && sameIndex(c.IndexURL, u) {
			return c
		}
	}
	return AddSource{Kind: AddFromMirror, IndexURL: u, Beside: install.BesideMirror(install.LockSources{IndexURL: a.FrameworkIndex}, u)}
}

func sameIndex(a, b string) bool { return strings.TrimRight(a, "/") == strings.TrimRight(b, "/") }

// AddSources reads where an add into venv would take the project's packages from: the mirror its
// lock recorded, else the user's pip settings (as pip reads them for the venv: pipconf, no pip
// started); the choices are those two and the sources list's PyPI-style mirrors (the "deps"
// entries' indexes and the "flat" entries' deps_index).
func (e *Env) AddSources(venv string) AddSources {
	lock := install.ReadLockSources(venv)
	out := AddSources{FrameworkIndex: lock.IndexURL}
	if data, err := os.ReadFile(filepath.Join(venv, "requirements.lock")); err == nil {
		out.Build = keep.LockPins(data)
	}
	var mirrors []AddSource
	if list, err := e.Sources(); err == nil {
		for _, en := range list.Sources {
			u, name := en.DepsIndex, ""
			if en.Layout == sources.KindDeps {
				u, name = en.URL, en.LocalName()
			}
			if u == "" {
				continue
			}
			u = strings.ReplaceAll(u, "{channel}", lock.Channel)
			i := slices.IndexFunc(mirrors, func(m AddSource) bool { return sameIndex(m.IndexURL, u) })
			switch {
			case i < 0:
				mirrors = append(mirrors, AddSource{Kind: AddFromMirror, IndexURL: u, Name: name, Beside: install.BesideMirror(lock, u)})
			case mirrors[i].Name == "":
				mirrors[i].Name = name
			}
		}
	}
	pip := AddSource{Kind: AddFromPipSettings}
	conf := pipconf.Read(pipconf.Source{Prefix: venv})
	for _, sect := range []string{pipconf.EnvSection, "install", "global"} {
		if s := conf.Winning(sect + ".index-url"); s != nil && s.Value != "" {
			pip.IndexURL, pip.Setting = s.Value, s.File
			if s.Var != "" {
				pip.Setting = s.Var
			}
			break
		}
	}
	if lock.Mirror != "" {
		rec := AddSource{Kind: AddFromMirror, IndexURL: lock.Mirror, Recorded: true, Beside: install.BesideMirror(lock, lock.Mirror)}
		if i := slices.IndexFunc(mirrors, func(m AddSource) bool { return sameIndex(m.IndexURL, lock.Mirror) }); i >= 0 {
			rec.Name = mirrors[i].Name
			mirrors = slices.Delete(mirrors, i, i+1)
		}
		out.Current = rec
		out.Choices = append(out.Choices, rec)
	} else {
		out.Current = pip
	}
	out.Choices = append(out.Choices, pip)
	out.Choices = append(out.Choices, mirrors...)
	return out
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
	s.Options = install.AddOptions{Venv: pyenv.Venv{Root: req.Venv}, Net: e.Net(req.Venv), Requirements: req.Requirements, Packages: req.Packages,
		IndexURL: req.IndexURL, FindLinks: req.FindLinks, CacheDir: req.CacheDir, LogPath: s.LogPath}
	switch req.Source.Kind {
	case AddFromMirror:
		s.Options.Mirror = req.Source.IndexURL
	case AddFromPipSettings:
		s.Options.NoMirror = true
	}
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
		var re *install.AddResolveError
		if errors.As(err, &re) {
			// pip's whole output goes to the log, for the front end to point at.
			path := s.log.open(s.LogPath)
			s.log.close()
			return s, &ExitError{Code: ExitFailure, Err: &AddPreviewFailed{Kind: re.Kind, Package: re.Package, LogPath: path, Err: err}}
		}
		return s, Exitf(ExitFailure, "%w", err)
	}
	return s, nil
}

// AddPreviewFailed is pip's dry run of an add failing for another reason than a refusal: what pip's
// output shows went wrong and the log that holds all of it, for a front end to word. Its message is
// pip's last lines, as the commands print it.
type AddPreviewFailed struct {
	Kind    string // AddFailUnreachable, AddFailNoSuchPackage, AddFailConflict; "" not known
	Package string // the requirement no release was found of (AddFailNoSuchPackage), as pip wrote it
	LogPath string // "" when the log could not be written
	Err     error
}

func (e *AddPreviewFailed) Error() string { return e.Err.Error() }
func (e *AddPreviewFailed) Unwrap() error { return e.Err }

// What a failed add preview shows went wrong.
const (
	AddFailUnreachable   = install.PipFailUnreachable
	AddFailNoSuchPackage = install.PipFailNoSuchPackage
	AddFailConflict      = install.PipFailConflict
)

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
