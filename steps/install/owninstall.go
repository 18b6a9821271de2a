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

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pep"
	"gpuwiz/steps/wheelinst"
)

// InstallerEnv names the environment variable that picks the installer: "pip" has pip install the
// staged wheels, as before gpuwiz had its own installer; anything else lets gpuwiz install them.
const InstallerEnv = "GPUWIZ_INSTALLER"

// UnpackedDir is the cache of unpacked wheels beside the wheel cache: a wheel installed once is
// installed again by hard links (see steps/wheelinst).
func UnpackedDir(cache string) string { return filepath.Join(cache, "unpacked") }

// ownInstall installs the staged wheels with gpuwiz's installer: pip works out which wheels the
// pins need in this venv (a dry run over the stage folder, no index), gpuwiz removes the versions
// they replace (the backup step holds them) and writes the wheels on every core, from the unpacked
// cache by hard links where it can. handled is false when gpuwiz's installer does not take this
// install (asked for pip, pip too old to report, a wheel it does not handle): pip then does it.
func (e *engine) ownInstall(ctx context.Context, argv []string) (handled bool, err error) {
	if strings.EqualFold(os.Getenv(InstallerEnv), "pip") || len(argv) < 5 || argv[3] != "install" {
		return false, nil
	}
	if e.plan.PipVersion != "" && pipOlderThan(e.plan.PipVersion, "22.2") {
		return false, nil
	}
	report := filepath.Join(e.plan.StageDir, ".gpuwiz-install-report.json")
	defer os.Remove(report)
	dry := append(append(append([]string{}, argv[:4]...), "--dry-run", "--quiet", "--report", report), argv[4:]...)
	for i := 0; i+1 < len(dry); i++ {
		if dry[i] == "--progress-bar" {
			dry = slices.Delete(dry, i, i+2)
			break
		}
	}
	if _, err := e.capture(ctx, "pip install --dry-run", dry); err != nil { //i18n:raw the step's label in the log
		e.emitLine(Event{StepID: StepInstall, Line: i18n.T("install.own.fallback", i18n.D{"Why": err.Error()})})
		return false, nil
	}
	b, err := os.ReadFile(report)
	var rep pipReport
	if err != nil || json.Unmarshal(b, &rep) != nil {
		return false, nil
	}
	hashes := readWheelRecord(e.plan.StageDir).Wheels
	var wheels []wheelinst.Wheel
	var names []string
	for _, it := range rep.Install {
		u, err := url.Parse(it.DownloadInfo.URL)
		if err != nil || u.Scheme != "file" || !strings.HasSuffix(u.Path, ".whl") {
			return false, nil
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
	if len(wheels) == 0 {
		return false, nil
	}
	if which, why := wheelinst.Unsupported(wheels); why != nil {
		e.emitLine(Event{StepID: StepInstall, Line: i18n.T("install.own.fallback", i18n.D{"Why": filepath.Base(which) + ": " + why.Error()})})
		return false, nil
	}
	py := func(ctx context.Context, args ...string) ([]byte, error) {
		return e.capture(ctx, "python "+args[len(args)-1], append([]string{e.py}, args...)) //i18n:raw the step's label in the log
	}
	scheme, err := wheelinst.SchemeOf(ctx, py)
	if err != nil {
		return false, nil
	}
	// The versions the new wheels replace (a dependency the build upgrades; the framework itself
	// was removed by the uninstall step) go first, as pip removes them.
	installed := wheelinst.Installed(scheme.Platlib, pep.Normalize)
	if scheme.Purelib != scheme.Platlib {
		for k, v := range wheelinst.Installed(scheme.Purelib, pep.Normalize) {
			installed[k] = v
		}
	}
	for _, n := range names {
		if dir, ok := installed[n]; ok {
			if _, err := wheelinst.Uninstall(dir); err != nil {
				return true, i18n.Wrap(err, i18n.T("install.own.uninstall_failed", i18n.D{"Dist": n, "Err": err}))
			}
		}
	}
	opt := wheelinst.Options{}
	if sameVolume(e.plan.StageDir, scheme.Platlib) {
		opt.Cache = UnpackedDir(filepath.Dir(e.plan.StageDir))
	}
	e.emitLine(Event{StepID: StepInstall, Line: i18n.N("install.own.start", len(wheels), i18n.D{"Pins": strings.Join(names, " ")})})
	start := time.Now()
	res, err := wheelinst.Install(ctx, py, scheme, wheels, opt)
	if err != nil {
		return true, i18n.Wrap(err, i18n.T("install.own.failed", i18n.D{"Err": err}))
	}
	for _, w := range wheels {
		e.installedWheels = append(e.installedWheels, filepath.Base(w.Path))
	}
	e.emitLine(Event{StepID: StepInstall, Line: i18n.T("install.own.done", i18n.D{
		"Files": res.Linked + res.Copied, "Linked": res.Linked, "Size": humanBytes(res.Bytes), "Seconds": time.Since(start).Round(10 * time.Millisecond).Seconds()})})
	return true, nil
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
