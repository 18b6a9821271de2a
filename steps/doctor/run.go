package doctor

import (
	"context"
	"os"
	"runtime"
	"strings"
	"sync"

	"gpuwiz/matrix"
	"gpuwiz/steps/envroot"
	"gpuwiz/steps/gpu"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/install"
	"gpuwiz/steps/pep"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
)

// Inspection is what reading a Python's site-packages gave, without importing any framework.
type Inspection struct {
	Python          PythonFacts
	Prefix          string // sys.prefix: where pip reads the environment's own configuration
	SitePackages    string
	Dists           []Dist
	Leftovers       []string // full paths
	PaddleDirOrphan string
	PipVersion      string
}

// Deps are doctor's windows onto the machine; nil fields fall back to the real machine where one exists.
type Deps struct {
	Runner   runner.Runner
	GPU      func(context.Context) (gpu.Report, error)
	Matrix   *matrix.Matrix
	Registry Registry // nil off Windows: the registry checks are skipped
	Env      Environ
	FS       FS
	GOOS     string
	SelfPID  int
	// Inspect reads the environment's installed distributions (default: pyenv.Inspect).
	Inspect func(ctx context.Context, r runner.Runner, python string) (Inspection, error)
	// Verify runs the framework's own check and one computation (default: verify.Run).
	Verify func(ctx context.Context, r runner.Runner, python, framework, channel string) (FrameworkCheck, error)
	// Reinstall installs a build through the install engine (used by ApplyRepair); nil: repairs stop there.
	Reinstall ReinstallFunc
	// Journal reads the venv's journal for a run that did not finish (default: install.FindInterrupted).
	Journal func(venv string) *install.Interrupted
	// Recover puts back what an interrupted run changed, from its backup (default: install.Recover).
	Recover RecoverFunc

	// early are probes started before Run was called, on the environment as Run will find it (the
	// check after a repair starts them as soon as the install step has written the new set, beside
	// the engine's verify step); nil: Run starts its own.
	early *probes
}

// Options name the environment to check: a venv root or a Python; neither means the python on PATH.
type Options struct {
	Venv   string
	Python string
	// SkipFrameworkCheck leaves out importing the framework (fast, and safe when imports hang).
	SkipFrameworkCheck bool
	// RepairFollows: this diagnosis is the first half of doctor --fix. When files of the installed
	// build are missing (the repair reinstalls it), or an install was interrupted (the repair first
	// puts back what it changed), the check after the repair runs the framework's check on what the
	// repair leaves: it is then not run before (FrameworkCheck.Deferred), on a build known to be
	// incomplete. Importing torch and starting CUDA takes seconds, twice otherwise.
	RepairFollows bool
}

// InputError is bad input from the user: the CLI exits 2 with its message.
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }

func (d Deps) withDefaults() Deps {
	if d.GOOS == "" {
		d.GOOS = runtime.GOOS
	}
	if d.Env == nil {
		d.Env = OSEnviron{}
	}
	if d.FS == nil {
		d.FS = OSFS{}
	}
	if d.Runner == nil {
		d.Runner = runner.New(nil)
	}
	if d.SelfPID == 0 {
		d.SelfPID = os.Getpid()
	}
	if d.Inspect == nil {
		d.Inspect = inspectWithPyenv
	}
	if d.Verify == nil {
		d.Verify = verifyWithVerify
	}
	if d.Journal == nil {
		d.Journal = install.FindInterrupted
	}
	if d.Recover == nil {
		r := d.Runner
		d.Recover = func(ctx context.Context, venv string, lines chan<- runner.Line) error {
			return recoverWithInstall(ctx, r, venv, lines)
		}
	}
	return d
}

