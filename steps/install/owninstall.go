package install

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"gpuwiz/steps/envroot"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pep"
	"gpuwiz/steps/wheelinst"
)

// InstallerEnv names the environment variable that picks the installer: "pip" has pip install the
// staged wheels, as before gpuwiz had its own installer; anything else lets gpuwiz install them.
const InstallerEnv = "GPUWIZ_INSTALLER"

// pipAskedFor says whether GPUWIZ_INSTALLER=pip asks for pip to install and uninstall everything.
func pipAskedFor() bool { return strings.EqualFold(os.Getenv(InstallerEnv), "pip") }

// UnpackedDir is the cache of unpacked wheels beside the wheel cache: a wheel installed once is
// installed again by hard links (see steps/wheelinst).
func UnpackedDir(cache string) string { return filepath.Join(cache, "unpacked") }

// noteStagedWheel keeps the wheel a stage step's pip line names: "Saved /cache/…/x.whl" or "File was
// already downloaded /cache/…/x.whl" (pip download, online or from the cache).
func (e *engine) noteStagedWheel(line string) {
	line = strings.TrimSpace(line)
	var p string
	for _, pre := range []string{"File was already downloaded ", "Saved "} { //i18n:raw pip's own output, matched
		if rest, ok := strings.CutPrefix(line, pre); ok {
			p = strings.TrimSpace(rest)
		}
	}
	if !strings.HasSuffix(p, ".whl") {
		return
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(e.plan.StageDir, p)
	}
	e.noteStaged(p)
}

func (e *engine) noteStaged(path string) {
	if e.stagedFiles == nil {
		e.stagedFiles = map[string]bool{}
	}
	e.stagedFiles[filepath.Clean(path)] = true
}

// stagedSet is the install set from what the stage steps chose, without asking pip again: every
// staged wheel whose dist is not installed at that version. ok is false when that is not certain
// (nothing recorded, two versions of one dist, a wheel not in the stage folder, a dist installed at
// another version that pip might have kept): pip's dry run decides then.
func (e *engine) stagedSet(installed map[string]string, requested map[string]bool) (wheels []wheelinst.Wheel, names []string, ok bool) {
	if len(e.stagedFiles) == 0 {
		return nil, nil, false
	}
	hashes := readWheelRecord(e.plan.StageDir).Wheels
	seen := map[string]string{}
	var files []string
	for f := range e.stagedFiles {
		files = append(files, f)
	}
	slices.Sort(files)
	for _, f := range files {
		w, err := pep.ParseWheel(filepath.Base(f))
		if err != nil || filepath.Dir(f) != filepath.Clean(e.plan.StageDir) {
			return nil, nil, false
		}
		if _, err := os.Stat(f); err != nil {
			return nil, nil, false
		}
		n := w.Name
		if v, dup := seen[n]; dup && v != w.Version {
			return nil, nil, false
		}
		seen[n] = w.Version
		if have, ok := installed[n]; ok {
			if have == w.Version {
				continue // satisfied, as pip leaves it
			}
			return nil, nil, false
		}
		wheels = append(wheels, wheelinst.Wheel{Path: f, SHA256: hashes[filepath.Base(f)].SHA256, Requested: requested[n]})
		names = append(names, n)
	}
	return wheels, names, len(wheels) > 0
}

// schemeQuery is the venv's Python started in the background (wheelinst.Helper): it answers where
// pip installs, then keeps pip's launcher maker imported until the install step asks for launchers.
type schemeQuery struct {
	done   chan struct{}
	helper *wheelinst.Helper
	scheme wheelinst.Scheme
	err    error
}

// askScheme starts the venv's Python, once, at the run's start or else while the wheels download:
// its answer (where pip installs) does not change before the install step (pip was upgraded, if at
// all, before the stage), and its start and pip's import are then off the install step's path.
func (e *engine) askScheme(ctx context.Context) {
	if e.scheme != nil || pipAskedFor() {
		return
	}
	q := &schemeQuery{done: make(chan struct{})}
	e.scheme = q
	go func() {
		defer close(q.done)
		// The install's own environment: PIP_* settings move pip's paths.
		q.helper, q.err = wheelinst.StartHelper(ctx, e.py, e.plan.env)
		if q.err == nil {
			q.scheme = q.helper.Scheme()
		}
	}()
}

