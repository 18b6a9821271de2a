package install

import (
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"gpuwiz/matrix"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/keep"
	"gpuwiz/steps/netproxy"
	"gpuwiz/steps/pep"
	"gpuwiz/steps/pipcmd"
	"gpuwiz/steps/pipconf"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/shellquote"
	"gpuwiz/steps/urls"
)

// Step kinds.
const (
	KindVenv      = "venv"      // python -m venv
	KindPip       = "pip"       // a pip command (Pip), shown as Argv
	KindSnapshot  = "snapshot"  // pip freeze --all saved under the venv
	KindBackup    = "backup"    // gpuwiz keeps the files of every dist about to change
	KindLeftovers = "leftovers" // gpuwiz moves ~* dirs and an orphan paddle/ aside
	KindVerify    = "verify"    // the embedded verify script
	KindLock      = "lock"      // requirements.lock and constraints.txt
)

// Step IDs, in the order they run.
const (
	StepVenv        = "venv"
	StepPipUpgrade  = "pip-upgrade"
	StepSnapshot    = "snapshot"
	StepStage       = "stage"
	StepStageDeps   = "stage-deps"
	StepStageOpt    = "stage-optional"
	StepBackup      = "backup"
	StepUninstall   = "uninstall"
	StepLeftovers   = "leftovers"
	StepInstall     = "install"
	StepVerify      = "verify"
	StepLock        = "lock"
	pipUpgradeBelow = reportFrom // the first pip whose dry run reports what it would install
	rawProgressFrom = "24.1"
)

// Step is one thing the engine does, with its exact argv when it is a child process.
type Step struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Kind  string `json:"kind"`
	// Argv is the command the step shows (and --json lists): for a pip command, Pip rendered by
	// pipArgv when the plan was made. The engine never reads a pip command back out of it.
	Argv []string `json:"argv,omitempty"`
	// Offline runs first when set (stage steps): when the wheel cache already satisfies the set,
	// Argv never runs and nothing is downloaded. Shown as Offline.
	Offline    []string `json:"offline,omitempty"`
	BestEffort bool     `json:"best_effort,omitempty"` // failure is a warning, not the end
	// Pip is the step's pip command, typed (pip freeze for the snapshot and lock steps): what the
	// engine starts pip with. OfflinePip is the stage's offline try.
	Pip        *PipArgs `json:"-"`
	OfflinePip *PipArgs `json:"-"`
}

// Plan is everything an install will do, produced before anything runs.
type Plan struct {
	Steps     []Step   `json:"steps"`
	Uninstall []string `json:"uninstall"` // dist names removed before the install
	Install   []string `json:"install"`   // requirement strings: "torch==2.6.0"
	// Pins are the exact builds the install writes, local label included ("torch==2.6.0+cu118"),
	// optional packages last: what a summary shows, so a channel change does not read as the same build.
	Pins []string `json:"pins"`
	// OwnInstaller: gpuwiz's own uninstaller and installer do the uninstall and install steps (pip
	// only for what they do not handle, which the log then says): no pip command of theirs is shown.
	OwnInstaller bool       `json:"own_installer"`
	Commands     [][]string `json:"commands"` // every child argv, in order (a stage's offline try first)
	Notes        []string   `json:"notes"`
	Warnings     []string   `json:"warnings"`

	Venv            string  `json:"venv"`
	NewVenv         bool    `json:"new_venv"`
	Conda           bool    `json:"conda,omitempty"` // the target is a conda env (conda-meta/), not a venv
	Env             EnvInfo `json:"environment"`     // the kind of environment, told apart by its files
	Target          Target  `json:"target"`
	IndexURL        string  `json:"index_url"`
	FindLinks       string  `json:"find_links,omitempty"`
	Source          Source  `json:"source"`
	StageDir        string  `json:"stage_dir"`
	StateDir        string  `json:"state_dir"` // <venv>/.gpuwiz: snapshots and backups
	LockFile        string  `json:"lock_file"`
	ConstraintsFile string  `json:"constraints_file"`
	LogPath         string  `json:"log_path,omitempty"`
	PipVersion      string  `json:"pip_version,omitempty"` // before any upgrade; "" when unknown
	// Had is what the venv held when the plan was made (its dists' versions: what Uninstall removes).
	Had pyenv.Installed `json:"-"`
	// ReinstallDists are the dists of Uninstall outside the framework's family, put back from the
	// staged build (Options.ReinstallDists that the venv holds).
	ReinstallDists []string `json:"reinstall_dists,omitempty"`

	venv       pyenv.Venv
	python     string             // base interpreter for a new venv
	pins       []string           // exact install requirements, local label included: "torch==2.6.0+cu126"
	optional   []string           // pins of optional packages, installed only when staged
	families   []string           // dist names of the framework family (the conflict set)
	leftovers  []string           // absolute ~* dirs known before the run
	lockHashes map[string]string  // wheel file → sha256 the venv's lock recorded
	env        []string           // child environment for the framework's pip steps
	pip        pipcmd.Pip         // the venv's own pip, or gpuwiz's own run against the venv (pipcmd)
	pyVersion  string             // the venv's Python ("3.12.4"; "" when unknown): the recorded resolution's key
	userEnv    []string           // the user's environment (pip upgrade, pip config)
	net        *netproxy.Resolver // Options.Net
	verifyN    int
	// An add's dists the user asked for (pip writes REQUESTED for these) and, for one asked for by
	// its location, the direct_url.json pip writes (PEP 610): from the add's preview.
	requested  []string
	directURLs map[string][]byte
}

