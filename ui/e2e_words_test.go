package ui

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The real binary in tmux for what people type and paste (paths) and for commands shown to copy.

// toVenvScreen walks welcome → GPU → framework → channel → the new venv's screen.
func toVenvScreen(s *tmuxSession) {
	s.WaitFor("Set up a new environment", 15*time.Second)
	s.Keys("Enter")
	s.WaitFor("Press enter to choose a framework", 30*time.Second)
	s.Keys("Enter")
	s.WaitFor("in the matrix", 30*time.Second)
	s.Keys("Enter")
	s.WaitFor("cu118", 30*time.Second)
	s.Keys("Enter")
	s.WaitFor("a new venv will be created", 40*time.Second)
}

// Items 1-3 of the walk-through: a typed path survives esc and enter; ~ is the home folder (no
// directory named ~ in the working directory); the activation line and the constraints file's
// header paste and run as they are, with a space and Chinese in the path.
func TestE2ETypedPathIsKeptReadAndQuotedInTmux(t *testing.T) {
	r := newE2ERig(t, 0)
	home := filepath.Join(r.dir, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	r.env = append(r.env, "HOME="+home)
	s := r.start(t)
	toVenvScreen(s)
	for range len("venv-torch") {
		s.Keys("BSpace")
	}
	typed := "~/nc 测试/环境 一"
	s.Text(typed)
	want := filepath.Join(home, "nc 测试", "环境 一")
	s.WaitFor("means "+home+"/nc", 15*time.Second) // the rest wraps at 80 columns
	s.WaitFor("a new venv will be created", 15*time.Second)
	s.Keys("Escape")
	s.WaitFor("★ cu126", 15*time.Second)
	s.Keys("Enter")
	scr := s.WaitFor("a new venv will be created", 30*time.Second)
	if !strings.Contains(scr, "venv path: "+typed) {
		t.Fatalf("after esc and enter the typed path is gone:\n%s", scr)
	}
	s.Keys("Enter")
	s.WaitFor("your URL:", 30*time.Second, "Cannot check the package sources")
	s.Keys("Enter")
	s.WaitFor("Run this plan?", 60*time.Second, "Cannot make a plan")
	s.Keys("y")
	s.WaitFor("Press enter to verify", 180*time.Second, "Install failed", "Cancelled")
	scr = finishVerifiedInstall(s)
	if _, err := os.Stat(filepath.Join(want, "pyvenv.cfg")); err != nil {
		t.Fatalf("no venv at %s: %v", want, err)
	}
	if _, err := os.Stat(filepath.Join(r.dir, "~")); err == nil {
		t.Fatal("a directory named ~ was made in the working directory")
	}
	// The summary's activation line, pasted as is into the shell, enters the venv.
	act := regexp.MustCompile(`(?m)^\s*sh:\s+(source .*)$`).FindStringSubmatch(scr)
	if act == nil {
		t.Fatalf("the summary has no sh: line:\n%s", scr)
	}
	s.Text(strings.TrimSpace(act[1]) + ` && echo "VENV=[$VIRTUAL_ENV]"`)
	s.Keys("Enter")
	s.WaitFor("VENV=["+want+"]", 15*time.Second)
	// The constraints file's header command, pasted as is, hands pip the file as one argument.
	cons, err := os.ReadFile(filepath.Join(want, "constraints.txt"))
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`(?m)^#\s+(pip install .*)$`).FindStringSubmatch(string(cons))
	if line == nil {
		t.Fatalf("no pip line in the header:\n%s", cons)
	}
	s.Text("clear; " + strings.Replace(line[1], "pip install", `printf '[%s]\n'`, 1))
	s.Keys("Enter")
	s.WaitFor("["+filepath.Join(want, "constraints.txt")+"]", 15*time.Second)
}

// Items 4 and 11: at 60x16 a screen taller than the window says so and scrolls with pgdn; a build
// installed a second time comes from the wheel cache, and its download step says that instead of
// a ✓ on "download ... from http://127.0.0.1...".
func TestE2EMoreLinesAndCacheHitInTmux(t *testing.T) {
	r := newE2ERig(t, 0)
	s := r.start(t)
	s.Keys("Enter")
	s.WaitFor("Press enter to choose a framework", 30*time.Second)
	s.Keys("Enter")
	s.WaitFor("in the matrix", 30*time.Second)
	s.Keys("Enter")
	s.WaitFor("★ cu126", 30*time.Second)
	s.Keys("Enter")
	s.WaitFor("a new venv will be created", 40*time.Second)
	for range len("venv-torch") {
		s.Keys("BSpace")
	}
	s.Text(filepath.Join(r.dir, "one"))
	s.WaitFor("a new venv will be created", 15*time.Second)
	s.Keys("Enter")
	s.WaitFor("your URL:", 30*time.Second, "Cannot check the package sources")
	s.Keys("Enter")
	s.WaitFor("Run this plan?", 60*time.Second, "Cannot make a plan")
	s.Resize(60, 16)
	scr := s.WaitFor("more lines below: pgdn", 15*time.Second) // the plan scrolls by itself: its own "more" line
	if !strings.Contains(scr, "pgdn") {
		t.Fatalf("no pgdn in the help bar:\n%s", scr)
	}
	s.Keys("PgDn", "PgDn", "PgDn", "PgDn", "PgDn", "PgDn")
	deadline := time.Now().Add(15 * time.Second)
	for strings.Contains(s.Screen(), "more lines below") { // at the end the "more" line goes
		if time.Now().After(deadline) {
			t.Fatalf("pgdn did not reach the end of the plan:\n%s", s.Screen())
		}
		s.Keys("PgDn")
		time.Sleep(200 * time.Millisecond)
	}
	s.Resize(80, 24)
	s.Keys("y")
	s.WaitFor("Press enter to verify", 180*time.Second, "Install failed", "Cancelled")
	finishVerifiedInstall(s)
	// The same build into a second venv: every wheel is in the cache now.
	s.Text("clear; " + r.bin + " --simulate " + r.rig + " --matrix " + r.matrix + " --sources " + r.sources + "; echo EXIT2=$?")
	s.Keys("Enter")
	toVenvScreen(s)
	for range len("venv-torch") {
		s.Keys("BSpace")
	}
	s.Text(filepath.Join(r.dir, "two"))
	s.WaitFor("a new venv will be created", 15*time.Second)
	s.Keys("Enter")
	s.WaitFor("your URL:", 30*time.Second, "Cannot check the package sources")
	s.Keys("Enter")
	s.WaitFor("Run this plan?", 60*time.Second, "Cannot make a plan")
	s.Keys("y")
	scr = s.WaitFor("Press enter to verify", 180*time.Second, "Install failed", "Cancelled")
	if !strings.Contains(scr, "taken from the wheel cache") || regexp.MustCompile(`✓\s+download torch`).MatchString(scr) {
		t.Fatalf("the cached build's download step:\n%s", scr)
	}
	if strings.Contains(scr, "ERROR") {
		t.Fatalf("pip's ERROR on screen:\n%s", scr)
	}
}
