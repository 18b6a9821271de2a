package runner

import (
	"strings"
	"unicode/utf8"

	"gpuwiz/steps/i18n"
)

// lineWriter splits a child's output into lines at \n, \r or \r\n (progress bars redraw with \r)
// and caps each line at MaxLineBytes.
type lineWriter struct {
	rec     *record
	stream  string
	buf     []byte
	dropped int  // bytes of the current over-long line not kept
	afterCR bool // the previous byte ended a line with \r
}

func (w *lineWriter) Write(p []byte) (int, error) {
	for _, b := range p {
		if b == '\n' && w.afterCR {
			w.afterCR = false
			continue
		}
		w.afterCR = b == '\r'
		if b == '\n' || b == '\r' {
			w.emit()
			continue
		}
		if len(w.buf) < MaxLineBytes {
			w.buf = append(w.buf, b)
		} else {
			w.dropped++
		}
	}
	return len(p), nil
}

func (w *lineWriter) emit() {
	text := strings.ToValidUTF8(string(w.buf), string(utf8.RuneError))
	if w.dropped > 0 {
		text += " " + i18n.N("runner.line_cut", w.dropped)
	}
	w.buf, w.dropped = w.buf[:0], 0
	w.rec.line(w.stream, text)
}

// flush delivers a last line that had no newline.
func (w *lineWriter) flush() {
	if len(w.buf) > 0 || w.dropped > 0 {
		w.emit()
	}
}