// ErrBadInput wraps plan errors caused by the options (a usage error for the CLI).
var ErrBadInput error = i18n.Lazy(func() string { return i18n.T("install.err.bad_input") })

// badInput is text (a catalog message) as a bad-input error: "bad input: text".
func badInput(text string) error {
	return fmt.Errorf("%w: %s", ErrBadInput, text)
}

// MakePlan turns options and what the venv holds now (zero when the venv does not exist yet) into
// the plan. It is pure: no file, process or network is touched.
func MakePlan(opts Options, installed pyenv.Installed) (Plan, error) {
	t := opts.Target
	if t.Framework != "torch" && t.Framework != "paddle" {
		return Plan{}, badInput(i18n.T("install.err.framework", i18n.D{"Framework": strconv.Quote(t.Framework)}))
	}
	if len(t.Packages) == 0 {
		return Plan{}, badInput(i18n.T("install.err.no_packages", i18n.D{"Framework": t.Framework, "Version": t.FrameworkVersion, "Channel": t.Channel}))
	}
	index := opts.indexURL()
	if _, err := urls.Check(index); err != nil {
		return Plan{}, badInput(i18n.T("install.err.index_url", i18n.D{"Err": err}))
	}
	mirror := opts.Mirror
	if mirror == "" {
		mirror = t.Mirror
	}
	if mirror != "" {
		if _, err := urls.Check(mirror); err != nil {
			return Plan{}, badInput(i18n.T("install.err.mirror", i18n.D{"Err": err}))
		}
	}
	if opts.FindLinks != "" {
		if _, err := urls.Check(opts.FindLinks); err != nil {
			return Plan{}, badInput("find-links: " + err.Error()) //i18n:raw the option's name and the URL's own error
		}
	}
	if opts.Venv.Root == "" {
		return Plan{}, badInput(i18n.T("install.err.no_venv"))
	}
	newVenv := installed.Python.Path == ""
	if newVenv && opts.Python == "" {
		return Plan{}, badInput(i18n.T("install.err.venv_missing", i18n.D{"Venv": opts.Venv.Root}))
	}
	cache := opts.CacheDir
	if cache == "" {
		cache = DefaultCacheDir()
	}
	root := opts.Venv.Root
	p := Plan{
		Uninstall: []string{}, Install: []string{}, Pins: []string{}, Commands: [][]string{}, Notes: []string{}, Warnings: []string{},
		Venv: root, NewVenv: newVenv, Target: t, IndexURL: index, FindLinks: opts.FindLinks, Had: installed,
		StageDir:        StageDir(cache, t),
		StateDir:        filepath.Join(root, ".gpuwiz"),
		LockFile:        filepath.Join(root, "requirements.lock"),
		ConstraintsFile: filepath.Join(root, "constraints.txt"),
		LogPath:         opts.LogPath,
		PipVersion:      installed.PipVersion,
		venv:            opts.Venv, python: opts.Python, verifyN: opts.VerifyMatrixN,
		userEnv: opts.environ(), lockHashes: opts.LockHashes, pip: opts.pipFor(), net: opts.Net,
	}
	p.Target.Mirror = mirror
	p.env = p.pip.Env(frameworkEnv(p.userEnv, index, pipconf.Read(pipconf.Source{Prefix: p.sysPrefix(), Environ: p.userEnv})))
	p.Warnings = append(p.Warnings, envInterference(p.userEnv)...)
	if t.Framework == "torch" {
		p.families = pep.TorchFamily
	} else {
		p.families = pep.PaddleDists
	}
	if mirror != "" && t.Framework == "torch" {
		p.Notes = append(p.Notes, i18n.T("install.note.torch_mirror"))
	}

	for _, pkg := range t.Packages {
		p.Install = append(p.Install, pkg.Requirement())
		if pkg.Optional {
			p.optional = append(p.optional, pin(pkg))
		} else {
			p.pins = append(p.pins, pin(pkg))
		}
	}
	progress := progressFlag(installed.PipVersion)[1]

	if newVenv {
		p.add(Step{ID: StepVenv, Title: i18n.T("install.step.venv", i18n.D{"Venv": root}), Kind: KindVenv, Argv: []string{opts.Python, "-m", "venv", root}})
	}
	goos := opts.Venv.GOOS
	if goos == "" {
		goos = runtime.GOOS
	}
	pyVersion := installed.Python.Version
	if pyVersion == "" {
		pyVersion = opts.newPythonVersion
	}
	p.pyVersion = pyVersion
	cached, cachedFiles, cachedSize, cachedFrom := cachedBuild(p.StageDir, p.pins, pyVersion, goos)
	// gpuwiz downloads and installs the build itself; the venv's pip still resolves (a dry run with a
	// report, pip 22.2 and later). Only a pip too old for that is upgraded, and only from the mirror
	// the user chose: never from pypi.org unasked (a network that drops packets to it waits a minute
	// for nothing). Never in an environment without pip of its own, nor with the build in the cache.
	if !opts.NoPipUpgrade && !cached && p.pip.Own == "" && mirror != "" && pipOlderThan(installed.PipVersion, pipUpgradeBelow) {
		up := PipArgs{Sub: "install", Upgrade: "pip", Retries: 1, Timeout: 30, Progress: "off", IndexURL: mirror}
		p.add(Step{ID: StepPipUpgrade, Title: i18n.T("install.step.pip_upgrade", i18n.D{"Version": pipUpgradeBelow}), Kind: KindPip, Pip: &up, BestEffort: true})
	}
	p.add(Step{ID: StepSnapshot, Title: i18n.T("install.step.snapshot"), Kind: KindSnapshot, Pip: &PipArgs{Sub: "freeze", All: true}})

	// The framework's wheels come from the channel's index, or from a flat find-links page (several
	// mirrors of PyTorch's wheels are only that) searched beside the index, which then serves the
	// dependencies: the mirror when one is given, else the channel's index.
	online := func(pins []string) *PipArgs {
		a := &PipArgs{Sub: "download", Progress: progress, IndexURL: index, Dest: p.StageDir, Pins: pins}
		if p.FindLinks != "" {
			a.FindLinks = []string{p.FindLinks}
			if mirror != "" {
				a.IndexURL = mirror
			}
		}
		return a
	}
	offline := func(pins []string) *PipArgs {
		return &PipArgs{Sub: "download", NoIndex: true, FindLinks: []string{p.StageDir}, Dest: p.StageDir, Pins: pins}
	}
	if t.Framework == "paddle" && mirror != "" {
		alone := &PipArgs{Sub: "download", Progress: progress, NoDeps: true, IndexURL: index, Dest: p.StageDir, Pins: p.pins}
		title := i18n.T("install.step.stage_alone", i18n.D{"Pins": strings.Join(p.pins, " "), "Index": urls.Redact(index)})
		if p.FindLinks != "" {
			alone.IndexURL, alone.NoIndex, alone.FindLinks = "", true, []string{p.FindLinks}
			title = i18n.T("install.step.stage_alone_links", i18n.D{"Pins": strings.Join(p.pins, " "), "Links": urls.Redact(p.FindLinks)})
		}
		p.add(Step{ID: StepStage, Title: title, Kind: KindPip, OfflinePip: offline(p.pins), Pip: alone})
		p.add(Step{ID: StepStageDeps, Title: i18n.T("install.step.stage_deps", i18n.D{"Mirror": urls.Redact(mirror)}), Kind: KindPip,
			Pip: &PipArgs{Sub: "download", Progress: progress, IndexURL: mirror, Dest: p.StageDir, ReqFiles: []string{p.depsFile()}}})
		p.Notes = append(p.Notes, i18n.T("install.note.paddle_mirror", i18n.D{"Index": urls.Redact(index)}))
	} else {
		stage := online(p.pins)
		title := i18n.T("install.step.stage", i18n.D{"Pins": strings.Join(p.pins, " "), "Index": urls.Redact(index)})
		if p.FindLinks != "" {
			title = i18n.T("install.step.stage_links", i18n.D{"Pins": strings.Join(p.pins, " "), "Links": urls.Redact(p.FindLinks), "Deps": urls.Redact(stage.IndexURL)})
		}
		p.add(Step{ID: StepStage, Title: title, Kind: KindPip, OfflinePip: offline(p.pins), Pip: stage})
	}
	if len(p.optional) > 0 {
		p.add(Step{ID: StepStageOpt, Title: i18n.T("install.step.stage_optional", i18n.D{"Pins": strings.Join(p.optional, " ")}),
			Kind: KindPip, OfflinePip: offline(p.optional), BestEffort: true, Pip: online(p.optional)})
	}

	reinstall := map[string]bool{}
	for _, n := range opts.ReinstallDists {
		reinstall[pep.Normalize(n)] = true
	}
	for _, d := range installed.Dists {
		n := pep.Normalize(d.Name)
		switch {
		case slices.Contains(p.families, n):
			p.Uninstall = append(p.Uninstall, n)
		case reinstall[n]:
			p.Uninstall = append(p.Uninstall, n)
			p.ReinstallDists = append(p.ReinstallDists, n)
		}
	}
	slices.Sort(p.ReinstallDists)
	p.ReinstallDists = slices.Compact(p.ReinstallDists)
	slices.Sort(p.Uninstall)
	p.Uninstall = slices.Compact(p.Uninstall)
	p.add(Step{ID: StepBackup, Title: i18n.T("install.step.backup"), Kind: KindBackup})
	if len(p.Uninstall) > 0 {
		p.add(Step{ID: StepUninstall, Title: i18n.T("install.step.uninstall", i18n.D{"Dists": i18n.Join(p.Uninstall)}), Kind: KindPip, Pip: &PipArgs{Sub: "uninstall", Dists: p.Uninstall}})
	}
	p.leftovers = append(p.leftovers, installed.Leftovers...)
	if len(p.leftovers) > 0 || installed.PaddleDirOrphan || t.Framework == "paddle" {
		title := i18n.T("install.step.leftovers")
		if t.Framework == "paddle" {
			title = i18n.T("install.step.leftovers_paddle")
		}
		p.add(Step{ID: StepLeftovers, Title: title, Kind: KindLeftovers})
	}
	// --no-compile: Python writes each module's .pyc the first time it is imported, as uv does by
	// default; compiling every one of torch's thousands of modules up front only makes the install slower.
	p.add(Step{ID: StepInstall, Title: i18n.T("install.step.install", i18n.D{"Pins": strings.Join(append(append([]string{}, p.pins...), p.optional...), " ")}), Kind: KindPip,
		Pip: &PipArgs{Sub: "install", Progress: progress, NoCompile: true, NoIndex: true, FindLinks: []string{p.StageDir}, Pins: p.pins, Optional: p.optional}})
	p.Pins = append(append([]string{}, p.pins...), p.optional...)
	p.OwnInstaller = !pipAskedFor()
	if p.OwnInstaller {
		p.Notes = append(p.Notes, i18n.T("install.note.own_installer"))
	}
	p.add(Step{ID: StepVerify, Title: i18n.T("install.step.verify", i18n.D{"Framework": t.Framework, "Channel": t.Channel}), Kind: KindVerify})
	p.add(Step{ID: StepLock, Title: i18n.T("install.step.lock"), Kind: KindLock, Pip: &PipArgs{Sub: "freeze"}})

	p.Source = Source{Kind: "index", IndexURL: index, FindLinks: p.FindLinks, Why: opts.SourceWhy}
	if p.Source.Why == "" {
		p.Source.Why = i18n.T("install.source.official")
		if urls.OnLoopback(index) { // never "official" for an index on this computer
			p.Source.Why = i18n.T("install.source.loopback")
		}
		if opts.IndexURLOverride != "" || p.FindLinks != "" {
			p.Source.Why = i18n.T("install.source.given")
		}
	}
	if cached {
		p.Source.Kind = "cache"
		p.Source.Why = i18n.N("install.source.cache", cachedFiles, i18n.D{"Pins": strings.Join(p.pins, " "), "Size": i18n.Size(cachedSize),
			"From": i18n.Join(cachedFrom), "Index": urls.Redact(index), "Why": p.Source.Why})
	}
	p.Notes = append(p.Notes,
		i18n.T("install.note.downloads", i18n.D{"ReportFrom": reportFrom}),
		i18n.T("install.note.nothing_uninstalled", i18n.D{"Dir": p.StageDir}),
		i18n.T("install.note.constraints", i18n.D{"File": p.ConstraintsFile, "Config": keep.ConfigFile(p.Venv, hostGOOS()),
			"Off": shellquote.Command(hostGOOS(), "gpuwiz", "protect", "--off", "--venv", p.Venv)}))
	if t.Framework == "torch" && len(installed.PaddleDists) > 0 || t.Framework == "paddle" && len(installed.TorchFamily) > 0 {
		p.Warnings = append(p.Warnings, i18n.T("install.warn.both_frameworks"))
	}
	return p, nil
}

