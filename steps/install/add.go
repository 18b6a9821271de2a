package install

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/keep"
	"gpuwiz/steps/netproxy"
	"gpuwiz/steps/pep"
	"gpuwiz/steps/pipcmd"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/urls"
)

// addStageRoot is the wheel cache's folder of the project packages add stages, one folder per venv.
const addStageRoot = "add"

// AddOptions asks for a project's requirements in a venv gpuwiz installed a framework into.
type AddOptions struct {
	Venv         pyenv.Venv
	Requirements []string // requirements files (-r), absolute
	Packages     []string // requirement specifiers ("ultralytics", "opencv-python<5")
	IndexURL     string   // where the project's packages come from ("" = the lock's mirror, else the user's pip settings)
	FindLinks    string
	// Mirror takes the place of the lock's mirror (a source the user chose): the project's packages
	// come from it, with the framework's index beside it as beside the lock's. "" keeps the lock's.
	Mirror string
	// NoMirror sets the lock's mirror aside: the project's packages come from the user's pip settings.
	NoMirror bool
	// ExtraIndexURL is the framework's own index beside the lock's mirror (set by withLockSources):
	// a package of the framework's family the project asks for is found at its channel's label.
	ExtraIndexURL string
	CacheDir      string
	LogPath       string
	Environ       []string // nil: os.Environ()
	// Net is the run's proxy rules for the venv's Python (see Options.Net); nil: the engine's own.
	Net *netproxy.Resolver
	// VerifyMatrixN is the side of the verification matmul after the install (0: a quick one).
	VerifyMatrixN int
}

// AddChange is one dist the project's requirements would add, upgrade or downgrade.
type AddChange struct {
	Name string `json:"name"`
	From string `json:"from,omitempty"` // "" for a new one
	To   string `json:"to"`
	// Direct is where a direct requirement comes from (a wheel file on disk or at a URL, a
	// `name @ URL` requirement, a project folder): the stage takes it from there, not from an index.
	Direct string `json:"direct,omitempty"`

	requested bool   // named by the user (a requirement, a file), not pulled in as a dependency
	directURL []byte // the direct_url.json pip writes for a direct requirement
}

// Trouble codes: known combinations that break an environment, named before anything changes.
const (
	TroubleSecondFramework = "second-framework" // torch and Paddle in one env
	TroubleOpenCVVariants  = "opencv-variants"  // two of opencv-python, -contrib, -headless: they overwrite one cv2
	TroubleNumpyMajor      = "numpy-major"      // numpy 1 ↔ 2 under a framework built for the other
)

// AddTrouble is one known troublemaker among the changes.
type AddTrouble struct {
	Code  string   `json:"code"`
	Dists []string `json:"dists"` // the dists involved, "name version"
}

// AddRefusal says why the requirements cannot go into this venv without replacing the framework
// build: which requirement needs which framework versions, and the build installed.
type AddRefusal struct {
	Requirement string   `json:"requirement"` // "needsnew 1.0"
	Needs       string   `json:"needs"`       // "torch>=2.7"
	Installed   string   `json:"installed"`   // "torch 2.6.0+cu126"
	PipSays     []string `json:"pip_says,omitempty"`
}

// AddPreview is what installing the project's requirements would do, from pip's dry run under
// the venv's constraints.
type AddPreview struct {
	Venv        string   `json:"venv"`
	Framework   string   `json:"framework"`
	Channel     string   `json:"channel"`
	Build       []string `json:"build"` // the lock's framework pins the install keeps
	Constraints string   `json:"constraints"`
	// IndexURL is where the project's packages are looked for ("" for the user's own pip
	// settings): the one given, else the mirror the venv's lock recorded, with the framework's
	// index beside it (ExtraIndexURL).
	IndexURL      string       `json:"index_url,omitempty"`
	ExtraIndexURL string       `json:"extra_index_url,omitempty"`
	Changes       []AddChange  `json:"changes"`
	Troubles      []AddTrouble `json:"troubles,omitempty"`
	Refusal       *AddRefusal  `json:"refusal,omitempty"`
}

// ErrNotGpuwizVenv is a venv without gpuwiz's requirements.lock: there is no build to keep.
var ErrNotGpuwizVenv error = i18n.Lazy(func() string { return i18n.T("install.add.err.no_lock") })

// ErrAddRefused is a preview with a Refusal.
var ErrAddRefused error = i18n.Lazy(func() string { return i18n.T("install.add.err.refused") })