// ActiveEnv is the environment the shell has active, with its python: the venv VIRTUAL_ENV names,
// else the conda env CONDA_PREFIX names (conda activate sets it); "" when neither names one that
// holds its python.
func ActiveEnv(fsys FS, goos string, env Environ) (python, venv string) {
	if fsys == nil {
		fsys = OSFS{}
	}
	if ve := getenv(env, "VIRTUAL_ENV"); ve != "" {
		v := pyenv.Venv{Root: ve, GOOS: goos}
		if _, err := fsys.Stat(v.Python()); err == nil {
			return v.Python(), ve
		}
	}
	if cp := getenv(env, "CONDA_PREFIX"); cp != "" {
		v := pyenv.Venv{Root: cp, GOOS: goos}
		if st, err := fsys.Stat(v.CondaMeta()); err == nil && st.IsDir() {
			if _, err := fsys.Stat(v.CondaPython()); err == nil {
				return v.CondaPython(), cp
			}
		}
	}
	return "", ""
}

// ResolvePython turns the options into the interpreter to check and the venv root ("" when none).
func ResolvePython(o Options, fsys FS, goos string, env Environ) (python, venv string, err error) {
	switch {
	case o.Venv != "" && o.Python != "":
		return "", "", &InputError{i18n.T("doctor.input.both")}
	case o.Venv != "":
		st, err := fsys.Stat(o.Venv)
		if err != nil || !st.IsDir() {
			return "", "", &InputError{i18n.T("doctor.input.no_venv_dir", i18n.D{"Venv": o.Venv})}
		}
		// A venv, a conda env, an embedded Python or a Python's own prefix, told apart by its files.
		l := pyenv.DetectLayout(fsys, o.Venv, goos)
		switch l.Kind {
		case "":
			return "", "", &InputError{i18n.T("doctor.input.not_env", i18n.D{"Venv": o.Venv})}
		case pyenv.EnvConda:
			if _, err := fsys.Stat(l.Python); err != nil {
				return "", "", &InputError{i18n.T("doctor.input.conda_no_python", i18n.D{"Venv": o.Venv, "Python": l.Python})}
			}
		default:
			if _, err := fsys.Stat(l.Python); err != nil {
				return "", "", &InputError{i18n.T("doctor.input.venv_no_python", i18n.D{"Venv": o.Venv, "Python": l.Python})}
			}
		}
		return l.Python, o.Venv, nil
	case o.Python != "":
		if st, err := fsys.Stat(o.Python); err != nil || st.IsDir() {
			return "", "", &InputError{i18n.T("doctor.input.no_python_file", i18n.D{"Python": o.Python})}
		}
		return o.Python, "", nil
	}
	if python, venv := ActiveEnv(fsys, goos, env); venv != "" {
		return python, venv, nil
	}
	if p := findOnPath(fsys, goos, env, "python"); p != "" {
		return p, "", nil
	}
	if p := findOnPath(fsys, goos, env, "python3"); p != "" {
		return p, "", nil
	}
	return "", "", &InputError{i18n.T("doctor.input.no_python_on_path")}
}

// isActive: the environment checked is the one the user's shell has active: the venv VIRTUAL_ENV
// or CONDA_PREFIX names, or (no venv) the python a shell finds first on PATH.
func isActive(d Deps, python, venv string) bool {
	if venv == "" {
		p := findOnPath(d.FS, d.GOOS, d.Env, "python")
		if p == "" {
			p = findOnPath(d.FS, d.GOOS, d.Env, "python3")
		}
		return p != "" && samePath(p, python, d.GOOS)
	}
	for _, k := range []string{"VIRTUAL_ENV", "CONDA_PREFIX"} {
		if v := getenv(d.Env, k); v != "" && samePath(v, venv, d.GOOS) {
			return true
		}
	}
	return false
}

// Run collects the evidence in the guides' order and diagnoses it. Only bad input is an error:
// everything the machine does wrong becomes a finding.
func Run(ctx context.Context, deps Deps, opts Options) (Report, error) {
	d := deps.withDefaults()
	python, venv, err := ResolvePython(opts, d.FS, d.GOOS, d.Env)
	if err != nil {
		return Report{}, err
	}
	ev, checked := collect(ctx, d, opts, python, venv)
	if err := ctx.Err(); err != nil {
		return Report{}, err
	}
	return buildReport(ev, checked), nil
}

