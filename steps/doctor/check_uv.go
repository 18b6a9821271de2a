package doctor

import (
	"slices"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/keep"
	"gpuwiz/steps/pep"
	"gpuwiz/steps/shellquote"
)

// UVFacts say whether uv can install into the environment: uv reads neither pip's configuration
// nor its constraints, so the protection gpuwiz gives pip does not hold for `uv pip install`.
type UVFacts struct {
	MadeBy string `json:"made_by,omitempty"` // uv's version in pyvenv.cfg: the environment was made by uv
	OnPath string `json:"on_path,omitempty"` // uv on PATH
	// Project is the uv project beside the environment (its pyproject.toml), with the settings that
	// keep uv on the build; nil when there is none, or no GPU build to keep.
	Project *keep.UVProject `json:"project,omitempty"`
	// Constraints is the file UV_CONSTRAINT should name (the environment's constraints.txt).
	Constraints string `json:"constraints,omitempty"`
	// ProjectKeeps: the uv project already holds those settings.
	ProjectKeeps bool `json:"project_keeps,omitempty"`
}

// collectUV fills e.UV for an environment holding the torch GPU build.
func collectUV(d Deps, e *Evidence) {
	if e.Venv == "" {
		return
	}
	u := &UVFacts{MadeBy: e.Env.UV, OnPath: findOnPath(d.FS, d.GOOS, d.Env, "uv")}
	if u.MadeBy == "" && u.OnPath == "" {
		return
	}
	u.Constraints = joinFor(d.GOOS, e.Venv, "constraints.txt")
	e.UV = u
	t := e.Dist("torch")
	if t == nil || t.LocalLabel == "" || t.LocalLabel == "+cpu" {
		return
	}
	project := joinFor(d.GOOS, parentDir(e.Venv), "pyproject.toml")
	if st, err := d.FS.Stat(project); err != nil || st.IsDir() {
		return
	}
	channel := pep.Channel(t.LocalLabel)
	b := buildOf(releaseOf(e.Matrix, "torch", t.Version), channel)
	if b == nil || b.IndexURL == "" {
		return
	}
	p := &keep.UVProject{Path: project, Index: "pytorch-" + channel, URL: b.IndexURL}
	for _, name := range pep.TorchFamily {
		if dd := e.Dist(name); dd != nil && dd.LocalLabel == t.LocalLabel {
			p.Pins = append(p.Pins, name+"=="+dd.Version+dd.LocalLabel)
			p.Dists = append(p.Dists, name)
		}
	}
	if text, err := d.FS.ReadFile(project); err == nil {
		if _, changed, err := p.Edit(string(text)); err == nil && !changed {
			u.ProjectKeeps = true
			return
		}
	}
	u.Project = p
}

// checkUV: uv made the environment or is on PATH, and a GPU build is installed. With a uv project
// beside it, doctor --fix writes the project's own settings (with the user's consent); else the
// UV_CONSTRAINT line to use is given.
func checkUV(e *Evidence) []Finding {
	u := e.UV
	if u == nil || u.ProjectKeeps || e.installedFramework() == "" {
		return nil
	}
	var ev []string
	if u.MadeBy != "" {
		ev = append(ev, i18n.T("doctor.uv.made_by", i18n.D{"Version": u.MadeBy}))
	}
	if u.OnPath != "" {
		ev = append(ev, i18n.T("doctor.uv.on_path", i18n.D{"Path": u.OnPath}))
	}
	ev = append(ev, i18n.T("doctor.uv.why"))
	fix := i18n.T("doctor.uv.fix_constraint", i18n.D{"Line": uvConstraintLine(e.GOOS, u.Constraints), "Protect": shellquote.Command(e.GOOS, "gpuwiz", "protect", "--venv", e.Venv)})
	if p := u.Project; p != nil {
		fix = i18n.T("doctor.uv.fix_project", i18n.D{"File": p.Path, "Index": p.URL, "Pins": i18n.Join(p.Pins)})
	}
	// uv that made this environment, or a uv project beside it, will be used here: it threatens the
	// build. uv only on PATH is context: nothing says it is used for this environment (as a pip
	// that belongs to another Python is).
	sev := SeverityWarning
	if u.MadeBy == "" && u.Project == nil {
		sev = SeverityInfo
	}
	return []Finding{{Code: CodeUVIgnoresProtection, Severity: sev, Title: i18n.T("doctor.uv.title"), Evidence: ev, Fix: fix}}
}

// uvConstraintLine sets UV_CONSTRAINT for the shell of goos: PowerShell's on Windows.
func uvConstraintLine(goos, file string) string {
	if goos == "windows" {
		return "$env:UV_CONSTRAINT = " + shellquote.PowerShell(file) //i18n:raw a command to type
	}
	return "export UV_CONSTRAINT=" + shellquote.Posix(file) //i18n:raw a command to type
}

// uvAction is the repair's edit of the uv project, when the finding has one.
func uvAction(rep Report) *Action {
	if rep.UV == nil || rep.UV.Project == nil || !slices.ContainsFunc(rep.Findings, func(f Finding) bool { return f.Code == CodeUVIgnoresProtection }) {
		return nil
	}
	p := *rep.UV.Project
	return &Action{Title: i18n.T("doctor.repair.uv_project", i18n.D{"File": p.Path}), Fixes: CodeUVIgnoresProtection, UVProject: &p}
}
