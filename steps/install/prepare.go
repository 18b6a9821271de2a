package install

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pep"
	"gpuwiz/steps/pipcmd"
	"gpuwiz/steps/pipconf"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/urls"
)

// Prepare checks the venv path, learns what the venv holds (or the pip a new one will get), asks
// pip which config would have interfered, and makes the plan. Nothing is changed.
func Prepare(ctx context.Context, r runner.Runner, opts Options) (Plan, error) {
	goos := opts.Venv.GOOS
	if goos == "" {
		goos = runtime.GOOS
	}
	check := pyenv.CheckVenvPath(opts.Venv.Root, goos)
	if !check.OK() {
		return Plan{}, badInput(i18n.JoinClauses(check.Errors))
	}
	// A run that died half-way left the venv between two builds: say so, and change nothing.
	if in := FindInterrupted(opts.Venv.Root); in != nil {
		return Plan{}, &InterruptedError{In: *in}
	}
	var installed pyenv.Installed
	var env EnvInfo
	python := opts.Python
	if opts.Venv.Exists() {
		var err error
		installed, err = pyenv.Inspect(ctx, r, opts.Venv.Python())
		if err != nil {
			return Plan{}, i18n.Wrap(err, i18n.T("install.err.inspect", i18n.D{"Venv": opts.Venv.Root, "Err": err}))
		}
		python = opts.Venv.Python()
		layout := opts.Venv.Layout()
		if err := CheckTarget(layout, installed, opts.FixPth); err != nil {
			return Plan{}, err
		}
		env = EnvInfo{Kind: layout.Kind, UV: layout.UV, HasPip: installed.PipVersion != "", Python: python, Pth: layout.Pth,
			FixPth: opts.FixPth && installed.SiteOffPath && layout.Pth != "" && !layout.PthSite, Purelib: installed.Purelib}
		cache := opts.CacheDir
		if cache == "" {
			cache = DefaultCacheDir()
		}
		if opts.pip, err = pipcmd.For(ctx, r, python, opts.environ(), UnpackedDir(cache)); err != nil {
			return Plan{}, i18n.Wrap(err, i18n.T("install.err.inspect", i18n.D{"Venv": opts.Venv.Root, "Err": err}))
		}
		if opts.pip.Own != "" {
			installed.PipVersion = opts.pip.OwnVersion // what runs pip's steps
		}
	} else if python != "" {
		// A Python without venv or ensurepip (Debian and Ubuntu without python3.X-venv) is refused
		// here, with the package to install, not half-way through python -m venv.
		if in, err := pyenv.DescribeWith(ctx, r, python, goos); err == nil {
			if len(in.VenvMissing) > 0 {
				return Plan{}, badInput(fmt.Sprintf("%s: %s", python, pyenv.NoVenvWarning(in, pyenv.ReadDistro())))
			}
			opts.newPythonVersion = in.Version // the new venv's Python: whether the cached wheels fit it
		}
		installed.PipVersion = bundledPip(ctx, r, python, opts.environ())
	}
	p, err := MakePlan(opts, installed)
	if err != nil {
		return Plan{}, err
	}
	p.Warnings = append(check.Warnings, p.Warnings...)
	if env.Kind == "" {
		env = EnvInfo{Kind: pyenv.EnvVenv, HasPip: true} // a new venv, which gets pip
	}
	p.Env = env
	if env.FixPth {
		p.Notes = append(p.Notes, i18n.T("install.note.fix_pth", i18n.D{"File": env.Pth}))
	}
	if opts.Venv.IsConda() {
		// A conda env: the same engine with the env's own pip; conda's own packages are left alone.
		p.Conda = true
		p.Notes = append(p.Notes, i18n.T("install.note.conda"))
		p.Warnings = append(p.Warnings, pyenv.CondaConflictWarnings(opts.Venv.Root, p.Target.Framework)...)
	}
	if python != "" {
		p.Warnings = append(p.Warnings, pipConfigWarnings(pipconf.Read(pipconf.Source{Prefix: p.sysPrefix(), Environ: opts.environ(), GOOS: goos}))...)
	}
	return p, nil
}

// bundledPip is the pip version a new venv made by python gets (the pip wheel its ensurepip
// carries, which the venv step links in), "" when unknown.
func bundledPip(ctx context.Context, r runner.Runner, python string, env []string) string {
	if w, err := pipcmd.Wheel(ctx, r, python, env); err == nil {
		if pw, err := pep.ParseWheel(filepath.Base(w.Path)); err == nil {
			return pw.Version
		}
	}
	var out bytes.Buffer
	//i18n:raw the step's label in the log, and a Python snippet
	res := r.Run(ctx, runner.Cmd{Name: "ensurepip version", Argv: []string{python, "-c", "import ensurepip; print(ensurepip.version())"}, Env: env, Stdout: &out}, nil)
	if res.Err != nil {
		return ""
	}
	return strings.TrimSpace(out.String())
}

// interferingKeys are pip settings that change where the framework comes from or where it goes.
var interferingKeys = []string{"index-url", "extra-index-url", "find-links", "no-index", "user", "target", "prefix", "no-binary", "only-binary", "constraint", "requirement", "no-deps", "require-hashes"}

// pipConfigWarnings names every setting in pip's configuration files (user, global or the venv's
// own, as pip reads them for the venv's Python: pipconf) that would have changed where pip finds
// the framework. gpuwiz overrides them for its own runs; PIP_* variables are named by MakePlan.
func pipConfigWarnings(cfg pipconf.Config) []string {
	return configInterference(cfg)
}

// configInterference lists the interfering settings of cfg in `pip config list`'s order (by key),
// each with the file that sets it.
func configInterference(cfg pipconf.Config) []string {
	items := cfg.Items()
	keys := make([]string, 0, len(items))
	for k := range items {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var warns []string
	for _, key := range keys {
		s := cfg.Winning(key)
		if s == nil || s.Section == pipconf.EnvSection || !contains(interferingKeys, s.Name) {
			continue // PIP_* variables are named by MakePlan from the environment itself
		}
		scope := "[" + s.Section + "]"
		if s.File != "" {
			scope += " " + s.File
		}
		warns = append(warns, i18n.T("install.warn.pip_config", i18n.D{"Scope": scope, "Key": s.Name, "Value": urls.Redact(s.Value)}))
	}
	return warns
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
