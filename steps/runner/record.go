package runner

import (
	"bytes"
	"fmt"
	"sync"
	"time"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/urls"
)

// SkippedNotePrefix starts the stderr line that says how many lines a full channel dropped (in
// every language: runner.skipped starts with it).
const SkippedNotePrefix = "[gpuwiz: "

// record collects one run's log text and its tail, and delivers lines to the caller.
type record struct {
	name  string
	lines chan<- Line

	mu      sync.Mutex
	buf     bytes.Buffer
	tail    []string
	skipped int
}

func (r *record) logf(format string, a ...any) {
	r.mu.Lock()
	fmt.Fprintf(&r.buf, format+"\n", a...)
	r.mu.Unlock()
}

func (r *record) line(stream, text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if stream == "stderr" {
		r.buf.WriteString("! ")
	} else {
		r.buf.WriteString("  ")
	}
	r.buf.WriteString(text)
	r.buf.WriteByte('\n')
	r.tail = append(r.tail, text)
	if len(r.tail) > 2*TailLines {
		r.tail = append(r.tail[:0], r.tail[len(r.tail)-TailLines:]...)
	}
	if r.lines == nil {
		return
	}
	now := time.Now()
	if r.skipped > 0 {
		note := Line{Stream: "stderr", Text: i18n.N("runner.skipped", r.skipped), Time: now}
		select {
		case r.lines <- note:
			r.skipped = 0
		default:
			r.skipped++
			return
		}
	}
	select {
	case r.lines <- Line{Stream: stream, Text: urls.Redact(text), Time: now}:
	default:
		r.skipped++
	}
}

func (r *record) tailLines() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	t := r.tail
	if len(t) > TailLines {
		t = t[len(t)-TailLines:]
	}
	out := make([]string, len(t))
	for i, s := range t {
		out[i] = urls.Redact(s)
	}
	return out
}