// adoptScheme takes h, the new venv's Python the venv step left running, as askScheme's answer.
func (e *engine) adoptScheme(h *wheelinst.Helper) {
	if e.scheme != nil || pipAskedFor() {
		h.Close()
		return
	}
	q := &schemeQuery{done: make(chan struct{}), helper: h, scheme: h.Scheme()}
	close(q.done)
	e.scheme = q
	e.note("the venv's Python that linked pip in stays running for the install step: where pip installs, the launchers") //i18n:raw the log, for support
}

// endScheme ends askScheme's Python, if one runs: its work is done or no longer wanted, and it
// must not hold the venv's files while they are put back or removed (Windows).
func (e *engine) endScheme() {
	if q := e.scheme; q != nil {
		<-q.done
		if q.helper != nil {
			q.helper.Close()
		}
	}
}

// launchers is the running Python's Launchers when askScheme's answered, else nil (the installer
// then starts one).
func (e *engine) launchers() func(context.Context, []byte) ([]byte, error) {
	q := e.scheme
	if q == nil || q.helper == nil {
		return nil
	}
	return func(ctx context.Context, jobs []byte) ([]byte, error) {
		out, err := q.helper.Launchers(ctx, jobs)
		if err == nil {
			e.note("python serve: " + strings.TrimSpace(string(out))) //i18n:raw the Python's answer, in the log
		}
		return out, err
	}
}

// schemeOf is the answer askScheme got, else the venv's pip asked now (through py, logged).
func (e *engine) schemeOf(ctx context.Context, py wheelinst.Python) (wheelinst.Scheme, error) {
	if q := e.scheme; q != nil {
		select {
		case <-q.done:
			if q.err == nil {
				return q.scheme, nil
			}
		case <-ctx.Done():
			return wheelinst.Scheme{}, ctx.Err()
		}
	}
	return wheelinst.SchemeOf(ctx, py)
}

// python runs the venv's Python for the installer, its command logged under the script's name.
func (e *engine) python() wheelinst.Python {
	return func(ctx context.Context, args ...string) ([]byte, error) {
		return e.capture(ctx, "python "+args[len(args)-1], append([]string{e.py}, args...)) //i18n:raw the step's label in the log
	}
}

// installedDists maps each dist in the venv's site-packages (platlib and purelib) by its PEP 503
// name to its .dist-info folder.
func installedDists(scheme wheelinst.Scheme) map[string]string {
	installed := wheelinst.Installed(scheme.Platlib)
	if scheme.Purelib != scheme.Platlib {
		for k, v := range wheelinst.Installed(scheme.Purelib) {
			installed[k] = v
		}
	}
	return installed
}

// ownUninstall is the uninstall step done by gpuwiz: each dist of the plan's Uninstall goes as pip uninstall
// removes it, from its RECORD (the backup step already holds its files, so a failure is put back
// like pip's). A dist that is not installed is skipped, as pip skips it. handled is false when pip
// should do it: asked for pip, the venv's paths not known, or a dist without RECORD or installed
// in editable mode.
func (e *engine) ownUninstall(ctx context.Context) (handled bool, err error) {
	if pipAskedFor() {
		return false, nil
	}
	scheme, err := e.schemeOf(ctx, e.python())
	if err != nil {
		return false, nil
	}
	installed := installedDists(scheme)
	var names, dirs []string
	for _, n := range e.plan.Uninstall {
		dir, ok := installed[pep.Normalize(n)]
		if !ok {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, "RECORD")); err != nil || editable(dir) {
			return false, nil
		}
		names, dirs = append(names, n), append(dirs, dir)
	}
	start, files := time.Now(), 0
	roots := e.envRoots(scheme)
	for i, dir := range dirs {
		e.keepBytecode(dir, roots)
		removed, outside, err := uninstallDist(dir, roots)
		files += len(removed)
		e.leftAlone(names[i], outside)
		if err != nil {
			return true, i18n.Wrap(err, i18n.T("install.own.uninstall_step_failed", i18n.D{"Dist": names[i], "Err": err}))
		}
	}
	e.emitLine(Event{StepID: StepUninstall, Line: i18n.T("install.own.uninstalled", i18n.D{"Dists": i18n.Join(names), "Files": files,
		"Seconds": time.Since(start).Round(time.Millisecond).Seconds()})})
	return true, nil
}

// uninstallDist removes one dist from its RECORD; a test stands in a file Windows will not delete.
var uninstallDist = wheelinst.Uninstall

// envRoots is the venv's own folders as the rule for every file gpuwiz touches there knows them:
// its prefix and the install paths its interpreter reported.
func (e *engine) envRoots(scheme wheelinst.Scheme) envroot.Roots {
	return envroot.New(e.plan.Venv, scheme.Purelib, scheme.Platlib, scheme.Scripts, scheme.Data)
}