// add appends s, its pip commands rendered for showing (Argv, Offline) and listed in Commands.
func (p *Plan) add(s Step) {
	if s.Pip != nil {
		s.Argv = pipArgv(p.pip, *s.Pip)
	}
	if s.OfflinePip != nil {
		s.Offline = pipArgv(p.pip, *s.OfflinePip)
	}
	p.Steps = append(p.Steps, s)
	if s.Offline != nil {
		p.Commands = append(p.Commands, s.Offline)
	}
	if s.Argv != nil {
		p.Commands = append(p.Commands, s.Argv)
	}
}

// Shows says whether a summary shows s's command: not the uninstall and install steps that
// gpuwiz's own uninstaller and installer do (Plan.Commands still lists every child argv, pip's
// fallback included).
func (p Plan) Shows(s Step) bool {
	return !(p.OwnInstaller && (s.ID == StepUninstall || s.ID == StepInstall))
}

// ShownCommands are the commands a summary shows, in order: each step's that Shows (a stage's
// offline try first).
func (p Plan) ShownCommands() [][]string {
	var out [][]string
	for _, s := range p.Steps {
		if !p.Shows(s) {
			continue
		}
		if s.Offline != nil {
			out = append(out, s.Offline)
		}
		if s.Argv != nil {
			out = append(out, s.Argv)
		}
	}
	return out
}

