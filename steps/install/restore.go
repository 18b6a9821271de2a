package install

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pep"
)

// freezeSet reads `pip freeze --all`: normalised name → the line.
func freezeSet(out []byte) map[string]string {
	m := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name := line
		for _, sep := range []string{"==", " @ ", "@"} {
			if i := strings.Index(line, sep); i > 0 {
				name = line[:i]
				break
			}
		}
		m[pep.Normalize(strings.TrimSpace(name))] = line
	}
	return m
}

// freezeDiff describes how two freezes differ ("" when equal).
func freezeDiff(want, got map[string]string) string {
	var d []string
	for n, l := range want {
		if got[n] != l {
			d = append(d, i18n.T("install.diff.changed", i18n.D{"Dist": n, "Want": strconv.Quote(l), "Have": strconv.Quote(got[n])}))
		}
	}
	for n, l := range got {
		if _, ok := want[n]; !ok {
			d = append(d, i18n.T("install.diff.extra", i18n.D{"Dist": n, "Line": strconv.Quote(l)}))
		}
	}
	slices.Sort(d)
	return i18n.JoinClauses(d)
}

// restore puts the snapshot's set back offline: it uninstalls whatever the failed run added or
// changed, deletes what a killed or failed pip half-wrote (dist-info folders without a RECORD, the
// files of wheels it was writing), puts the backed-up files back, returns the leftovers moved aside,
// and removes every top-level entry of site-packages and the scripts folder that the snapshot did
// not have. Then it compares: pip freeze must equal the snapshot's, and so must the folders' entries,
// every RECORD and every file a RECORD lists. What still differs is returned as leftovers.
func (e *engine) restore(ctx context.Context) ([]Leftover, error) {
	if e.manifest == nil {
		return nil, errors.New(i18n.T("install.err.no_backup"))
	}
	want := freezeSet(e.snapshot)
	now, err := e.freezeAll(ctx, "restore: pip freeze", e.freezeArgv()) //i18n:raw the step's label in the log
	if err != nil {
		return nil, err
	}
	backedUp := map[string]bool{}
	for _, d := range e.manifest.Dists {
		backedUp[pep.Normalize(d.Name)] = true
	}
	var remove []string
	for n, line := range freezeSet(now) {
		if want[n] != line || backedUp[n] {
			remove = append(remove, n)
		}
	}
	slices.Sort(remove)
	if len(remove) > 0 {
		// A dist a failed pip left without its RECORD refuses to uninstall: its files are removed
		// below from the staged wheel's file list either way.
		_, _ = e.capture(ctx, "restore: uninstall", pipArgv(e.plan.pip, PipArgs{Sub: "uninstall", Dists: remove}))
	}
	e.removeHalfInstalled(remove, backedUp, want)
	roots := e.prefixRoots()
	for _, d := range e.manifest.Dists {
		for _, f := range d.Files {
			if !roots.Inside(f[0]) {
				continue // readManifest drops these; a manifest set by hand is checked again
			}
			if err := linkOrCopy(filepath.Join(e.backupDir, "files", f[1]), f[0]); err != nil {
				return nil, i18n.Wrap(err, i18n.T("install.err.put_back", i18n.D{"Path": f[0], "Err": err}))
			}
		}
	}
	for i := len(e.manifest.Moved) - 1; i >= 0; i-- {
		m := e.manifest.Moved[i]
		if !roots.Removable(m[0]) {
			continue
		}
		_ = os.RemoveAll(m[0])
		if err := os.Rename(m[1], m[0]); err != nil {
			return nil, i18n.Wrap(err, i18n.T("install.err.move_back", i18n.D{"Path": m[0], "Err": err}))
		}
	}
	e.removeNewTildeDirs()
	if e.site != nil {
		if cur, err := readSiteState(e.stateDirs()); err == nil {
			for _, p := range e.site.extraEntries(cur) {
				if roots.Removable(p) || roots.Inside(p) {
					_ = os.RemoveAll(p)
				}
			}
		}
	}
	after, err := e.freezeAll(ctx, "restore: pip freeze", e.freezeArgv()) //i18n:raw the step's label in the log
	if err != nil {
		return nil, err
	}
	var left []Leftover
	if e.site != nil {
		cur, err := readSiteState(e.stateDirs())
		if err != nil {
			return nil, err
		}
		left = e.site.compare(cur, hostGOOS(), e.py)
	}
	if d := freezeDiff(want, freezeSet(after)); d != "" && len(left) == 0 {
		return nil, errors.New(i18n.T("install.err.differs", i18n.D{"Diff": d}))
	}
	return left, nil
}

