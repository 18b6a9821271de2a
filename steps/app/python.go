package app

import (
	"runtime"
	"slices"

	"gpuwiz/matrix"
	"gpuwiz/steps/pyenv"
)

// RecommendedPython is the Python minor most of the matrix's releases for this OS support.
func (e *Env) RecommendedPython() string {
	var ranges []pyenv.PythonRange
	if m, err := e.Matrix(); err == nil {
		for _, rels := range [][]matrix.Release{m.Torch, m.Paddle} {
			for _, r := range rels {
				if slices.Contains(r.OS, runtime.GOOS) {
					ranges = append(ranges, pyenv.PythonRange{Min: r.PythonMin, Max: r.PythonMax})
				}
			}
		}
	}
	return pyenv.RecommendedMinor(ranges)
}