// withLockSources takes the sources the venv's lock recorded when none was given: the mirror the
// build's dependencies came from for the project's packages, and the framework's index beside it.
// Without a recorded mirror the user's own pip settings stay (where their packages usually come from).
// A Mirror or NoMirror the user chose takes the place of the lock's mirror.
func (o AddOptions) withLockSources(src LockSources) AddOptions {
	mirror := src.Mirror
	switch {
	case o.NoMirror:
		mirror = ""
	case o.Mirror != "":
		mirror = o.Mirror
	}
	if o.IndexURL != "" || o.FindLinks != "" || mirror == "" {
		return o
	}
	o.IndexURL = mirror
	o.ExtraIndexURL = BesideMirror(src, mirror)
	return o
}

// BesideMirror is the framework's index pip is given beside mirror for an add into the venv whose
// lock says src: the index its build came from, unless that is the mirror itself ("" none).
func BesideMirror(src LockSources, mirror string) string {
	if src.IndexURL != "" && src.IndexURL != mirror {
		return src.IndexURL
	}
	return ""
}

// from sets a's sources to the add's: its index, the framework's index beside it, its find-links page.
func (o AddOptions) from(a *PipArgs) {
	a.IndexURL = o.IndexURL
	if o.ExtraIndexURL != "" {
		a.ExtraIndexURLs = []string{o.ExtraIndexURL}
	}
	if o.FindLinks != "" {
		a.FindLinks = []string{o.FindLinks}
	}
}

func (o AddOptions) wanted() []string {
	var out []string
	for _, r := range o.Requirements {
		out = append(out, "-r", r)
	}
	return append(out, o.Packages...)
}

// addEnv is the user's environment for pip (their index settings stay: the project's packages come
// from where they usually do), with the venv's constraints given on the command line.
func (o AddOptions) addEnv() []string {
	env := o.Environ
	if env == nil {
		env = os.Environ()
	}
	var out []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		switch strings.ToUpper(k) {
		case "PIP_TARGET", "PIP_PREFIX", "PIP_USER", "PIP_NO_DEPS", "PIP_REQUIRE_VIRTUALENV":
			continue
		}
		out = append(out, kv)
	}
	return append(out, "PYTHONNOUSERSITE=1", "PYTHONIOENCODING=utf-8", "PIP_DISABLE_PIP_VERSION_CHECK=1", "PIP_NO_INPUT=1")
}