func collect(ctx context.Context, d Deps, opts Options, python, venv string) (*Evidence, []string) {
	ev := &Evidence{GOOS: d.GOOS, Venv: venv, Matrix: d.Matrix, SelfPID: d.SelfPID, Active: isActive(d, python, venv)}
	if venv != "" {
		ev.Env = pyenv.DetectLayout(d.FS, venv, d.GOOS)
	}
	var checked []string
	step := func(s string) { checked = append(checked, s) }

	step("Python: " + python)
	p := d.early
	if !p.of(python, venv) {
		p = startProbes(ctx, d, python, venv)
	}
	defer p.stop()
	in, err := p.inspection()
	ev.Python = in.Python
	if ev.Python.Path == "" {
		ev.Python.Path = python
	}
	if err != nil {
		ev.Python.Error = err.Error()
	}
	if venv != "" && ev.Python.BasePrefix == "" {
		ev.Python.BasePrefix = venvHome(d.FS, d.GOOS, venv)
	}
	ev.SitePackages, ev.Dists, ev.Leftovers, ev.PaddleDirOrphan = in.SitePackages, in.Dists, in.Leftovers, in.PaddleDirOrphan
	prefix := venv
	if prefix == "" && ev.SitePackages != "" {
		prefix = ev.SitePackages // a Python named without its environment: its site-packages at least
	}
	ev.MissingFiles, ev.RecordOutside = findMissingFiles(d.FS, d.GOOS, ev.SitePackages, ev.Dists, envroot.New(prefix))
	step(i18n.T("doctor.checked.packages"))

	if venv != "" {
		ev.Lock = readLock(d.FS, d.GOOS, venv)
		ev.Interrupted = d.Journal(venv)
		ev.Protection = readProtection(d.FS, d.GOOS, venv)
		collectUV(d, ev)
		if st, err := d.FS.Stat(joinFor(d.GOOS, venv, "conda-meta")); err == nil && st.IsDir() {
			fws := []string{"torch", "paddle"}
			if fw := ev.installedFramework(); fw != "" {
				fws = []string{fw}
			}
			for _, fw := range fws {
				ev.CondaConflicts = append(ev.CondaConflicts, pyenv.CondaConflictWarnings(venv, fw)...)
			}
		}
	}
	step(i18n.T("doctor.checked.build"))

	// The framework's own check (a Python that imports the framework and starts CUDA: seconds) runs
	// beside everything after it, which does not depend on it: the driver, the libraries and paths
	// (and pip's answers, started with the inspect). Each writes its own fields of ev; the list of
	// what was checked keeps the guides' order.
	var wg sync.WaitGroup
	fw := ev.installedFramework()
	checkFramework := fw != "" && ev.Python.Error == "" && !opts.SkipFrameworkCheck
	interrupted := ev.Interrupted != nil && !ev.Interrupted.Running
	if checkFramework && opts.RepairFollows && venv != "" && (len(ev.MissingFiles) > 0 || interrupted) {
		checkFramework = false
		ev.Framework = FrameworkCheck{Framework: fw, Deferred: true}
	}
	if checkFramework {
		channel := ""
		if ev.Lock != nil {
			channel = ev.Lock.Channel
		} else if t := ev.Dist("torch"); fw == "torch" && t != nil {
			channel = pep.Channel(t.LocalLabel)
		}
		wg.Go(func() {
			fc, err := d.Verify(ctx, d.Runner, python, fw, channel)
			fc.Ran, fc.Framework = true, fw
			if err != nil && fc.Error == "" {
				fc.Error = err.Error()
			}
			ev.Framework = fc
		})
	}
	if d.GPU != nil {
		wg.Go(func() {
			rep, err := d.GPU(ctx)
			ev.GPU = rep
			if err != nil {
				ev.GPUError = err.Error()
			}
		})
	}
	if v, ok := d.Env.LookupEnv("CUDA_VISIBLE_DEVICES"); ok {
		ev.CUDAVisibleDevices = &v
	}
	wg.Go(func() {
		ev.DLLs = scanRuntimeDLLs(d.FS, d.GOOS, d.Env, []string{venv, ev.SitePackages})
		if d.GOOS == "windows" {
			ev.Registry = readRegistryFacts(d.Registry)
			// It reads ev.Framework only when no framework was found above, and then no check runs.
			ev.VCRuntimeCopies = findRuntimeCopies(d.FS, d.GOOS, d.Env, ev)
			ev.Paths = collectPaths(ctx, d, python, venv)
		}
	})
	wg.Wait()
	ev.PipIndexes, ev.PipOnPath = p.pip()

	step(i18n.T("doctor.checked.driver"))
	if checkFramework {
		step(i18n.T("doctor.checked.own_check", i18n.D{"Framework": frameworkTitle(fw)}))
	} else if ev.Framework.Deferred && interrupted {
		step(i18n.T("doctor.checked.own_check_after_restore", i18n.D{"Framework": frameworkTitle(fw)}))
	} else if ev.Framework.Deferred {
		step(i18n.T("doctor.checked.own_check_deferred", i18n.D{"Framework": frameworkTitle(fw)}))
	}
	step(i18n.T("doctor.checked.memory"))
	step(i18n.T("doctor.checked.pip_index"))
	step(i18n.T("doctor.checked.pip_path"))
	if d.GOOS == "windows" {
		step(i18n.T("doctor.checked.dlls_windows"))
		if d.Registry != nil {
			step(i18n.T("doctor.checked.registry"))
		}
		step(i18n.T("doctor.checked.non_ascii"))
	} else {
		step(i18n.T("doctor.checked.libs_linux"))
	}
	return ev, checked
}

