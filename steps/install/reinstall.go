package install

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
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

// ReinstallOptions say where a repair's reinstall may take its wheels from. Sources given here win
// over what the venv's lock recorded; the wheel cache is always tried first.
type ReinstallOptions struct {
	IndexURL  string // an index for the whole family instead of the channel's (a mirror of it)
	Mirror    string // Paddle's dependencies (and pip's own upgrade)
	FindLinks string // a flat page of the framework's wheels
	CacheDir  string
	LogPath   string
	Environ   []string // the environment pip would see (nil: os.Environ())
}

// reinstallOptions are the install options of a repair: the user's sources, else the ones the
// venv's lock recorded for this same build's channel, else the channel's official index.
func reinstallOptions(venv string, c matrix.Candidate, o ReinstallOptions) Options {
	lock := ReadLockSources(venv)
	opts := Options{Venv: pyenv.Venv{Root: venv}, Target: TargetOf(c), CacheDir: o.CacheDir, LogPath: o.LogPath,
		Environ: o.Environ, IndexURLOverride: o.IndexURL, Mirror: o.Mirror, FindLinks: o.FindLinks, LockHashes: lock.Hashes}
	sameChannel := lock.Framework == c.Framework && lock.Channel == c.Channel
	switch {
	case o.IndexURL != "" || o.FindLinks != "":
		opts.SourceWhy = "the index given for this repair"
	case sameChannel && lock.IndexURL != "" && CheckIndexURL(lock.IndexURL) == nil:
		opts.IndexURLOverride, opts.FindLinks = lock.IndexURL, lock.FindLinks
		opts.SourceWhy = "the source recorded in the venv's requirements.lock when this build was installed"
	default:
		opts.SourceWhy = "the channel's official index"
		if sameChannel || lock.Framework == "" {
			opts.SourceWhy += " (the venv's lock records no other source)"
		}
	}
	if opts.Mirror == "" && sameChannel && CheckIndexURL(lock.Mirror) == nil {
		opts.Mirror = lock.Mirror
	}
	return opts
}

// RepairSource says, before anything runs, where a reinstall of c into venv takes its wheels from
// and why: the wheel cache when it holds the whole build, else the chosen index.
func RepairSource(venv string, c matrix.Candidate, o ReinstallOptions) (Source, error) {
	opts := reinstallOptions(venv, c, o)
	p, err := MakePlan(opts, pyenv.Installed{Python: pyenv.Interpreter{Path: opts.Venv.Python()}})
	if err != nil {
		return Source{}, err
	}
	return p.Source, nil
}

// Describe is the source in one line for a plan: "the wheel cache (…)" or "URL (why)".
func (s Source) Describe() string {
	if s.Kind == "cache" {
		return "the wheel cache: " + s.Why
	}
	where := runner.Redact(s.IndexURL)
	if s.FindLinks != "" {
		where = runner.Redact(s.FindLinks) + " (dependencies from " + where + ")"
	}
	return where + ": " + s.Why
}

// Reinstall installs c into the existing venv through the same engine as install: plan against
// what the venv holds now, stage (from the cache when it holds the build: no network at all), back
// up, swap, verify, restore on failure. Output lines go to lines (dropped when the reader is slow;
// they stay in the log). It is doctor's ReinstallFunc.
func Reinstall(ctx context.Context, r runner.Runner, venv string, c matrix.Candidate, o ReinstallOptions, lines chan<- runner.Line) error {
	v := pyenv.Venv{Root: venv}
	have, err := pyenv.Inspect(ctx, r, v.Python())
	if err != nil {
		return fmt.Errorf("cannot read what %s holds: %w", venv, err)
	}
	p, err := MakePlan(reinstallOptions(venv, c, o), have)
	if err != nil {
		return err
	}
	if lines != nil {
		select {
		case lines <- runner.Line{Text: "gpuwiz: wheels from " + runner.Redact(p.Source.IndexURL) + ": " + p.Source.Why}:
		default:
		}
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
	out := Run(ctx, r, p, ev)
	close(ev)
	<-done
	if out.Result == ResultInstalled {
		return nil
	}
	if out.Result == ResultDamaged && len(out.Leftovers) > 0 {
		var left []string
		for _, l := range out.Leftovers {
			left = append(left, l.What+" "+l.Path+" (clear it with: "+l.Clear+")")
		}
		return fmt.Errorf("install damaged: the venv still differs from before: %s: %w", strings.Join(left, "; "), out.Err)
	}
	msg := fmt.Sprintf("install %s", out.Result)
	if out.Restored || out.Result == ResultUnchanged {
		msg += " (the venv holds what it held before)"
	}
	if out.Err != nil {
		return fmt.Errorf("%s: %w", msg, out.Err)
	}
	return fmt.Errorf("%s", msg)
}
