package ui

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gpuwiz/steps/pyindex"
)

// The tmux tests build their wheels and serve them with steps/pyindex, the kit every package's
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

// serveIndex serves channel → wheel paths as PEP 503 simple indexes at URL/whl/<channel>/.
func serveIndex(t *testing.T, channels map[string][]string) string {
	t.Helper()
	return pyindex.Serve(t, channels).URL
}

// tmuxSession is the real binary running in a private tmux server at 80x24, inside a shell.
type tmuxSession struct {
	t      *testing.T
	socket string
	name   string
}

func needTmux(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("tmux is required in CI (.ci/run installs it)")
		}
		t.Skip("tmux is not installed: the end-to-end wizard tests need it (apt-get install tmux)")
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3: the end-to-end tests create real venvs")
	}
}

// buildBinary builds gpuwiz from the module root once per test binary.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "gpuwiz")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// startShell starts bash in a private tmux server with env, in dir.
func startShell(t *testing.T, dir string, env []string) *tmuxSession {
	t.Helper()
	s := &tmuxSession{t: t, socket: fmt.Sprintf("gpuwiz-e2e-%d-%d", os.Getpid(), time.Now().UnixNano()), name: "w"}
	// env -i: the tmux server would otherwise hand the shell this process's whole environment
	// (a PIP_FIND_LINKS set on the machine, for one).
	shell := []string{"env", "-i"}
	for _, kv := range env {
		shell = append(shell, shellQuote(kv))
	}
	args := []string{"new-session", "-d", "-x", "80", "-y", "24", "-s", s.name, "-c", dir,
		strings.Join(append(shell, "bash", "--norc", "--noprofile"), " ")}
	s.tmux(args...)
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", s.socket, "kill-server").Run() })
	s.tmux("set-option", "-t", s.name, "status", "off")
	s.send(`PS1='READY$ '`, "Enter")
	s.waitFor("READY$", 10*time.Second)
	return s
}

func (s *tmuxSession) tmux(args ...string) string {
	s.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", s.socket}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (s *tmuxSession) send(keys ...string) {
	s.t.Helper()
	s.tmux(append([]string{"send-keys", "-t", s.name}, keys...)...)
}

// sendText types text literally (no key names).
func (s *tmuxSession) sendText(text string) {
	s.t.Helper()
	s.tmux("send-keys", "-t", s.name, "-l", text)
}

func (s *tmuxSession) screen() string {
	s.t.Helper()
	return s.tmux("capture-pane", "-p", "-J", "-t", s.name)
}

// waitFor polls the screen until it shows text; it fails with the last screen after limit, or at
// once when the screen shows one of failures.
func (s *tmuxSession) waitFor(text string, limit time.Duration, failures ...string) string {
	s.t.Helper()
	deadline := time.Now().Add(limit)
	for {
		scr := s.screen()
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
		time.Sleep(50 * time.Millisecond)
	}
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

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
