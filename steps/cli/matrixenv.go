package cli

import (
	"sync"

	"gpuwiz/matrix"
	"gpuwiz/steps/i18n"
)

type loadedMatrix struct {
	once sync.Once
	m    *matrix.Matrix
	err  error
}

// matrixLoads holds one load per Env, so every command of one run sees the same matrix, read once.
var matrixLoads sync.Map // *Env -> *loadedMatrix

// Matrix returns the version matrix: the --matrix file when given, else the embedded one. A bad
// --matrix file is a usage error (exit 2) naming the file and line.
func (e *Env) Matrix() (*matrix.Matrix, error) {
	v, _ := matrixLoads.LoadOrStore(e, &loadedMatrix{})
	l := v.(*loadedMatrix)
	l.once.Do(func() {
		if e.G.MatrixFile == "" {
			l.m, l.err = matrix.Embedded()
			if l.err != nil {
				l.err = Exitf(ExitFailure, "%s", i18n.T("cli.matrix.embedded_broken", i18n.D{"Err": l.err}))
			}
			return
		}
		l.m, l.err = matrix.LoadFile(e.G.MatrixFile)
		if l.err != nil {
			l.err = Usagef("--matrix: %v", l.err)
		}
	})
	return l.m, l.err
}
