// Package runner runs child processes from argv (never a shell), streams their output as lines,
// kills the whole process tree on cancel, and logs every command with credentials redacted.
package runner

import (
	"context"
	"io"
	"time"

	"gpuwiz/steps/i18n"
)

// Cmd is one child process to run.
type Cmd struct {
	Argv []string
	Env  []string // full environment; nil means os.Environ()
	Dir  string
	Name string // the step's label, in words (a catalog message: "verify torch"), for the log and errors
	// Stdout, when set, also receives the child's raw stdout, uncapped and never dropped: for
	// commands whose output is data (a JSON document) rather than lines to show.
	Stdout io.Writer
}

// Line is one line of a child's output.
type Line struct {
	Stream string // "stdout" or "stderr"
	Text   string
	Time   time.Time
}

// Result is how a child ended. Err is nil exactly when the child ran and exited 0; it wraps
// ctx.Err() when the run was cancelled, and is an *ExitCodeError for a non-zero exit.
type Result struct {
	ExitCode int // -1 when the child did not start or was killed
	Duration time.Duration
	Err      error
	Tail     []string // the last TailLines lines of output (both streams), for error messages
}

// OK reports whether the child exited 0.
func (r Result) OK() bool { return r.Err == nil }

// Runner runs one child to completion. Lines go to lines when it is non-nil (see New for the
// delivery policy); Run never closes lines, so one channel can serve a sequence of runs.
type Runner interface {
	Run(ctx context.Context, c Cmd, lines chan<- Line) Result
}

// Noter is a Runner that also takes notes of the caller's own into its log (New's runner does).
type Noter interface {
	Note(text string)
}

// Note writes text into r's log when r takes notes (a Noter), else nowhere.
func Note(r Runner, text string) {
	if n, ok := r.(Noter); ok {
		n.Note(text)
	}
}

// ExitCodeError is Result.Err for a child that exited non-zero.
type ExitCodeError struct {
	Name string
	Code int
}

func (e *ExitCodeError) Error() string {
	return i18n.T("runner.exited", i18n.D{"Name": e.Name, "Code": e.Code})
}
