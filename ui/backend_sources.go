package ui

import (
	"context"
	"errors"
	"runtime"

	"gpuwiz/matrix"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/install"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/sources"
)

// Sources lists the candidate sources for the build (the --sources list or the embedded one) and
// probes them all at once. The wheel tags come from the Python that will run the build: the venv's
// when it exists, else the interpreter that creates it. pip's own proxy setting is read from
// `pip config list` with that Python.
func (b *stepsBackend) Sources(ctx context.Context, req SourcesRequest) (SourcesReport, error) {
	list, err := b.env.Sources()
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
	in, err := pyenv.DescribeWith(ctx, b.run, python, runtime.GOOS)
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
	opts := sources.Options{PipProxy: sources.ReadPipProxy(ctx, b.run, python, install.UnpackedDir(install.DefaultCacheDir()))}
	results := sources.Probe(ctx, cands, build, opts)
	return sourcesReportOf(build, results), nil
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