// Removing is Uninstall with the version the venv holds: "torch==2.6.0+cu126".
func (p Plan) Removing() []string {
	out := make([]string, 0, len(p.Uninstall))
	for _, name := range p.Uninstall {
		if d, ok := p.Had.Dist(name); ok && d.Version != "" {
			name += "==" + d.Version
		}
		out = append(out, name)
	}
	return out
}

// Step returns the plan's step with id.
func (p Plan) Step(id string) (Step, bool) {
	for _, s := range p.Steps {
		if s.ID == id {
			return s, true
		}
	}
	return Step{}, false
}

func (p Plan) depsFile() string {
	return filepath.Join(p.StageDir, "gpuwiz-deps-"+pep.Normalize(p.Target.Packages[0].Name)+"-"+p.Target.Packages[0].Version+".txt")
}

// pin is the exact requirement with the local label, so a +cpu build of the same number never fits.
func pin(pkg matrix.Package) string { return pkg.Name + "==" + pkg.Version + pkg.LocalLabel }

// sysPrefix is the venv Python's sys.prefix, where pip reads the venv's own configuration file:
// what inspecting the venv said, else (a venv not made yet) the venv's root.
func (p Plan) sysPrefix() string {
	if p.Had.Python.Prefix != "" {
		return p.Had.Python.Prefix
	}
	return p.Venv
}