// leftAlone records the paths a dist's RECORD named outside the environment, which gpuwiz did not
// touch: in the outcome (--json), in the log with each path, and as a line on screen.
func (e *engine) leftAlone(dist string, paths []string) {
	if len(paths) == 0 {
		return
	}
	e.out.Outside = append(e.out.Outside, Outside{Dist: dist, Paths: paths})
	e.emitLine(Event{StepID: StepUninstall, Line: i18n.N("install.own.outside", len(paths), i18n.D{"Dist": dist})})
	//i18n:raw the log, for support
	e.note(dist + "'s RECORD names paths outside this environment; left alone:\n  " + strings.Join(paths, "\n  "))
}

// editable says whether the dist in dir was installed in editable mode (pip install -e), which
// pip uninstall undoes through its .pth or .egg-link, not RECORD alone.
func editable(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "direct_url.json"))
	if err != nil {
		return false
	}
	var d struct {
		DirInfo struct {
			Editable bool `json:"editable"`
		} `json:"dir_info"`
	}
	return json.Unmarshal(b, &d) == nil && d.DirInfo.Editable
}

// ownInstall installs the staged wheels with gpuwiz's installer: pip works out which wheels the
// pins need in this venv (a dry run over the stage folder, no index), gpuwiz removes the versions
// they replace (the backup step holds them) and writes the wheels on every core, from the unpacked
// cache by hard links where it can. handled is false when gpuwiz's installer does not take this
// install (asked for pip, pip too old to report, a wheel it does not handle): pip then does it.
// a is the install step's pip command, which pip's dry run asks about when the stage's choice is
// not certain.
func (e *engine) ownInstall(ctx context.Context, a PipArgs) (handled bool, err error) {
	if pipAskedFor() || a.Sub != "install" {
		return false, nil
	}
	if e.plan.PipVersion != "" && pipOlderThan(e.plan.PipVersion, "22.2") {
		return false, nil
	}
	py := e.python()
	schemeStart := time.Now()
	scheme, err := e.schemeOf(ctx, py)
	if err != nil {
		return false, nil
	}
	schemeTook := time.Since(schemeStart)
	installed := installedDists(scheme)
	versions := map[string]string{}
	for n, dir := range installed {
		if _, v, ok := pep.DistInfo(filepath.Base(dir)); ok {
			versions[n] = v
		}
	}
	requested := map[string]bool{}
	for _, pin := range append(append([]string{}, e.plan.pins...), e.plan.optional...) {
		name, _, _ := strings.Cut(pin, "==")
		requested[pep.Normalize(name)] = true
	}
	for _, n := range e.plan.requested {
		requested[pep.Normalize(n)] = true
	}
	// The stage's own resolve chose the wheels: no second resolve (pip's dry run over the stage
	// folder hashes every wheel, seconds for a 4.5 GB build) when that choice is certain.
	wheels, names, ok := e.stagedSet(versions, requested)
	if !ok {
		wheels, names, ok = e.dryRunSet(ctx, a)
		if !ok {
			return false, nil
		}
	}
	for i, n := range names {
		if u, ok := e.plan.directURLs[pep.Normalize(n)]; ok {
			wheels[i].DirectURL = u
		}
	}
	if which, why := wheelinst.Unsupported(wheels); why != nil {
		e.emitLine(Event{StepID: StepInstall, Line: i18n.T("install.own.fallback", i18n.D{"Why": filepath.Base(which) + ": " + why.Error()})})
		return false, nil
	}
	// The versions the new wheels replace (a dependency the build upgrades; the framework itself
	// was removed by the uninstall step) go first, as pip removes them.
	roots := e.envRoots(scheme)
	for _, n := range names {
		if dir, ok := installed[n]; ok {
			e.keepBytecode(dir, roots)
			_, outside, err := uninstallDist(dir, roots)
			e.leftAlone(n, outside)
			if err != nil {
				return true, i18n.Wrap(err, i18n.T("install.own.uninstall_failed", i18n.D{"Dist": n, "Err": err}))
			}
		}
	}
	opt := wheelinst.Options{Launchers: e.launchers()}
	if sameVolume(e.plan.StageDir, scheme.Platlib) {
		opt.Cache = UnpackedDir(filepath.Dir(e.plan.StageDir))
	}
	e.emitLine(Event{StepID: StepInstall, Line: i18n.N("install.own.start", len(wheels))})
	start := time.Now()
	res, err := wheelinst.Install(ctx, py, scheme, wheels, opt)
	e.endScheme()
	if err != nil {
		return true, i18n.Wrap(err, i18n.T("install.own.failed", i18n.D{"Err": err}))
	}
	for _, w := range wheels {
		e.installedWheels = append(e.installedWheels, filepath.Base(w.Path))
	}
	var infoDirs []string
	for _, d := range res.Dists {
		infoDirs = append(infoDirs, d.InfoDir)
	}
	e.putBackBytecode(infoDirs, roots)
	e.emitLine(Event{StepID: StepInstall, Line: i18n.T("install.own.done", i18n.D{
		"Files": res.Linked + res.Copied, "Linked": res.Linked, "Size": i18n.Size(res.Bytes), "Seconds": time.Since(start).Round(time.Millisecond).Seconds()})})
	sec := func(d time.Duration) float64 { return d.Round(time.Millisecond).Seconds() }
	t := map[string]float64{"scheme": sec(schemeTook), "open": sec(res.Phases.Open), "unpack": sec(res.Phases.Unpack),
		"write": sec(res.Phases.Write), "scripts": sec(res.Phases.Scripts), "record": sec(res.Phases.Record)}
	e.out.InstallerSeconds = t
	e.emitLine(Event{StepID: StepInstall, Line: i18n.T("install.own.phases", i18n.D{"Scheme": t["scheme"], "Open": t["open"], "Unpack": t["unpack"],
		"Write": t["write"], "Scripts": t["scripts"], "Record": t["record"]})})
	return true, nil
}

