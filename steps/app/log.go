package app

import (
	"bytes"
	"io"
	"sync"

	"gpuwiz/steps/install"
)

// runLog is a session's log: what its commands print while it is planned is kept in memory, and the
// file is made only when the session runs, with that first. A plan that is never run (a dry run, a
// "no" at the prompt, the wizard going back) leaves no log file behind.
type runLog struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	w       io.Writer // the file once opened
	closeFn func()
	path    string
}

func (l *runLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.w != nil {
		return l.w.Write(p)
	}
	return l.buf.Write(p)
}

// open makes the log file at path (install.OpenLog: "" when it could not) with what was kept so far.
// A second open keeps the first file.
func (l *runLog) open(path string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.w != nil {
		return l.path
	}
	w, opened, closeFn := install.OpenLog(path)
	_, _ = w.Write(l.buf.Bytes())
	l.buf.Reset()
	l.w, l.closeFn, l.path = w, closeFn, opened
	return opened
}

func (l *runLog) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closeFn != nil {
		l.closeFn()
		l.closeFn = nil
	}
}
