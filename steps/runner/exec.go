package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/urls"
)

const (
	// MaxLineBytes caps one delivered line; the rest of an over-long line is dropped with a marker.
	MaxLineBytes = 64 << 10
	// TailLines is how many trailing lines Result.Tail keeps.
	TailLines = 40
	// killWait bounds how long Run waits for output pipes after the child exits or is killed
	// (a grandchild holding the pipe open must not hang the wizard).
	killWait = 3 * time.Second
)

// New returns the real runner. Every command, its full output, exit code and duration are
// written to log (nil discards), with credentials in URLs redacted.
//
// Line delivery: lines are sent without blocking. When the caller's channel is full, the line is
// dropped from the stream (never from the log) and counted; the next line that fits is preceded by
// a stderr line saying how many were skipped. A slow reader therefore never stalls the child; the
// channel's capacity is the bound, so give it a buffer (a few hundred lines).
func New(log io.Writer) Runner {
	if log == nil {
		log = io.Discard
	}
	return &execRunner{log: log}
}

type execRunner struct {
	mu  sync.Mutex // one log record at a time across concurrent runs
	log io.Writer
}

// Note writes a line of gpuwiz's own into the log, between the commands' records: what it did
// itself (its installer's work, a step's time), so a log shows where a run's time went.
func (r *execRunner) Note(text string) {
	r.mu.Lock()
	_, _ = io.WriteString(r.log, "# "+urls.Redact(text)+"\n")
	r.mu.Unlock()
}

func (r *execRunner) Run(ctx context.Context, c Cmd, lines chan<- Line) Result {
	start := time.Now()
	name := c.Name
	if name == "" && len(c.Argv) > 0 {
		name = c.Argv[0]
	}
	rec := &record{name: name, lines: lines}
	rec.logf("$ %s", QuoteArgv(c.Argv))
	if c.Dir != "" {
		rec.logf("  in %s", c.Dir) //i18n:raw the log, for support
	}
	for _, kv := range c.Env {
		if strings.HasPrefix(strings.ToUpper(kv), "PIP_") {
			rec.logf("  env %s", kv)
		}
	}
	res := r.run(ctx, c, rec)
	res.Duration = time.Since(start)
	res.Tail = rec.tailLines()
	switch {
	case res.Err == nil:
		rec.logf("exit 0 after %s", res.Duration.Round(time.Millisecond)) //i18n:raw the log, for support
	default:
		rec.logf("%v after %s (exit code %d)", res.Err, res.Duration.Round(time.Millisecond), res.ExitCode) //i18n:raw the log, for support
	}
	r.mu.Lock()
	_, _ = io.WriteString(r.log, urls.Redact(rec.buf.String()))
	r.mu.Unlock()
	return res
}

func (r *execRunner) run(ctx context.Context, c Cmd, rec *record) Result {
	if len(c.Argv) == 0 || c.Argv[0] == "" {
		return Result{ExitCode: -1, Err: errors.New("runner: empty command")} //i18n:raw a caller's bug, for its developers
	}
	if err := ctx.Err(); err != nil {
		return Result{ExitCode: -1, Err: i18n.Wrap(err, i18n.T("runner.not_started", i18n.D{"Name": rec.name, "Err": err}))}
	}
	cmd := exec.CommandContext(ctx, c.Argv[0], c.Argv[1:]...)
	cmd.Dir = c.Dir
	cmd.Env = c.Env
	if c.Env == nil {
		cmd.Env = os.Environ()
	}
	stdout := &lineWriter{rec: rec, stream: "stdout"}
	stderr := &lineWriter{rec: rec, stream: "stderr"}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if c.Stdout != nil {
		cmd.Stdout = io.MultiWriter(stdout, c.Stdout)
	}
	cmd.WaitDelay = killWait
	tree := newProcessTree(cmd)
	cmd.Cancel = tree.kill
	if err := cmd.Start(); err != nil {
		return Result{ExitCode: -1, Err: i18n.Wrap(err, i18n.T("runner.start_failed", i18n.D{"Name": rec.name, "Err": err}))}
	}
	tree.started()
	err := cmd.Wait()
	stdout.flush()
	stderr.flush()
	if ctx.Err() != nil {
		tree.kill() // grandchildren that outlived a killed leader
	}
	tree.release()
	if ctx.Err() != nil {
		return Result{ExitCode: -1, Err: i18n.Wrap(ctx.Err(), i18n.T("runner.cancelled", i18n.D{"Name": rec.name, "Err": ctx.Err()}))}
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code := ee.ExitCode()
		if code == -1 {
			return Result{ExitCode: -1, Err: fmt.Errorf("%s: %w", rec.name, err)}
		}
		return Result{ExitCode: code, Err: &ExitCodeError{Name: rec.name, Code: code}}
	}
	if err != nil && !errors.Is(err, exec.ErrWaitDelay) {
		return Result{ExitCode: -1, Err: fmt.Errorf("%s: %w", rec.name, err)}
	}
	return Result{ExitCode: 0}
}

// QuoteArgv renders argv for a log or a message, each argument quoted only when it needs it.
func QuoteArgv(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		if a == "" || strings.ContainsAny(a, " \t\"'&;|<>()$`\\*?[]{}!#~%^") {
			out[i] = strconv.Quote(a)
		} else {
			out[i] = a
		}
	}
	return strings.Join(out, " ")
}
