package install

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"gpuwiz/matrix"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/netproxy"
	"gpuwiz/steps/pipcmd"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/urls"
	"gpuwiz/steps/verify"
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
	// Net is the run's proxy rules for the venv's Python (see Options.Net); nil: the engine's own.
	Net *netproxy.Resolver
	// Dists are put back from the same build's wheels besides the framework's own (a CUDA library
	// whose files are missing); see Options.ReinstallDists.
	Dists []string
	// Installed, when not nil, is called once the install step has written the new set into the
	// venv, before the verify step (doctor starts its check after the repair then).
	Installed func()
}

// reinstallOptions are the install options of a repair: the user's sources, else the ones the
// venv's lock recorded for this same build's channel, else the channel's official index.
func reinstallOptions(venv string, c matrix.Candidate, o ReinstallOptions) Options {
	lock := ReadLockSources(venv)
	opts := Options{Venv: pyenv.Venv{Root: venv}, Target: TargetOf(c), CacheDir: o.CacheDir, LogPath: o.LogPath,
		Environ: o.Environ, IndexURLOverride: o.IndexURL, Mirror: o.Mirror, FindLinks: o.FindLinks, LockHashes: lock.Hashes,
		ReinstallDists: o.Dists, Net: o.Net}
	sameChannel := lock.Framework == c.Framework && lock.Channel == c.Channel
	switch {
	case o.IndexURL != "" || o.FindLinks != "":
		opts.SourceWhy = i18n.T("install.source.repair_given")
	case sameChannel && lock.IndexURL != "" && urls.Valid(lock.IndexURL):
		opts.IndexURLOverride, opts.FindLinks = lock.IndexURL, lock.FindLinks
		opts.SourceWhy = i18n.T("install.source.lock")
	case urls.OnLoopback(c.IndexURL): // never "official" for an index on this computer
		opts.SourceWhy = i18n.T("install.source.loopback")
		if sameChannel || lock.Framework == "" {
			opts.SourceWhy = i18n.T("install.source.loopback_no_lock")
		}
	default:
		opts.SourceWhy = i18n.T("install.source.official")
		if sameChannel || lock.Framework == "" {
			opts.SourceWhy = i18n.T("install.source.official_no_lock")
		}
	}
	if opts.Mirror == "" && sameChannel && urls.Valid(lock.Mirror) {
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
		return i18n.T("install.source.describe_cache", i18n.D{"Why": s.Why})
	}
	if s.FindLinks != "" {
		return i18n.T("install.source.describe_links", i18n.D{"Links": urls.Redact(s.FindLinks), "Index": urls.Redact(s.IndexURL), "Why": s.Why})
	}
	return i18n.T("install.source.describe", i18n.D{"Index": urls.Redact(s.IndexURL), "Why": s.Why})
}

// Reinstall installs c into the existing venv through the same engine as install: plan against
// what the venv holds now, stage (from the cache when it holds the build: no network at all), back
// up, swap, verify, restore on failure. Output lines go to lines (dropped when the reader is slow;
// they stay in the log). It is doctor's ReinstallFunc: it returns the verify step's report.
func Reinstall(ctx context.Context, r runner.Runner, venv string, c matrix.Candidate, o ReinstallOptions, lines chan<- runner.Line) (*verify.Report, error) {
	v := pyenv.Venv{Root: venv}
	began := time.Now()
	have, err := pyenv.Inspect(ctx, r, v.Python())
	if err != nil {
		return nil, i18n.Wrap(err, i18n.T("install.err.cannot_read", i18n.D{"Venv": venv, "Err": err}))
	}
	if err := CheckTarget(v.Layout(), have, false); err != nil {
		return nil, err
	}
	opts := reinstallOptions(venv, c, o)
	// An environment without pip (a uv venv, an embedded Python): gpuwiz's own pip runs against it.
	cache := opts.CacheDir
	if cache == "" {
		cache = DefaultCacheDir()
	}
	if opts.pip, err = pipcmd.For(ctx, r, v.Python(), opts.environ(), UnpackedDir(cache)); err != nil {
		return nil, i18n.Wrap(err, i18n.T("install.err.cannot_read", i18n.D{"Venv": venv, "Err": err}))
	}
	if opts.pip.Own != "" {
		have.PipVersion = opts.pip.OwnVersion
	}
	p, err := MakePlan(opts, have)
	if err != nil {
		return nil, err
	}
	runner.Note(r, fmt.Sprintf("the reinstall's plan (what the venv holds, read again): %.3f s", time.Since(began).Seconds())) //i18n:raw the log, for support
	if lines != nil {
		select {
		case lines <- runner.Line{Text: i18n.T("install.repair.source", i18n.D{"Index": urls.Redact(p.Source.IndexURL), "Why": p.Source.Why})}:
		default:
		}
	}
	ev := make(chan Event, 256)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for e := range ev {
			if e.StepID == StepInstall && e.State == StateDone && o.Installed != nil {
				o.Installed()
			}
			text := e.Line
			if text == "" && e.State == StateRunning && e.Message != "" {
				text = i18n.Said(e.Message) // the engine's own steps, so the order shows: download, back up, uninstall, install
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
		return out.Verify, nil
	}
	if out.Result == ResultDamaged && len(out.Leftovers) > 0 {
		var left []string
		for _, l := range out.Leftovers {
			left = append(left, leftoverText(l))
		}
		return nil, i18n.Wrap(out.Err, i18n.T("install.repair.damaged_left", i18n.D{"Leftovers": i18n.JoinClauses(left), "Err": out.Err}))
	}
	msg := resultText(out)
	if out.Err != nil {
		return nil, i18n.Wrap(out.Err, i18n.T("install.repair.failed", i18n.D{"Result": msg, "Err": out.Err}))
	}
	return nil, errors.New(msg)
}

// resultText says how a failed repair's install ended, in words.
func resultText(out Outcome) string {
	kept := out.Restored || out.Result == ResultUnchanged
	switch {
	case out.Result == ResultUnchanged:
		return i18n.T("install.repair.unchanged")
	case out.Result == ResultRestored && kept:
		return i18n.T("install.repair.restored")
	case out.Result == ResultDamaged:
		return i18n.T("install.repair.damaged")
	case kept:
		return i18n.T("install.repair.other_kept", i18n.D{"Result": out.Result})
	}
	return i18n.T("install.repair.other", i18n.D{"Result": out.Result})
}

// leftoverText is one difference a failed restore left, with the command that clears it.
func leftoverText(l Leftover) string {
	switch l.What {
	case "extra":
		return i18n.T("install.leftover.extra", i18n.D{"Path": l.Path, "Clear": l.Clear})
	case "missing":
		return i18n.T("install.leftover.missing", i18n.D{"Path": l.Path, "Clear": l.Clear})
	case "changed":
		return i18n.T("install.leftover.changed", i18n.D{"Path": l.Path, "Clear": l.Clear})
	}
	return i18n.T("install.leftover.other", i18n.D{"What": l.What, "Path": l.Path, "Clear": l.Clear})
}
