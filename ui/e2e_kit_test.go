package ui

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"gpuwiz/steps/testkit/gobuild"
	"gpuwiz/steps/testkit/pyindex"
	"gpuwiz/steps/testkit/tmux"
)

// The tmux tests build their wheels and serve them with steps/testkit/pyindex, the kit every package's
// real-pip tests use.

// buildWheel writes dist-version-py3-none-any.whl with files and padBytes of stored random data.
func buildWheel(t *testing.T, dir, dist, version string, files map[string]string, padBytes int) string {
	t.Helper()
	p, err := pyindex.BuildWheel(dir, dist, version, files, nil, padBytes)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// tmuxSession is the real binary running in a private tmux server at 80x24, inside a shell
// (steps/testkit/tmux, the kit the Wine tests drive the Windows build with too).
type tmuxSession = tmux.Session

func needTmux(t *testing.T) {
	t.Helper()
	tmux.Need(t)
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3: the end-to-end tests create real venvs")
	}
}

// buildBinary builds gpuwiz from the module root (CGO_ENABLED=0, as a release is built).
func buildBinary(t *testing.T) string {
	t.Helper()
	return gobuild.Build(t, gobuild.Options{Env: []string{"CGO_ENABLED=0"}})
}

// startShell starts bash in a private tmux server with env, in dir.
func startShell(t *testing.T, dir string, env []string) *tmuxSession {
	t.Helper()
	s := tmux.Start(t, tmux.Options{Dir: dir, Env: env, Join: true})
	s.Keys(`PS1='READY$ '`, "Enter")
	s.WaitFor("READY$", 10*time.Second)
	return s
}

// pipEnv is the environment for pip run by the tests themselves: no user config, no PyPI.
func pipEnv(t *testing.T) []string { return pyindex.PipEnv(t) }

func run(t *testing.T, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
	return string(out)
}

// writeMatrix writes the test matrix with its index URLs on the loopback index.
func writeMatrix(t *testing.T, dir, indexURL string) string {
	t.Helper()
	tmpl, err := os.ReadFile(filepath.Join("testdata", "e2e", "matrix.toml.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "matrix.toml")
	if err := os.WriteFile(p, bytes.ReplaceAll(tmpl, []byte("@INDEX@"), []byte(indexURL)), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// waitExit waits for the shell's "EXIT=<code>" line after the wizard (the typed command line
// holds "EXIT=$?", which is no exit) and returns the code.
func waitExit(t *testing.T, s *tmuxSession, limit time.Duration) string {
	t.Helper()
	re := regexp.MustCompile(`(?m)^EXIT=([0-9]+)`)
	deadline := time.Now().Add(limit)
	for {
		if m := re.FindStringSubmatch(s.Screen()); m != nil {
			return m[1]
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for the wizard's exit; the screen shows:\n%s", limit, s.Screen())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// wholeScreen is every page of a screen that scrolls by itself: the screen as shown, then pgdn
// while its last line says more is below, each page once (a long path wraps, so a done screen at
// 80x24 can be taller than the terminal).
func wholeScreen(t *testing.T, s *tmuxSession) string {
	t.Helper()
	return wholeScreenUntil(s, "below: pgdn")
}

// wholeScreenUntil is wholeScreen for a screen whose "more below" line says more (in its language).
func wholeScreenUntil(s *tmuxSession, more string) string {
	scr := s.Screen()
	all := scr
	for range 10 {
		if !strings.Contains(scr, more) {
			break
		}
		s.Keys("NPage")
		deadline := time.Now().Add(10 * time.Second)
		next := s.Screen()
		for next == scr && time.Now().Before(deadline) {
			time.Sleep(100 * time.Millisecond)
			next = s.Screen()
		}
		scr = next
		all += "\n" + scr
	}
	return all
}
