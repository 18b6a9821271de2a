package install

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"gpuwiz/matrix"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
)

// DefaultLogPath is where a run's log goes when the user names none:
// os.UserCacheDir()/gpuwiz/logs/<what>-<time>.log.
func DefaultLogPath(what string) string {
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "gpuwiz", "logs", what+"-"+time.Now().Format("20060102-150405")+".log")
}

// OpenLog creates the log file at path (and its directory). When that fails the run still goes on:
// the writer discards and path comes back empty, so nobody is pointed at a file that is not there.
func OpenLog(path string) (w io.Writer, opened string, closeFn func()) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err == nil {
		if f, err := os.Create(path); err == nil {
			return f, path, func() { f.Close() }
		}
	}
	return io.Discard, "", func() {}
}

// Reinstall installs c into the existing venv through the same engine as install: plan against
// what the venv holds now, stage, back up, swap, verify, restore on failure. Output lines go to
// lines (dropped when the reader is slow; they stay in the log). It is doctor's ReinstallFunc.
func Reinstall(ctx context.Context, r runner.Runner, venv string, c matrix.Candidate, logPath string, lines chan<- runner.Line) error {
	v := pyenv.Venv{Root: venv}
	have, err := pyenv.Inspect(ctx, r, v.Python())
	if err != nil {
		return fmt.Errorf("cannot read what %s holds: %w", venv, err)
	}
	p, err := MakePlan(Options{Venv: v, Target: TargetOf(c), LogPath: logPath}, have)
	if err != nil {
		return err
	}
	ev := make(chan Event, 256)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for e := range ev {
			text := e.Line
			if text == "" && e.State == StateRunning && e.Message != "" {
				text = "gpuwiz: " + e.Message // the engine's own steps, so the order shows: download, back up, uninstall, install
			}
			if text == "" || lines == nil {
				continue
			}
			select {
			case lines <- runner.Line{Text: text}:
			default:
			}
		}
	}()
	o := Run(ctx, r, p, ev)
	close(ev)
	<-done
	if o.Result == ResultInstalled {
		return nil
	}
	msg := fmt.Sprintf("install %s", o.Result)
	if o.Restored || o.Result == ResultUnchanged {
		msg += " (the venv holds what it held before)"
	}
	if o.Err != nil {
		return fmt.Errorf("%s: %w", msg, o.Err)
	}
	return fmt.Errorf("%s", msg)
}