// PreviewAdd reads the venv's lock and asks pip, without installing anything, what the project's
// requirements would change under the venv's constraints.
func PreviewAdd(ctx context.Context, r runner.Runner, o AddOptions) (AddPreview, error) {
	root := o.Venv.Root
	p := AddPreview{Venv: root, Constraints: filepath.Join(root, "constraints.txt"), Changes: []AddChange{}}
	// A run that died half-way left the venv between two builds: say so, and change nothing.
	if in := FindInterrupted(root); in != nil {
		return p, &InterruptedError{In: *in}
	}
	lock, err := os.ReadFile(filepath.Join(root, "requirements.lock"))
	if err != nil || !bytes.Contains(lock, []byte("written by gpuwiz")) {
		return p, ErrNotGpuwizVenv
	}
	src := ReadLockSources(root)
	p.Framework, p.Channel = src.Framework, src.Channel
	o = o.withLockSources(src)
	p.IndexURL, p.ExtraIndexURL = o.IndexURL, o.ExtraIndexURL
	p.Build = keep.LockPins(lock)
	if len(p.Build) == 0 {
		return p, ErrNotGpuwizVenv
	}
	if len(o.Requirements)+len(o.Packages) == 0 {
		return p, badInput(i18n.T("install.add.err.nothing"))
	}
	for _, u := range []string{o.IndexURL, o.FindLinks} {
		if u != "" {
			if _, err := urls.Check(u); err != nil {
				return p, badInput(err.Error())
			}
		}
	}
	// The constraints file must hold the build, whatever happened to it since.
	if _, _, err := keep.Ensure(root, ""); err != nil && !errors.Is(err, keep.ErrUserConstraint) {
		return p, err
	}
	installed, err := pyenv.Inspect(ctx, r, o.Venv.Python())
	if err != nil {
		return p, i18n.Wrap(err, i18n.T("install.err.inspect", i18n.D{"Venv": root, "Err": err}))
	}
	if err := CheckTarget(o.Venv.Layout(), installed, false); err != nil {
		return p, err
	}
	have := map[string]string{}
	for _, d := range installed.Dists {
		have[pep.Normalize(d.Name)] = d.Version
	}
	report := filepath.Join(root, ".gpuwiz", "add-report.json")
	os.MkdirAll(filepath.Dir(report), 0o755)
	defer os.Remove(report)
	pip, err := o.pip(ctx, r)
	if err != nil {
		return p, err
	}
	dry := PipArgs{Sub: "install", DryRun: true, Report: report, Constraints: []string{p.Constraints}, ReqFiles: o.Requirements, Requirements: o.Packages}
	o.from(&dry)
	argv := pipArgv(pip, dry)
	var out bytes.Buffer
	res := r.Run(ctx, runner.Cmd{Name: "pip install --dry-run", Argv: argv, Env: pip.Env(o.addEnv()), Stdout: &out}, nil) //i18n:raw the step's label in the log
	if res.Err != nil {
		lines := append(strings.Split(out.String(), "\n"), res.Tail...)
		if ref := conflictRefusal(lines, p.Build, have); ref != nil {
			p.Refusal = ref
			return p, ErrAddRefused
		}
		kind, pkg := ClassifyPipFailure(lines)
		return p, &AddResolveError{Kind: kind, Package: pkg,
			Err: i18n.Wrap(res.Err, i18n.T("install.add.err.resolve", i18n.D{"Err": res.Err, "Tail": strings.Join(lastN(res.Tail, 6), "\n")}))}
	}
	rep, err := readReport(report)
	if err != nil {
		return p, err
	}
	after := map[string]string{}
	for k, v := range have {
		after[k] = v
	}
	for _, it := range rep.Install {
		n := pep.Normalize(it.Metadata.Name)
		if from := have[n]; from != it.Metadata.Version {
			c := AddChange{Name: n, From: from, To: it.Metadata.Version, requested: it.Requested}
			if it.IsDirect {
				c.Direct = directSource(it.DownloadInfo.URL)
				c.directURL = pythonJSON(it.downloadInfo)
			}
			p.Changes = append(p.Changes, c)
		}
		after[n] = it.Metadata.Version
	}
	slices.SortFunc(p.Changes, func(a, b AddChange) int { return strings.Compare(a.Name, b.Name) })
	// The framework build itself never moves (the constraints should have made pip refuse).
	for _, pin := range p.Build {
		name, version, _ := strings.Cut(pin, "==")
		n := pep.Normalize(name)
		if v, ok := after[n]; ok && v != version {
			p.Refusal = &AddRefusal{Requirement: strings.Join(o.wanted(), " "), Needs: n + "==" + v, Installed: n + " " + version}
			return p, ErrAddRefused
		}
	}
	p.Troubles = troubles(p.Framework, have, after)
	// A wheel built for another torch or CUDA than the build (flash-attn, xformers, sageattention
	// wheels name both in their local label) is refused before anything changes.
	for _, c := range p.Changes {
		if ref := wheelBuiltForOther(c, p.Build); ref != nil {
			p.Refusal = ref
			return p, ErrAddRefused
		}
	}
	return p, nil
}

func lastN(s []string, n int) []string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

var dependsOn = regexp.MustCompile(`^\s*(\S+) (\S+) depends on (.+?)\s*$`)

// AddResolveError is pip's dry run of an add failing for another reason than a refusal: what pip's
// output shows went wrong, for a front end to word (its message is pip's last lines, as before).
type AddResolveError struct {
	Kind    string // PipFailUnreachable, PipFailNoSuchPackage, PipFailConflict; "" not known
	Package string // the requirement pip found no release of (PipFailNoSuchPackage), as pip wrote it
	Err     error
}

func (e *AddResolveError) Error() string { return e.Err.Error() }
func (e *AddResolveError) Unwrap() error { return e.Err }

// What a failed pip install or dry run shows went wrong (ClassifyPipFailure).
const (
	PipFailUnreachable   = "unreachable"     // an index gave no answer: refused, timed out, a proxy, TLS or name error, 5xx
	PipFailNoSuchPackage = "no-such-package" // no release of a requirement that fits, on the indexes asked
	PipFailConflict      = "conflict"        // the requirements' versions cannot all be met together
)

var (
	// pipConflict: pip's resolver gave up on versions that conflict.
	pipConflict = regexp.MustCompile(`ResolutionImpossible|conflicting dependencies|The conflict is caused by`)
	// pipUnreachable: urllib3's and pip's words for an index that did not answer (pip prints them in
	// its "Retrying" warnings and "Could not fetch URL" lines; with PIP_RETRIES=0 it prints none).
	pipUnreachable = regexp.MustCompile(`Retrying \(Retry\(|NewConnectionError|Failed to establish a new connection|ConnectTimeoutError|ReadTimeoutError|ProxyError|SSLError|` +
		`Could not fetch URL|Name or service not known|Temporary failure in name resolution|nodename nor servname|getaddrinfo failed|No connection could be made`)
	// pipNoMatch: pip found no release of a requirement.
	pipNoMatch = regexp.MustCompile(`No matching distribution found for (\S+)|Could not find a version that satisfies the requirement (\S+)`)
)