func buildReport(ev *Evidence, checked []string) Report {
	fs := Diagnose(ev)
	rep := Report{
		Findings: fs, Checked: checked, GOOS: ev.GOOS, Venv: ev.Venv, Python: ev.Python,
		SitePackages: ev.SitePackages, Framework: ev.installedFramework(), Lock: ev.Lock, Environment: ev.Env.Kind, UV: ev.UV,
		FrameworkCheck: ev.Framework, Leftovers: ev.Leftovers, MissingFiles: ev.MissingFiles, RecordOutside: ev.RecordOutside, Interrupted: ev.Interrupted, PaddleDirOrphan: ev.PaddleDirOrphan,
		Installed: []Dist{},
		GPU: GPUSummary{Available: ev.GPU.Available, Backend: ev.GPU.Backend, DriverVersion: ev.GPU.DriverVersion,
			CUDAMax: ev.GPU.CUDAMax, Simulated: ev.GPU.Simulated, Message: ev.GPU.Message, GPUs: []GPULine{}},
	}
	if rep.Findings == nil {
		rep.Findings = []Finding{}
	}
	for _, f := range fs {
		if f.IsProblem() {
			rep.Problems++
		}
	}
	for _, n := range familyDists {
		if d := ev.Dist(n); d != nil {
			rep.Installed = append(rep.Installed, *d)
		}
	}
	for _, g := range ev.GPU.GPUs {
		rep.GPU.GPUs = append(rep.GPU.GPUs, GPULine{g.Index, g.Name, g.ComputeCapability, g.MemoryTotalMiB, g.MemoryUsedMiB})
	}
	return rep
}

// findOnPath resolves a command name the way a shell would (PATHEXT on Windows).
func findOnPath(fsys FS, goos string, env Environ, name string) string {
	exts := []string{""}
	if goos == "windows" {
		exts = nil
		for _, e := range strings.Split(getenv(env, "PATHEXT"), ";") {
			if e = strings.TrimSpace(e); e != "" {
				exts = append(exts, strings.ToLower(e))
			}
		}
		if len(exts) == 0 {
			exts = []string{".com", ".exe", ".bat", ".cmd"}
		}
	}
	for _, dir := range pathList(goos, getenv(env, "PATH")) {
		for _, ext := range exts {
			p := joinFor(goos, dir, name+ext)
			if st, err := fsys.Stat(p); err == nil && !st.IsDir() && (goos == "windows" || st.Mode()&0o111 != 0) {
				return p
			}
		}
	}
	return ""
}
