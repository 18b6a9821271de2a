package winetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"gpuwiz/steps/testkit/gobuild"
	"gpuwiz/steps/testkit/wineprefix"
)

// wine is one process's Windows machine: gpuwiz.exe built once, a private prefix copied once.
type wineMachine struct {
	root   string // the repository
	dir    string // scratch: binaries and the prefix
	exe    string // gpuwiz.exe (a Unix path; Wine runs it as Z:\...)
	py     string // the stand-in, built for Windows (testdata/pystandin)
	prefix string
	env    []string
}

var (
	machineOnce sync.Once
	machine     *wineMachine
	machineErr  error
	skipReason  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if machine != nil {
		machine.shutDown()
	}
	os.Exit(code)
}

// windows returns the shared Wine machine, setting it up on first use. Without Wine the test
// skips, or fails when CI=true (CI must prove the Windows build).
func windows(t *testing.T) *wineMachine {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the Wine tests run the Windows build for real (~1 min)")
	}
	machineOnce.Do(func() { machine, machineErr = setUp() })
	if skipReason != "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but %s", skipReason)
		}
		t.Skip(skipReason)
	}
	if machineErr != nil {
		t.Fatalf("setting up Wine: %v", machineErr)
	}
	return machine
}

func setUp() (*wineMachine, error) {
	if why := wineprefix.Missing(); why != "" {
		skipReason = why
		return nil, nil
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "gpuwiz-winetest-")
	if err != nil {
		return nil, err
	}
	w := &wineMachine{root: root, dir: dir, exe: filepath.Join(dir, "gpuwiz.exe"), py: filepath.Join(dir, "pystandin.exe"), prefix: filepath.Join(dir, "prefix")}
	for _, b := range [][2]string{{w.exe, "."}, {w.py, "./testdata/pystandin"}} {
		if err := gobuild.BuildErr(gobuild.Options{Package: b[1], Out: b[0], Env: windowsBuild}); err != nil {
			return w, err
		}
	}
	w.env = []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "USER=" + os.Getenv("USER"), "LANG=C.UTF-8",
		"WINEPREFIX=" + w.prefix, "WINEDEBUG=-all", "WINEDLLOVERRIDES=winemenubuilder.exe=d",
	}
	if err := w.makePrefix(); err != nil {
		return w, err
	}
	// One server for the whole run (each wine call then starts in ~0.3 s); it exits 60 s after the last client.
	// Its output goes to /dev/null: the daemon would hold a pipe open past Run.
	if err := w.command(context.Background(), nil, "wineserver", "-p60").Run(); err != nil {
		return w, fmt.Errorf("wineserver -p60: %v", err)
	}
	// The first Windows process starts Wine's services (services.exe, winedevice, explorer), which
	// inherit its stdio: start them here on /dev/null so no test's pipes are held open by them.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := w.command(ctx, nil, "wine", "cmd", "/c", "exit").Run(); err != nil {
		return w, fmt.Errorf("wine cmd /c exit: %v", err)
	}
	return w, nil
}

// windowsBuild is how gpuwiz.exe and the test programs are built: as a release is, without cgo.
var windowsBuild = []string{"GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0"}

