package doctor

import (
	"context"
	"sync"
)

// probes are the evidence that takes a child process each: what the environment holds (a Python
// start; pip's settings are read for its sys.prefix once it answers) and the pip on PATH (a pip
// start, the slowest: pip imports much before it answers). They depend on nothing else doctor reads, so they start together, first.
type probes struct {
	python, venv string
	cancel       context.CancelFunc
	inspected    chan struct{} // closed once in and inErr are set
	wg           sync.WaitGroup

	in        Inspection
	inErr     error
	indexes   []IndexSetting
	pipOnPath *PipOnPath
}

// startProbes starts the probes of python (and its venv) beside whatever the caller does next.
func startProbes(ctx context.Context, d Deps, python, venv string) *probes {
	ctx, cancel := context.WithCancel(ctx)
	p := &probes{python: python, venv: venv, cancel: cancel, inspected: make(chan struct{})}
	p.wg.Go(func() {
		defer close(p.inspected)
		p.in, p.inErr = d.Inspect(ctx, d.Runner, python)
	})
	p.wg.Go(func() {
		// pip reads the site file under the interpreter's sys.prefix, which the inspection learns
		<-p.inspected
		prefix := p.in.Prefix
		if prefix == "" {
			prefix = venv
		}
		p.indexes = collectIndexSettings(d, prefix)
	})
	p.wg.Go(func() { p.pipOnPath = probePipOnPath(ctx, d) })
	return p
}

// inspection waits for what the environment holds only: the framework's check, which takes longest,
// can start on it while pip is still answering.
func (p *probes) inspection() (Inspection, error) {
	<-p.inspected
	return p.in, p.inErr
}

// pip waits for pip's answers.
func (p *probes) pip() ([]IndexSetting, *PipOnPath) {
	p.wg.Wait()
	return p.indexes, p.pipOnPath
}

// stop abandons the probes (their children are stopped) and waits until they have ended, so none
// writes to a log after it was closed. Safe on nil.
func (p *probes) stop() {
	if p != nil {
		p.cancel()
		p.wg.Wait()
	}
}

// of says whether p probed this python and venv.
func (p *probes) of(python, venv string) bool {
	return p != nil && p.python == python && p.venv == venv
}
