package doctor

import (
	"fmt"
	"strings"

	"gpuwiz/matrix"
)

func checkPythonBroken(e *Evidence) []Finding {
	if e.Python.Error == "" {
		return nil
	}
	return []Finding{{
		Code: CodePythonBroken, Severity: SeverityError,
		Title:    "The Python interpreter could not be inspected",
		Evidence: []string{"python: " + e.Python.Path, lastLines(e.Python.Error, 4)},
		Fix:      "Check that the path is a working python (run it with --version). If the venv's base Python was removed or upgraded, delete the venv and let gpuwiz create it again.",
	}}
}

func checkPython32Bit(e *Evidence) []Finding {
	if e.Python.Bits != 32 {
		return nil
	}
	return []Finding{{
		Code: CodePython32Bit, Severity: SeverityError,
		Title:    "This Python is 32-bit: no GPU build of PyTorch or PaddlePaddle exists for it",
		Evidence: []string{fmt.Sprintf("%s reports a 32-bit interpreter (Python %s)", e.Python.Path, e.Python.Version), "pip answers \"Could not find a version that satisfies the requirement torch (from versions: none)\""},
		Fix:      "Install the 64-bit Python from python.org (\"Windows installer (64-bit)\"), then create the venv with it.",
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
		ev = append(ev, "the interpreter was identified as the Microsoft Store Python")
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
		Title:    "This is the Microsoft Store Python",
		Evidence: append(ev, "its sandbox redirects files and breaks long paths; torch then fails with shm.dll or path errors"),
		Fix:      "Install Python from python.org (64-bit), turn off the python.exe App execution aliases in Settings, and create the venv with the new Python.",
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
	what = "any " + frameworkTitle(framework) + " release gpuwiz knows"
	if framework == "" {
		what = "any PyTorch or PaddlePaddle release gpuwiz knows"
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
	py := majorMinor(e.Python.Version)
	if lo == "" || hi == "" || (!versionLess(py, lo) && !versionLess(hi, py)) {
		return nil
	}
	return []Finding{{
		Code: CodePythonUnsupported, Severity: SeverityError,
		Title:    fmt.Sprintf("Python %s is outside what %s supports (%s to %s)", py, what, lo, hi),
		Evidence: []string{fmt.Sprintf("%s is Python %s", e.Python.Path, e.Python.Version), "pip finds no matching wheel (\"from versions: none\") or falls back to an old or CPU build"},
		Fix:      fmt.Sprintf("Install a python.org Python between %s and %s (3.10 to 3.12 are the safest) and create the venv with it.", lo, hi),
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
	return []Finding{{
		Code: CodePipPythonMismatch, Severity: SeverityWarning,
		Title:    "`pip` on PATH installs into another Python",
		Evidence: []string{"pip on PATH: " + p.Path, "it installs into: " + pipSite + pythonVer(p.PythonVer), "this environment's site-packages: " + e.SitePackages},
		Fix:      activateHint(e) + " Or always run python -m pip with this environment's python, so pip and python cannot differ.",
	}}
}

func pythonVer(v string) string {
	if v == "" {
		return ""
	}
	return " (python " + v + ")"
}

func activateHint(e *Evidence) string {
	if e.Venv == "" {
		return "Put this Python's Scripts (Windows) or bin directory first on PATH."
	}
	if e.GOOS == "windows" {
		return fmt.Sprintf("Activate the venv first: PowerShell `& \"%s\\Scripts\\Activate.ps1\"`, cmd `\"%s\\Scripts\\activate.bat\"`.", e.Venv, e.Venv)
	}
	return fmt.Sprintf("Activate the venv first: `source \"%s/bin/activate\"`.", e.Venv)
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
