package cli

import (
	"errors"

	"gpuwiz/matrix"
)

// Matrix returns the version matrix: the --matrix file when given, else the embedded one.
// Scaffold until the matrix loader lands (owned by the matrix work).
func (e *Env) Matrix() (*matrix.Matrix, error) {
	return nil, errors.New("no matrix loader yet")
}
