package cli

import (
	"sync"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/sources"
)

type loadedSources struct {
	once sync.Once
	l    *sources.List
	err  error
}

var sourcesLoads sync.Map // *Env -> *loadedSources

// Sources returns the list of package sources: the --sources file when given, else the embedded
// one. A bad --sources file is a usage error (exit 2) naming the file and line.
func (e *Env) Sources() (*sources.List, error) {
	v, _ := sourcesLoads.LoadOrStore(e, &loadedSources{})
	l := v.(*loadedSources)
	l.once.Do(func() {
		l.l, l.err = sources.LoadFile(e.G.SourcesFile)
		switch {
		case l.err != nil && e.G.SourcesFile == "":
			l.err = Exitf(ExitFailure, "%s", i18n.T("cli.sources.embedded_broken", i18n.D{"Err": l.err}))
		case l.err != nil:
			l.err = Usagef("--sources: %v", l.err)
		}
	})
	return l.l, l.err
}