// ClassifyPipFailure reads the output of a failed pip install (or dry run): whether the versions
// conflict, an index did not answer, or a requirement has no release there ("" for none of these),
// and for the last, the requirement as pip wrote it. A conflict is looked for first (pip reached its
// indexes then), an index that did not answer before a missing release (pip then finds no release
// either).
func ClassifyPipFailure(lines []string) (kind, pkg string) {
	text := strings.Join(lines, "\n")
	switch {
	case pipConflict.MatchString(text):
		return PipFailConflict, ""
	case pipUnreachable.MatchString(text):
		return PipFailUnreachable, ""
	}
	if m := pipNoMatch.FindStringSubmatch(text); m != nil {
		return PipFailNoSuchPackage, m[1] + m[2]
	}
	return "", ""
}

// conflictRefusal reads pip's ResolutionImpossible text: "X 1.0 depends on torch>=2.7" where torch
// is one of the build's dists.
func conflictRefusal(tail, build []string, have map[string]string) *AddRefusal {
	fam := map[string]string{}
	for _, pin := range build {
		name, version, _ := strings.Cut(pin, "==")
		fam[pep.Normalize(name)] = version
	}
	for _, l := range tail {
		m := dependsOn.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		spec := strings.TrimSpace(m[3])
		name := spec
		if i := strings.IndexAny(spec, "<>=!~[; ("); i > 0 {
			name = spec[:i]
		}
		n := pep.Normalize(name)
		if v, ok := fam[n]; ok {
			var says []string
			for _, t := range tail {
				if t = strings.TrimSpace(t); t != "" && (strings.Contains(t, "depends on") || strings.Contains(t, "requested") || strings.Contains(t, "conflict")) {
					says = append(says, t)
				}
			}
			return &AddRefusal{Requirement: m[1] + " " + m[2], Needs: spec, Installed: n + " " + v, PipSays: says}
		}
	}
	return nil
}

// troubles names the known troublemakers in the environment as the install would leave it.
func troubles(framework string, before, after map[string]string) []AddTrouble {
	var out []AddTrouble
	pair := func(n string) string { return n + " " + after[n] }
	if framework == "torch" {
		for _, n := range pep.PaddleDists {
			if _, was := before[n]; !was && after[n] != "" {
				out = append(out, AddTrouble{Code: TroubleSecondFramework, Dists: []string{pair(n)}})
			}
		}
	} else if framework == "paddle" {
		for _, n := range pep.TorchFamily {
			if _, was := before[n]; !was && after[n] != "" {
				out = append(out, AddTrouble{Code: TroubleSecondFramework, Dists: []string{pair(n)}})
			}
		}
	}
	var cv []string
	for _, n := range []string{"opencv-python", "opencv-contrib-python", "opencv-python-headless", "opencv-contrib-python-headless"} {
		if after[n] != "" {
			cv = append(cv, pair(n))
		}
	}
	if len(cv) > 1 {
		out = append(out, AddTrouble{Code: TroubleOpenCVVariants, Dists: cv})
	}
	if b, a := before["numpy"], after["numpy"]; b != "" && a != "" && major(b) != major(a) {
		out = append(out, AddTrouble{Code: TroubleNumpyMajor, Dists: []string{"numpy " + b, "numpy " + a}})
	}
	return out
}

// shortHash names a venv's stage folder apart from another venv of the same name.
func shortHash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:4])
}

// pip is the pip that runs against the venv (pipcmd.For): its own, else gpuwiz's.
func (o AddOptions) pip(ctx context.Context, r runner.Runner) (pipcmd.Pip, error) {
	cache := o.CacheDir
	if cache == "" {
		cache = DefaultCacheDir()
	}
	pip, err := pipcmd.For(ctx, r, o.Venv.Python(), o.addEnv(), UnpackedDir(cache))
	if err != nil {
		return pip, i18n.Wrap(err, i18n.T("install.err.inspect", i18n.D{"Venv": o.Venv.Root, "Err": err}))
	}
	return pip, nil
}

func major(v string) string { m, _, _ := strings.Cut(v, "."); return m }

