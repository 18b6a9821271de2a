// Package tmux is the test kit that drives a real program in a real terminal: a shell in a tmux
// session on a private server, keys typed into it, the screen read back. The wizard's end-to-end
// tests (ui) and the Windows build's under Wine (steps/winetest) use it. Tests only: the product
// never imports it.
package tmux

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Options say how the session starts.
type Options struct {
	Width, Height int      // the terminal; 80x24 when 0
	Dir           string   // the shell's working directory
	Env           []string // the shell's whole environment ("KEY=value"; nothing else is inherited)
	// Join reads the screen with wrapped lines joined into one and trailing spaces kept (capture-pane -J).
	Join bool
	Poll time.Duration // how often WaitFor reads the screen; 50 ms when 0
}

// Session is bash --norc --noprofile in a tmux session of its own server; the server is killed when
// the test ends.
type Session struct {
	t      testing.TB
	socket string
	join   bool
	poll   time.Duration
}

var serial atomic.Int64

// Need skips the test when tmux is not installed, or fails it under CI=true (CI must run it).
func Need(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true but tmux is not installed (.ci/run installs it)")
		}
		t.Skip("tmux is not installed (apt-get install tmux)")
	}
}

// Start starts the shell (see Need for a machine without tmux).
func Start(t testing.TB, o Options) *Session {
	t.Helper()
	Need(t)
	if o.Width == 0 || o.Height == 0 {
		o.Width, o.Height = 80, 24
	}
	s := &Session{t: t, socket: fmt.Sprintf("gpuwiz-test-%d-%d", os.Getpid(), serial.Add(1)), join: o.Join, poll: o.Poll}
	if s.poll == 0 {
		s.poll = 50 * time.Millisecond
	}
	// env -i: the tmux server would otherwise hand the shell this process's whole environment
	// (a PIP_FIND_LINKS set on the machine, for one).
	shell := []string{"env", "-i"}
	for _, kv := range o.Env {
		shell = append(shell, Quote(kv))
	}
	args := []string{"new-session", "-d", "-x", fmt.Sprint(o.Width), "-y", fmt.Sprint(o.Height), "-s", "w"}
	if o.Dir != "" {
		args = append(args, "-c", o.Dir)
	}
	s.tmux(append(args, strings.Join(append(shell, "bash", "--norc", "--noprofile"), " "))...)
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", s.socket, "kill-server").Run() })
	s.tmux("set-option", "-t", "w", "status", "off")
	return s
}

func (s *Session) tmux(args ...string) string {
	s.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", s.socket}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// Keys sends keys by tmux's names ("Enter", "Escape", "Down", "C-c") or as text.
func (s *Session) Keys(keys ...string) {
	s.t.Helper()
	s.tmux(append([]string{"send-keys", "-t", "w"}, keys...)...)
}

// Text types text literally (no key names).
func (s *Session) Text(text string) {
	s.t.Helper()
	s.tmux("send-keys", "-t", "w", "-l", text)
}

// Resize makes the terminal w columns by h lines, as a user dragging the window does.
func (s *Session) Resize(w, h int) {
	s.t.Helper()
	s.tmux("resize-window", "-t", "w", "-x", strconv.Itoa(w), "-y", strconv.Itoa(h))
}

// Screen is what the terminal shows now.
func (s *Session) Screen() string {
	s.t.Helper()
	if s.join {
		return s.tmux("capture-pane", "-p", "-J", "-t", "w")
	}
	return s.tmux("capture-pane", "-p", "-t", "w")
}

// WaitFor polls the screen until it shows text and returns it; it fails with the last screen after
// limit, or at once when the screen shows one of failures.
func (s *Session) WaitFor(text string, limit time.Duration, failures ...string) string {
	s.t.Helper()
	deadline := time.Now().Add(limit)
	for {
		scr := s.Screen()
		if strings.Contains(scr, text) {
			return scr
		}
		for _, f := range failures {
			if strings.Contains(scr, f) {
				s.t.Fatalf("waiting for %q the screen shows %q:\n%s", text, f, scr)
			}
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("waited %s for %q; the screen shows:\n%s", limit, text, scr)
		}
		time.Sleep(s.poll)
	}
}

// Quote is s as one word of a POSIX shell command line.
func Quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// QuoteAll quotes every word of a command line.
func QuoteAll(words []string) []string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = Quote(w)
	}
	return q
}
