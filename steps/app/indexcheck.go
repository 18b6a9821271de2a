package app

import (
	"context"
	"runtime"
	"time"

	"gpuwiz/matrix"
	"gpuwiz/steps/indexcheck"
	"gpuwiz/steps/pep"
	"gpuwiz/steps/pyenv"
)

// IndexCheck is the answer to "does the index serve this build", asked before anything changes.
type IndexCheck struct {
	// Asked is false when nothing could be asked: no target Python is known yet, or the wheels come
	// from a flat page or folder (--find-links). NotAsked says which.
	Asked    bool
	NotAsked string // "no-python" or "find-links"
	// Verdict is the index's answer: Refused() with the next-best build it serves (NextBest), or
	// Status indexcheck.CouldNotLook (nothing refused: the download will tell), or served.
	Verdict indexcheck.Verdict
}

// Reasons IndexCheck.NotAsked gives.
const (
	NotAskedNoPython  = "no-python"
	NotAskedFindLinks = "find-links"
)

// Refused reports that the index does not serve the build: the install must not go on (unless forced).
func (c IndexCheck) Refused() bool { return c.Asked && c.Verdict.Refused() }

// CouldNotLook reports that the index could not be read: nothing is refused.
func (c IndexCheck) CouldNotLook() bool {
	return c.Asked && c.Verdict.Status == indexcheck.CouldNotLook
}

// indexTimeout bounds each page the index check reads.
const indexTimeout = 10 * time.Second

// IndexQuery is one question to the index.
type IndexQuery struct {
	Candidate matrix.Candidate
	Python    string            // the interpreter the build is for; "" when none is known yet
	Source    indexcheck.Source // the zero Source: the build's own index
	// FrameworkVersion, when the user pinned one, keeps the next-best build at that version.
	FrameworkVersion string
}

// CheckServed asks q.Source whether it serves the build's wheels for this OS and q.Python. When it
// does not, the other builds that fit this machine and that Python are asked in turn, and the first
// served is offered as the next best. Both front ends ask this before an install.
func (e *Env) CheckServed(ctx context.Context, q IndexQuery) (IndexCheck, error) {
	c, python, src := q.Candidate, q.Python, q.Source
	if src.FindLinks != "" {
		// A flat page (or folder) may list only some of the build's wheels, pip taking the rest from
		// the index beside it: the page alone cannot say the build is not served.
		return IndexCheck{NotAsked: NotAskedFindLinks}, nil
	}
	if python == "" {
		return IndexCheck{NotAsked: NotAskedNoPython}, nil
	}
	in, err := pyenv.Describe(ctx, python)
	if err != nil || in.Version == "" {
		return IndexCheck{NotAsked: NotAskedNoPython}, nil // the plan reports a broken interpreter itself
	}
	facts := matrix.Facts{Framework: c.Framework, FrameworkVersion: q.FrameworkVersion, OS: runtime.GOOS, PythonVersion: in.Version, Simulated: e.Simulated()}
	if _, err := e.FillGPUFacts(ctx, &facts); err != nil {
		return IndexCheck{}, err
	}
	m, err := e.Matrix()
	if err != nil {
		return IndexCheck{}, err
	}
	sel := m.Select(facts)
	// The index is asked through the proxy pip will use (Net).
	v := indexcheck.CheckBuild(ctx, &indexcheck.Fetcher{Timeout: indexTimeout, Client: e.Net(in.Prefix).Client()}, src, c, facts.OS, pep.Minor(in.Version), sel.Candidates)
	return IndexCheck{Asked: true, Verdict: v}, nil
}