// dryRunSet asks pip which of the staged wheels the install (a) needs: the same command as a dry
// run with a report.
func (e *engine) dryRunSet(ctx context.Context, a PipArgs) ([]wheelinst.Wheel, []string, bool) {
	report := filepath.Join(e.plan.StageDir, ".gpuwiz-install-report.json")
	a.DryRun, a.Quiet, a.Report, a.Progress = true, true, report, ""
	rep, err := e.dryRun(ctx, "pip install --dry-run", report, pipArgv(e.plan.pip, a)) //i18n:raw the step's label in the log
	if err != nil {
		e.emitLine(Event{StepID: StepInstall, Line: i18n.T("install.own.fallback", i18n.D{"Why": err.Error()})})
		return nil, nil, false
	}
	wheels, names, ok := e.reportedWheels(rep)
	return wheels, names, ok && len(wheels) > 0
}

// dryRun runs a pip install --dry-run (argv) that writes its report to report, and reads it; the
// report file goes after.
func (e *engine) dryRun(ctx context.Context, label, report string, argv []string) (pipReport, error) {
	defer os.Remove(report)
	if _, err := e.capture(ctx, label, argv); err != nil {
		return pipReport{}, err
	}
	return readReport(report)
}

// reportedWheels are the wheels a pip install --dry-run report would install, each a local file
// (the stage folder's); ok is false when one is not.
func (e *engine) reportedWheels(rep pipReport) ([]wheelinst.Wheel, []string, bool) {
	hashes := readWheelRecord(e.plan.StageDir).Wheels
	var wheels []wheelinst.Wheel
	var names []string
	for _, it := range rep.Install {
		u, err := url.Parse(it.DownloadInfo.URL)
		if err != nil || u.Scheme != "file" || !strings.HasSuffix(u.Path, ".whl") {
			return nil, nil, false
		}
		p := u.Path
		if runtime.GOOS == "windows" {
			p = strings.TrimPrefix(p, "/")
		}
		p = filepath.FromSlash(p)
		sum := hashes[filepath.Base(p)].SHA256
		if ai := it.DownloadInfo.ArchiveInfo; sum == "" && ai != nil {
			sum = ai.Hashes["sha256"]
		}
		wheels = append(wheels, wheelinst.Wheel{Path: p, SHA256: sum, Requested: it.Requested})
		names = append(names, pep.Normalize(it.Metadata.Name))
	}
	return wheels, names, true
}

// sameVolume says whether a hard link can join the two folders (the unpacked cache lives beside
// the wheel cache): it tries one.
func sameVolume(a, b string) bool {
	if err := os.MkdirAll(a, 0o755); err != nil {
		return false
	}
	f, err := os.CreateTemp(a, ".gpuwiz-link-*")
	if err != nil {
		return false
	}
	f.Close()
	defer os.Remove(f.Name())
	target := filepath.Join(b, filepath.Base(f.Name()))
	if err := os.Link(f.Name(), target); err != nil {
		return false
	}
	os.Remove(target)
	return true
}