func (e *engine) freezeArgv() []string {
	return pipArgv(e.plan.pip, PipArgs{Sub: "freeze", All: true})
}

// removeHalfInstalled deletes, for every dist the restore touches, the files its staged wheels
// would have written: a pip killed mid-install leaves them without a RECORD to uninstall by.
func (e *engine) removeHalfInstalled(removed []string, backedUp map[string]bool, before map[string]string) {
	staged, _ := stagedWheels(e.plan.StageDir)
	touch := map[string]bool{}
	for _, n := range removed {
		touch[n] = true
	}
	for n := range backedUp {
		touch[n] = true
	}
	for _, pin := range e.pins {
		n, _, _ := strings.Cut(pin, "==")
		touch[pep.Normalize(n)] = true
	}
	for _, w := range staged {
		if before[w.name] == "" {
			touch[w.name] = true // a dist the venv did not have: whatever pip wrote of it goes
		}
	}
	site := e.manifest.Purelib
	roots := e.prefixRoots()
	dirs := map[string]bool{}
	for _, w := range staged {
		if !touch[w.name] {
			continue
		}
		paths, err := wheelPaths(w.file)
		if err != nil {
			continue
		}
		for _, p := range paths {
			abs, inside := roots.Join(site, p)
			if !inside {
				continue // a wheel's member named outside the venv: nothing of it was written there
			}
			if e.site != nil && e.site.owned[filepath.Clean(abs)] && !e.backedUpFile(abs) {
				continue // another dist that stays owns it too (nvidia/__init__.py of every nvidia-* wheel)
			}
			if os.Remove(abs) == nil {
				dirs[filepath.Dir(abs)] = true
			}
			if strings.HasSuffix(p, ".py") {
				// the .pyc pip compiled beside it
				pyc, _ := filepath.Glob(filepath.Join(filepath.Dir(abs), "__pycache__", strings.TrimSuffix(filepath.Base(p), ".py")+".*.pyc"))
				for _, c := range pyc {
					_ = os.Remove(c)
				}
			}
		}
	}
	for d := range dirs {
		for ; d != site && strings.HasPrefix(d, site); d = filepath.Dir(d) {
			_ = os.Remove(filepath.Join(d, "__pycache__"))
			if os.Remove(d) != nil {
				break
			}
		}
	}
}

// removeNewTildeDirs deletes ~* stash dirs a killed pip left that were not there before.
func (e *engine) removeNewTildeDirs() {
	for _, site := range []string{e.manifest.Purelib, e.manifest.Platlib} {
		entries, _ := os.ReadDir(site)
		for _, en := range entries {
			p := filepath.Join(site, en.Name())
			if strings.HasPrefix(en.Name(), "~") && !slices.Contains(e.plan.leftovers, p) && e.prefixRoots().Removable(p) {
				_ = os.RemoveAll(p)
			}
		}
	}
}

// moveLeftovers moves the ~* dirs of interrupted uninstalls, and for Paddle a paddle/ dir that no
// dist owns any more, into the backup (so a restore can put them back).
func (e *engine) moveLeftovers() error {
	var targets []string
	targets = append(targets, e.plan.leftovers...)
	if e.plan.Target.Framework == "paddle" && e.manifest != nil {
		p := filepath.Join(e.manifest.Purelib, "paddle")
		if _, err := os.Stat(p); err == nil {
			targets = append(targets, p)
		}
	}
	if len(targets) == 0 {
		return skipped(i18n.T("install.skip.no_leftovers"))
	}
	dir := filepath.Join(e.backupDir, "moved")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	roots := e.prefixRoots()
	for i, t := range targets {
		if _, err := os.Lstat(t); err != nil || !roots.Removable(t) {
			continue // a journal is a file on disk: a folder it names outside the venv stays
		}
		dst := filepath.Join(dir, fmt.Sprint(i))
		if err := os.Rename(t, dst); err != nil {
			return i18n.Wrap(err, i18n.T("install.err.move_aside", i18n.D{"Path": t, "Err": err}))
		}
		e.manifest.Moved = append(e.manifest.Moved, [2]string{t, dst})
		e.emit(Event{StepID: StepLeftovers, Message: i18n.T("install.event.moved_aside", i18n.D{"Path": t})})
	}
	return e.writeManifest()
}

// backedUpFile reports whether the backup holds path, so the restore puts it back anyway.
func (e *engine) backedUpFile(path string) bool {
	if e.backedUp == nil {
		e.backedUp = map[string]bool{}
		for _, d := range e.manifest.Dists {
			for _, f := range d.Files {
				e.backedUp[filepath.Clean(f[0])] = true
			}
		}
	}
	return e.backedUp[filepath.Clean(path)]
}
