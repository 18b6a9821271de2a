package app

import (
	"context"
	"errors"
	"runtime"
	"time"

	"gpuwiz/matrix"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/sources"
)

// SourcesRequest asks where the packages of a build can come from.
type SourcesRequest struct {
	Candidate matrix.Candidate
	Venv      string // the venv: when it exists, its Python decides which wheels fit
	Python    string // the interpreter that creates the venv when it does not exist yet
	Custom    string // check only this URL (typed by the user)
}

// PackageSource is one place the packages can come from, with what the check found.
type PackageSource struct {
	ID, Name, Kind string
	// How the install uses it (PlanRequest's fields of the same names).
	IndexURL, FindLinks, Mirror string
	Where                       string // its URLs in one line, credentials hidden
	Answers                     bool
	TimedOut                    bool // gave no answer within the check's timeout (too slow, not gone)
	HasBuild                    bool
	Millis                      int64
	File                        string // the framework's wheel it carries for this build
	Why                         string // why it cannot be used, in plain words
	Proxy                       string // the proxy its requests went through, "" for none
	Redirected                  string // the host that answered instead, when the source sent the request on
	WheelsFrom                  string // the host its page links the wheels on, when not its own
	Note                        string
}

// Usable reports a source that answers and carries the build.
func (p PackageSource) Usable() bool { return p.Answers && p.HasBuild }

// SourcesReport is every candidate source, checked.
type SourcesReport struct {
	Build    string // "torch 2.6.0+cu126 for Python 3.12 on linux/amd64"
	Sources  []PackageSource
	Proposed int // the fastest usable source; -1 when none is
	Timeout  time.Duration
}

// ProbeSources lists the candidate sources for the build (the --sources list or the embedded
// one; with req.Custom only that URL) and checks them all at once with a short timeout. The wheel
// tags come from the Python that will run the build: the venv's when it exists, else the
// interpreter that creates it. pip's own proxy setting is read as pip reads it for that
// Python (pipconf: no pip started).
func (e *Env) ProbeSources(ctx context.Context, req SourcesRequest) (SourcesReport, error) {
	list, err := e.Sources()
	if err != nil {
		return SourcesReport{}, err
	}
	python := req.Python
	if v := (pyenv.Venv{Root: req.Venv}); req.Venv != "" && v.Exists() {
		python = v.Python()
	}
	if python == "" {
		return SourcesReport{}, errors.New(i18n.T("ui.backend.no_python"))
	}
	run := runner.New(nil)
	in, err := pyenv.DescribeWith(ctx, run, python, runtime.GOOS)
	if err != nil {
		return SourcesReport{}, err
	}
	build := buildOf(req.Candidate, in)
	var cands []sources.Candidate
	if req.Custom != "" {
		c, err := sources.Custom(req.Custom)
		if err != nil {
			return SourcesReport{}, err
		}
		cands = []sources.Candidate{c}
	} else {
		cands = list.For(req.Candidate.Framework, req.Candidate.Channel, req.Candidate.IndexURL)
	}
	return sourcesReportOf(build, sources.Probe(ctx, cands, build, sources.Options{Net: e.Net(in.Prefix)})), nil
}

// Sources is the source probe (Env.ProbeSources).
func (w *Wizard) Sources(ctx context.Context, req SourcesRequest) (SourcesReport, error) {
	return w.env.ProbeSources(ctx, req)
}

// buildOf is the framework wheel a source must carry for candidate c on interpreter in.
func buildOf(c matrix.Candidate, in pyenv.Interpreter) sources.Build {
	b := sources.Build{Python: in.MinorVersion(), GOOS: runtime.GOOS, GOARCH: runtime.GOARCH}
	if in.Bits == 32 && runtime.GOARCH == "amd64" {
		b.GOARCH = "386"
	}
	if len(c.Packages) > 0 {
		b.Project, b.Version = c.Packages[0].Name, c.Packages[0].Version+c.Packages[0].LocalLabel
	}
	for _, p := range c.Packages {
		switch p.Name {
		case "torch", "paddlepaddle-gpu", "paddlepaddle":
			b.Project, b.Version = p.Name, p.Version+p.LocalLabel
			return b
		}
	}
	return b
}

func sourcesReportOf(b sources.Build, results []sources.Result) SourcesReport {
	r := SourcesReport{Build: b.String(), Proposed: sources.Propose(results), Timeout: sources.DefaultTimeout}
	for _, res := range results {
		c := res.Candidate
		r.Sources = append(r.Sources, PackageSource{ID: c.ID, Name: c.Name, Kind: c.Kind,
			IndexURL: c.IndexURL, FindLinks: c.FindLinks, Mirror: c.Mirror, Where: c.Where(),
			Answers: res.Answers, TimedOut: res.TimedOut, HasBuild: res.HasBuild, Millis: res.Millis(), File: res.File,
			Why: res.Why, Proxy: res.Proxy, Redirected: res.Redirected, WheelsFrom: res.WheelsFrom, Note: c.Note})
	}
	return r
}