// makePrefix copies the user's prefix when there is one (~5 s; a fresh wineboot -i takes ~16 s) so
// that tests never touch it, or boots a fresh one, and installs the ProcessPrng shim Go needs, built
// from testdata/wine (wineprefix.Prepare).
func (w *wineMachine) makePrefix() error {
	src := os.Getenv("WINEPREFIX")
	if src == "" {
		src = filepath.Join(os.Getenv("HOME"), ".wine")
	}
	if _, err := os.Stat(wineprefix.System32(src)); err == nil {
		if out, err := exec.Command("cp", "-a", src, w.prefix).CombinedOutput(); err != nil {
			return fmt.Errorf("copying the Wine prefix %s: %v: %s", src, err, out)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	if err := wineprefix.Prepare(ctx, w.root, w.prefix, w.env); err != nil {
		return err
	}
	// The copy may carry the user's experiments: start from no driver and no registered Python.
	os.Remove(filepath.Join(wineprefix.System32(w.prefix), "nvml.dll"))
	return nil
}

func (w *wineMachine) shutDown() {
	_ = w.command(context.Background(), nil, "wineserver", "-k").Run()
	_ = os.RemoveAll(w.dir)
}

// command is name args... with the machine's environment plus extra ("KEY=value").
func (w *wineMachine) command(ctx context.Context, extra []string, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = append(append([]string{}, w.env...), extra...)
	cmd.Dir = w.dir
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// result is one finished Windows process.
type result struct {
	stdout, stderr string
	code           int
}

// gpuwiz runs gpuwiz.exe args under Wine and returns what it printed and its exit code.
func (w *wineMachine) gpuwiz(t *testing.T, extra []string, args ...string) result {
	t.Helper()
	return w.wine(t, extra, append([]string{w.exe}, args...)...)
}

// wine runs one Windows program. Wine itself sometimes fails to start a process when other Wine
// prefixes are busy on the same machine (seen in CI: exit 1 after 30 ms with nothing printed, where
// a Go program under Wine needs ~300 ms just to start): such a start-up failure is tried again,
// twice at most, and logged. A program that ran and failed prints something, and is not retried.
func (w *wineMachine) wine(t *testing.T, extra []string, args ...string) result {
	t.Helper()
	return w.wineIn(t, w.dir, extra, args...)
}

// gpuwizIn runs gpuwiz.exe in dir (a Unix path; under the prefix's drive_c it is a folder of C:),
// as a user does who starts it from a folder of theirs.
func (w *wineMachine) gpuwizIn(t *testing.T, dir string, extra []string, args ...string) result {
	t.Helper()
	return w.wineIn(t, dir, extra, append([]string{w.exe}, args...)...)
}

func (w *wineMachine) wineIn(t *testing.T, dir string, extra []string, args ...string) result {
	t.Helper()
	for attempt := 1; ; attempt++ {
		start := time.Now()
		r := w.wineOnceIn(t, dir, extra, args...)
		if r.code == 0 || r.stdout != "" || r.stderr != "" || time.Since(start) > 150*time.Millisecond || attempt == 3 {
			return r
		}
		t.Logf("wine %s: exit %d after %v with no output (Wine did not start it); trying again", strings.Join(args, " "), r.code, time.Since(start).Round(time.Millisecond))
	}
}

func (w *wineMachine) wineOnceIn(t *testing.T, dir string, extra []string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	var out, errb bytes.Buffer
	cmd := w.command(ctx, extra, "wine", args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errb.String()}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
	case err != nil:
		t.Fatalf("wine %s: %v\n%s", strings.Join(args, " "), err, errb.String())
	}
	if ctx.Err() != nil {
		t.Fatalf("wine %s did not finish in 90 s\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.stdout, r.stderr)
	}
	return r
}

// reg runs Wine's reg.exe (add, delete, query) against the prefix's real registry.
func (w *wineMachine) reg(t *testing.T, args ...string) result {
	t.Helper()
	return w.wine(t, nil, append([]string{"reg"}, args...)...)
}

func (w *wineMachine) regAdd(t *testing.T, key, name, typ, data string) {
	t.Helper()
	args := []string{"add", key, "/f"}
	if name == "" {
		args = append(args, "/ve")
	} else {
		args = append(args, "/v", name)
	}
	args = append(args, "/t", typ, "/d", data)
	if r := w.reg(t, args...); r.code != 0 {
		t.Fatalf("reg %s: exit %d: %s%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
	}
}

// regDelete removes a key (name "") or one value; a missing one is fine.
func (w *wineMachine) regDelete(t *testing.T, key, name string) {
	t.Helper()
	args := []string{"delete", key, "/f"}
	if name != "" {
		args = append(args, "/v", name)
	}
	w.reg(t, args...)
}

// driveC is the Unix path of C:\rel in the prefix.
func (w *wineMachine) driveC(rel string) string {
	return filepath.Join(w.prefix, "drive_c", filepath.FromSlash(strings.ReplaceAll(rel, `\`, "/")))
}

// installStandin puts the stand-in at C:\rel (e.g. `Python312\python.exe`) with its pystandin.json.
func (w *wineMachine) installStandin(t *testing.T, rel, config string) {
	t.Helper()
	dst := w.driveC(rel)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(w.py)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(dst), "pystandin.json"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
}
