package doctor

import (
	"gpuwiz/steps/shellquote"
	"strings"

	"gpuwiz/matrix"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pep"
	"gpuwiz/steps/pyenv"
)

func checkPythonBroken(e *Evidence) []Finding {
	if e.Python.Error == "" {
		return nil
	}
	return []Finding{{
		Code: CodePythonBroken, Severity: SeverityError,
		Title:    i18n.T("doctor.python_broken.title"),
		Evidence: []string{"python: " + e.Python.Path, lastLines(e.Python.Error, 4)},
		Fix:      i18n.T("doctor.python_broken.fix"),
	}}
}

func checkPython32Bit(e *Evidence) []Finding {
	if e.Python.Bits != 32 {
		return nil
	}
	return []Finding{{
		Code: CodePython32Bit, Severity: SeverityError,
		Title:    i18n.T("doctor.python32.title"),
		Evidence: []string{i18n.T("doctor.python32.reports", i18n.D{"Path": e.Python.Path, "Version": e.Python.Version}), i18n.T("doctor.python32.symptom")},
		Fix:      i18n.T("doctor.python32.fix"),
	}}
}

// isStorePython recognises the Microsoft Store Python by where it lives.
func isStorePython(p string) bool {
	l := strings.ToLower(strings.ReplaceAll(p, "/", `\`))
	return strings.Contains(l, `\windowsapps\pythonsoftwarefoundation.python`) || strings.Contains(l, `\packages\pythonsoftwarefoundation.python`)
}

func checkStorePython(e *Evidence) []Finding {
	var ev []string
	if e.Python.Kind == "store" {
		ev = append(ev, i18n.T("doctor.store_python.identified"))
	}
	for _, p := range []LabeledPath{{"python", e.Python.Path}, {"sys.executable", e.Python.Executable}, {"sys.base_prefix", e.Python.BasePrefix}} {
		if p.Path != "" && isStorePython(p.Path) {
			ev = append(ev, p.Label+": "+p.Path)
		}
	}
	if len(ev) == 0 {
		return nil
	}
	return []Finding{{
		Code: CodeStorePython, Severity: SeverityError,
		Title:    i18n.T("doctor.store_python.title"),
		Evidence: append(ev, i18n.T("doctor.store_python.why")),
		Fix:      i18n.T("doctor.store_python.fix"),
	}}
}

// pythonRange gives the supported Python range of the installed release, else the union of all releases.
func pythonRange(m *matrix.Matrix, framework, version string) (lo, hi, what string) {
	if r := releaseOf(m, framework, version); r != nil {
		return r.PythonMin, r.PythonMax, frameworkTitle(framework) + " " + version
	}
	var rels []matrix.Release
	switch framework {
	case "torch":
		rels = m.Torch
	case "paddle":
		rels = m.Paddle
	default:
		rels = append(append(rels, m.Torch...), m.Paddle...)
	}
	for _, r := range rels {
		if lo == "" || versionLess(r.PythonMin, lo) {
			lo = r.PythonMin
		}
		if hi == "" || versionLess(hi, r.PythonMax) {
			hi = r.PythonMax
		}
	}
	what = i18n.T("doctor.python_range.any_release", i18n.D{"Framework": frameworkTitle(framework)})
	if framework == "" {
		what = i18n.T("doctor.python_range.any_framework")
	}
	return lo, hi, what
}

func checkPythonUnsupported(e *Evidence) []Finding {
	if e.Matrix == nil || e.Python.Version == "" {
		return nil
	}
	fw := e.installedFramework()
	version := ""
	switch fw {
	case "torch":
		if d := e.Dist("torch"); d != nil {
			version = d.Version
		}
	case "paddle":
		if d := e.Dist("paddlepaddle-gpu"); d != nil {
			version = d.Version
		} else if d := e.Dist("paddlepaddle"); d != nil {
			version = d.Version
		}
	}
	lo, hi, what := pythonRange(e.Matrix, fw, version)
	py := pep.Minor(e.Python.Version)
	if lo == "" || hi == "" || (!versionLess(py, lo) && !versionLess(hi, py)) {
		return nil
	}
	return []Finding{{
		Code: CodePythonUnsupported, Severity: SeverityError,
		Title:    i18n.T("doctor.python_range.title", i18n.D{"Python": py, "What": what, "Lo": lo, "Hi": hi}),
		Evidence: []string{i18n.T("doctor.python_range.is", i18n.D{"Path": e.Python.Path, "Version": e.Python.Version}), i18n.T("doctor.python_range.symptom")},
		Fix:      i18n.T("doctor.python_range.fix", i18n.D{"Lo": lo, "Hi": hi}),
	}}
}

// checkPipOnPath compares the Python that `pip` on PATH installs into with the one being checked.
func checkPipOnPath(e *Evidence) []Finding {
	p := e.PipOnPath
	if p == nil || p.Location == "" || e.SitePackages == "" {
		return nil
	}
	pipSite := parentDir(p.Location)
	if samePath(pipSite, e.SitePackages, e.GOOS) {
		return nil
	}
	ev := []string{i18n.T("doctor.pip_path.pip", i18n.D{"Path": p.Path}), installsInto(pipSite, p.PythonVer), i18n.T("doctor.pip_path.site", i18n.D{"Dir": e.SitePackages})}
	sev := SeverityWarning
	if !e.Active {
		// The user's shell has another environment active (or none): `pip` there is meant for that
		// one, and nothing gpuwiz does goes through it. Context, not a threat to this build.
		sev = SeverityInfo
		ev = append(ev, i18n.T("doctor.pip_path.not_active"))
	}
	return []Finding{{
		Code: CodePipPythonMismatch, Severity: sev,
		Title:    i18n.T("doctor.pip_path.title"),
		Evidence: ev,
		Fix:      activateHint(e),
	}}
}

func installsInto(dir, pythonVersion string) string {
	if pythonVersion == "" {
		return i18n.T("doctor.pip_path.installs_into", i18n.D{"Dir": dir})
	}
	return i18n.T("doctor.pip_path.installs_into_version", i18n.D{"Dir": dir, "Version": pythonVersion})
}

func activateHint(e *Evidence) string {
	if e.Venv == "" {
		return i18n.T("doctor.pip_path.fix_path")
	}
	if e.Env.Kind == pyenv.EnvEmbedded || e.Env.Kind == pyenv.EnvPrefix {
		// Nothing to activate: its own Python is run by its path.
		return i18n.T("doctor.pip_path.fix_run", i18n.D{"Command": shellquote.Command(e.GOOS, e.Python.Path, "-m", "pip")})
	}
	if e.GOOS == "windows" {
		return i18n.T("doctor.pip_path.fix_activate_windows", i18n.D{
			"PowerShell": shellquote.PowerShellCall(e.Venv + `\Scripts\Activate.ps1`),
			"Cmd":        shellquote.Cmd(e.Venv + `\Scripts\activate.bat`),
		})
	}
	return i18n.T("doctor.pip_path.fix_activate", i18n.D{"Command": shellquote.Posix("source", e.Venv+"/bin/activate")})
}

func samePath(a, b, goos string) bool {
	norm := func(p string) string {
		p = strings.ReplaceAll(p, `\`, "/")
		p = strings.TrimRight(p, "/")
		if goos == "windows" {
			p = strings.ToLower(p)
		}
		return p
	}
	return norm(a) == norm(b)
}

// parentDir cuts the last element of a path written with either separator (Windows evidence is read on Linux in tests).
func parentDir(p string) string {
	p = strings.TrimRight(p, `/\`)
	if i := strings.LastIndexAny(p, `/\`); i > 0 {
		return p[:i]
	}
	return p
}

// joinFor joins elems onto base with the separator base already uses (os functions on Windows accept both).
func joinFor(goos, base string, elems ...string) string {
	sep := "/"
	if goos == "windows" && (strings.Contains(base, `\`) || !strings.Contains(base, "/")) {
		sep = `\`
	}
	out := strings.TrimRight(base, `/\`)
	for _, e := range elems {
		out += sep + e
	}
	return out
}
