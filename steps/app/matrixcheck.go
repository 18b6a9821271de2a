package app

import (
	"context"
	"os"
	"time"

	"gpuwiz/matrix"
	"gpuwiz/steps/indexcheck"
)

// OSName is goos as a user reads it: "Windows", "Linux".
func OSName(goos string) string { return matrix.OSName(goos) }

// MatrixCheckRequest asks whether the index (or the source given) serves every build the matrix
// declares.
type MatrixCheckRequest struct {
	Frameworks []string // nil: every framework
	Source     indexcheck.Source
	Timeout    time.Duration // of each request
	Parallel   int           // pages read at once
}

// CheckMatrix reads the index pages of every build of the run's matrix and says which are served,
// which are phantoms (a declared wheel missing) and which could not be looked at, through the proxy
// pip would use without a Python of its own (Net("")).
func (e *Env) CheckMatrix(ctx context.Context, req MatrixCheckRequest) (indexcheck.Report, error) {
	m, err := e.Matrix()
	if err != nil {
		return indexcheck.Report{}, err
	}
	return indexcheck.CheckMatrix(ctx, m, req.Frameworks, &indexcheck.Fetcher{Timeout: req.Timeout, Client: e.Net("").Client()}, req.Source, req.Parallel), nil
}

// MatrixTOML is the run's matrix as its file has it: the --matrix file's bytes, else the embedded
// matrix's.
func (e *Env) MatrixTOML() ([]byte, error) {
	if e.G.MatrixFile == "" {
		return matrix.EmbeddedTOML(), nil
	}
	data, err := os.ReadFile(e.G.MatrixFile)
	if err != nil {
		return nil, Exitf(ExitFailure, "%v", err)
	}
	return data, nil
}
