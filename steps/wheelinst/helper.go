package wheelinst

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"

	"gpuwiz/steps/i18n"
)

// Helper is the environment's Python kept running through an install: it answers where pip
// installs at once, imports pip's launcher maker while the caller stages and writes, and makes the
// launchers when asked (Launchers, once). A Python start and that import are most of what the
// launchers cost when they are made at the end (about 0.4 s of a 0.7 s install from the warm cache).
type Helper struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *bytes.Buffer
	scheme Scheme

	mu    sync.Mutex
	ended bool
	err   error // how the process ended
}

// StartHelper starts exe (the environment's Python) with env (nil: this process's) and returns once
// it has answered the scheme. Close it when done, whether Launchers was called or not.
func StartHelper(ctx context.Context, exe string, env []string) (*Helper, error) {
	cmd := exec.CommandContext(ctx, exe, "-c", helperScript, "serve")
	cmd.Env = env
	h := &Helper{cmd: cmd, stderr: &bytes.Buffer{}}
	cmd.Stderr = h.stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	h.in, h.out = in, bufio.NewReader(out)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	line, err := h.out.ReadBytes('\n')
	if err != nil {
		return nil, h.failed(err)
	}
	if h.scheme, err = parseScheme(line); err != nil {
		h.Close()
		return nil, err
	}
	return h, nil
}

// Scheme is where the environment's pip installs.
func (h *Helper) Scheme() Scheme { return h.scheme }

// Launchers hands the jobs (makeScripts's JSON) to the running Python and returns its answer; it
// answers each call until Close (one call at a time). The process lives by StartHelper's context: cancelling that one kills it,
// which ends the wait here too.
func (h *Helper) Launchers(ctx context.Context, jobs []byte) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if _, err := h.in.Write(append(bytes.TrimSpace(jobs), '\n')); err != nil {
		return nil, h.failed(err)
	}
	line, err := h.out.ReadBytes('\n')
	if err != nil {
		return nil, h.failed(err)
	}
	return line, nil
}

// Close ends the process: end of input (it exits at once when it was not asked), killed if it is
// still running a moment later. Safe to call more than once.
func (h *Helper) Close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ended {
		return
	}
	h.ended = true
	h.in.Close()
	done := make(chan error, 1)
	go func() { done <- h.cmd.Wait() }()
	select {
	case h.err = <-done:
	case <-time.After(5 * time.Second):
		h.cmd.Process.Kill()
		h.err = <-done
	}
}

// failed is err (how the process ended, when it ended without an answer) with what it said on stderr.
func (h *Helper) failed(err error) error {
	h.Close()
	if errors.Is(err, io.EOF) && h.err != nil {
		err = h.err
	}
	return fmt.Errorf("%v: %s", err, strings.TrimSpace(h.stderr.String()))
}

func parseScheme(out []byte) (Scheme, error) {
	var s Scheme
	if err := json.Unmarshal(out, &s); err != nil {
		return Scheme{}, i18n.Wrap(err, i18n.T("wheelinst.err.scheme", i18n.D{"Err": err}))
	}
	if s.Purelib == "" || s.Platlib == "" || s.Scripts == "" {
		return Scheme{}, errors.New(i18n.T("wheelinst.err.scheme_empty"))
	}
	return s, nil
}