// PrepareAdd turns a preview without a refusal into a plan for the install engine: snapshot, the
// project's wheels downloaded into a stage folder, a backup of every dist they replace, the install
// from that folder under the constraints, a quick verification of the GPU build, and the lock files
// written anew (the build's constraints unchanged). A failure anywhere puts the venv back.
func PrepareAdd(ctx context.Context, r runner.Runner, o AddOptions, prev AddPreview) (Plan, error) {
	if prev.Refusal != nil {
		return Plan{}, ErrAddRefused
	}
	root := o.Venv.Root
	installed, err := pyenv.Inspect(ctx, r, o.Venv.Python())
	if err != nil {
		return Plan{}, i18n.Wrap(err, i18n.T("install.err.inspect", i18n.D{"Venv": root, "Err": err}))
	}
	runPip, err := o.pip(ctx, r)
	if err != nil {
		return Plan{}, err
	}
	if runPip.Own != "" {
		installed.PipVersion = runPip.OwnVersion
	}
	userEnv := runPip.Env(o.addEnv())
	cache := o.CacheDir
	if cache == "" {
		cache = DefaultCacheDir()
	}
	src := ReadLockSources(root)
	o = o.withLockSources(src)
	p := Plan{
		Uninstall: []string{}, Install: []string{}, Commands: [][]string{}, Notes: []string{}, Warnings: []string{},
		Venv: root, Target: Target{Framework: prev.Framework, Channel: prev.Channel, FrameworkVersion: src.Version},
		IndexURL: src.IndexURL, FindLinks: src.FindLinks,
		StageDir:        filepath.Join(cache, addStageRoot, pep.Normalize(filepath.Base(root))+"-"+shortHash(root)),
		StateDir:        filepath.Join(root, ".gpuwiz"),
		LockFile:        filepath.Join(root, "requirements.lock"),
		ConstraintsFile: prev.Constraints,
		LogPath:         o.LogPath,
		PipVersion:      installed.PipVersion,
		venv:            o.Venv, verifyN: o.VerifyMatrixN, userEnv: userEnv, env: userEnv,
		pins: prev.Build, pip: runPip, net: o.Net,
	}
	if p.verifyN == 0 {
		p.verifyN = 256
	}
	p.Target.Mirror = src.Mirror
	for _, c := range prev.Changes {
		p.families = append(p.families, c.Name)
		p.Install = append(p.Install, c.Name+"=="+c.To)
		if c.requested {
			p.requested = append(p.requested, c.Name)
		}
		if c.directURL != nil {
			if p.directURLs == nil {
				p.directURLs = map[string][]byte{}
			}
			p.directURLs[c.Name] = c.directURL
		}
	}
	progress := progressFlag(installed.PipVersion)[1]
	// pip download resolves without the venv (it would look for the installed build on the
	// project's index): the stage takes exactly the wheels pip's dry run in the venv chose.
	var pins, wheels []string
	for _, c := range prev.Changes {
		if c.Direct != "" {
			wheels = append(wheels, c.Direct) // a wheel file, a URL or a folder: from where it is
			continue
		}
		pins = append(pins, c.Name+"=="+c.To)
	}
	stage := &PipArgs{Sub: "download", Progress: progress, Dest: p.StageDir, NoDeps: true, Pins: pins, Wheels: wheels}
	o.from(stage)
	p.add(Step{ID: StepSnapshot, Title: i18n.T("install.step.snapshot"), Kind: KindSnapshot, Pip: &PipArgs{Sub: "freeze", All: true}})
	p.add(Step{ID: StepStage, Title: i18n.N("install.add.step.stage", len(prev.Changes)), Kind: KindPip,
		OfflinePip: &PipArgs{Sub: "download", NoIndex: true, FindLinks: []string{p.StageDir}, Dest: p.StageDir, NoDeps: true, Pins: pins, Wheels: wheels},
		Pip:        stage})
	p.add(Step{ID: StepBackup, Title: i18n.T("install.step.backup"), Kind: KindBackup})
	p.add(Step{ID: StepInstall, Title: i18n.T("install.add.step.install"), Kind: KindPip,
		Pip: &PipArgs{Sub: "install", Progress: progress, NoCompile: true, NoIndex: true, FindLinks: []string{p.StageDir},
			Constraints: []string{prev.Constraints}, ReqFiles: o.Requirements, Requirements: o.Packages}})
	p.add(Step{ID: StepVerify, Title: i18n.T("install.step.verify", i18n.D{"Framework": prev.Framework, "Channel": prev.Channel}), Kind: KindVerify})
	p.add(Step{ID: StepLock, Title: i18n.T("install.step.lock"), Kind: KindLock, Pip: &PipArgs{Sub: "freeze"}})
	p.Source = Source{Kind: "index", IndexURL: o.IndexURL, Why: i18n.T("install.add.source")}
	return p, nil
}
