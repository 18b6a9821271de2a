package doctor

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"gpuwiz/matrix"
	"gpuwiz/steps/install"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/testkit/pyindex"
	"gpuwiz/steps/verify"
)

// engineRig is what `gpuwiz doctor --fix` wires up: the real install engine as the reinstall step
// (the same call as steps/cli's withRepairLog), a matrix whose Paddle indexes are a loopback index,
// and this process's environment made hermetic for pip (the engine's children inherit it).
type engineRig struct {
	deps    Deps
	matrix  *matrix.Matrix
	venv    string
	sp      string
	logPath string
}

// paddleWheels builds a CPU paddlepaddle 3.0.0 and a cu126 paddlepaddle-gpu 3.0.0, both real wheels.
func paddleWheels(t *testing.T) (cpu, gpu string) {
	t.Helper()
	dir := t.TempDir()
	cpu, err := pyindex.BuildWheel(dir, "paddlepaddle", "3.0.0", pyindex.PaddleStub(pyindex.StubSpec{Version: "3.0.0"}), nil, 0)
	must(t, err)
	gpu, err = pyindex.BuildWheel(dir, "paddlepaddle-gpu", "3.0.0", pyindex.PaddleStub(pyindex.StubSpec{Version: "3.0.0", CUDA: "12.6", CudaAvailable: true, CuDNN: 90501}), nil, 0)
	must(t, err)
	return cpu, gpu
}

// newEngineRig makes a real venv holding both Paddle dists (installed by real pip from wheel files),
// a stray file in paddle/ that no dist owns, and gpuwiz's lock file for paddlepaddle-gpu 3.0.0 cu126.
// indexURL is what the matrix's Paddle indexes become (…/whl/<channel>/).
func newEngineRig(t *testing.T, indexURL string) engineRig {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache")) // the engine's wheel cache and the venv lock
	for _, kv := range os.Environ() {                       // this machine's pip settings are not the test's
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "PIP_") {
			t.Setenv(k, "")
			os.Unsetenv(k)
		}
	}
	for _, kv := range pyindex.PipEnv(t) {
		if k, v, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "PIP_") {
			t.Setenv(k, v)
		}
	}
	t.Setenv("PIP_RETRIES", "0") // the engine's pip self-upgrade tries PyPI, unreachable here
	t.Setenv("PIP_TIMEOUT", "3")

	venv := newVenv(t)
	cpu, _ := paddleWheels(t)
	for _, req := range []string{"paddlepaddle==3.0.0", "paddlepaddle-gpu==3.0.0"} { // the user's two installs
		res := runner.New(nil).Run(context.Background(), runner.Cmd{Argv: pipArgv(filepath.Join(venv, "bin", "python"), "install", "--no-index", "--find-links", filepath.Dir(cpu), req), Env: pyindex.PipEnv(t)}, nil)
		if res.Err != nil {
			t.Fatalf("pip install %s: %v\n%s", req, res.Err, strings.Join(res.Tail, "\n"))
		}
	}
	sp := sitePackages(t, venv)
	must(t, os.WriteFile(filepath.Join(sp, "paddle", "stray.py"), []byte("# left by the CPU build\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(venv, "requirements.lock"), []byte("--index-url "+indexURL+"cu126/\npaddlepaddle-gpu==3.0.0\n"), 0o644))

	m, err := matrix.Parse([]byte(strings.ReplaceAll(string(matrix.EmbeddedTOML()), "https://www.paddlepaddle.org.cn/packages/stable/", indexURL)), "matrix.toml")
	must(t, err)
	d := linuxDeps(t, "gpu-cc90.json", map[string]string{"PATH": filepath.Join(venv, "bin") + ":/usr/bin:/bin"})
	d.Matrix = m
	logPath := filepath.Join(dir, "doctor-fix.log")
	logw, err := os.Create(logPath)
	must(t, err)
	t.Cleanup(func() { logw.Close() })
	r := runner.New(logw)
	d.Runner = r
	d.Reinstall = func(ctx context.Context, venv, _ string, c matrix.Candidate, lines chan<- runner.Line, installed func()) (*verify.Report, error) {
		return install.Reinstall(ctx, r, venv, c, install.ReinstallOptions{LogPath: logPath, Installed: installed}, lines)
	}
	return engineRig{deps: d, matrix: m, venv: venv, sp: sp, logPath: logPath}
}

// fix is doctor --fix --yes: doctor, the repair plan, the repair.
func (g engineRig) fix(t *testing.T) (Repair, RepairResult, []RepairEvent) {
	t.Helper()
	rep := runDoctor(t, g.deps, g.venv)
	requireCode(t, rep, CodePaddleMixed, SeverityError)
	gr, _ := g.deps.GPU(context.Background())
	plan := RepairPlan(rep, RepairOptions{Matrix: g.matrix, GPU: gr})
	if plan.Reinstall == nil || plan.Reinstall.Framework != "paddle" || plan.Reinstall.Channel != "cu126" {
		t.Fatalf("reinstall target: %+v (notes %q)", plan.Reinstall, plan.Notes)
	}
	events := make(chan RepairEvent, 4096)
	res, err := ApplyRepair(context.Background(), g.deps, plan, events)
	if err != nil {
		t.Fatalf("ApplyRepair: %v", err)
	}
	close(events)
	var evs []RepairEvent
	for e := range events {
		evs = append(evs, e)
	}
	return plan, res, evs
}

func (g engineRig) freeze(t *testing.T) string {
	t.Helper()
	var buf bytes.Buffer
	res := runner.New(nil).Run(context.Background(), runner.Cmd{Argv: pipArgv(filepath.Join(g.venv, "bin", "python"), "freeze", "--all"), Env: pyindex.PipEnv(t), Stdout: &buf}, nil)
	if res.Err != nil {
		t.Fatalf("pip freeze: %v %s", res.Err, res.Tail)
	}
	return buf.String()
}

// doctor --fix with the package index unreachable (its server closed) on a venv holding both
// Paddle dists: the engine cannot stage the new wheels, so nothing may have been removed. Both
// dists, the paddle/ directory and its stray file are still there, and the repair says it failed.
func TestFixWithIndexDownRemovesNothing(t *testing.T) {
	_, gpu := paddleWheels(t)
	ix := pyindex.Serve(t, map[string][]string{"cu126": {gpu}})
	url := ix.URL + "/whl/"
	ix.Close() // connection refused from here on

	g := newEngineRig(t, url)
	before := g.freeze(t)
	for _, want := range []string{"paddlepaddle==3.0.0", "paddlepaddle-gpu==3.0.0"} {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(want) + `$`).MatchString(before) {
			t.Fatalf("setup: %s not installed:\n%s", want, before)
		}
	}
	plan, res, _ := g.fix(t)
	if !res.Failed {
		t.Fatalf("the repair reports success with the index down: %+v", res.Steps)
	}
	after := g.freeze(t)
	if after != before {
		t.Errorf("the venv changed although nothing could be downloaded (plan %+v):\nbefore:\n%s\nafter:\n%s", plan.Actions, before, after)
	}
	for _, f := range []string{"paddle/__init__.py", "paddle/stray.py"} {
		if _, err := os.Stat(filepath.Join(g.sp, f)); err != nil {
			t.Errorf("%s is gone after a failed repair: %v", f, err)
		}
	}
	var last StepResult
	for _, s := range res.Steps {
		if s.Err != "" {
			last = s
		}
	}
	if !strings.Contains(last.Err, "holds what it held before") {
		t.Errorf("the failure does not say the venv is unchanged: %+v", res.Steps)
	}
	for _, s := range res.Steps {
		if s.OK && strings.Contains(strings.ToLower(s.Title), "uninstall") {
			t.Errorf("a removal step reports done although the install failed: %+v", res.Steps)
		}
	}
}

// recordRunner records every argv it is asked to run, and runs none.
type recordRunner struct{ log *[]string }

var recordMu sync.Mutex // doctor runs its probes side by side

func (r recordRunner) Run(_ context.Context, c runner.Cmd, _ chan<- runner.Line) runner.Result {
	recordMu.Lock()
	defer recordMu.Unlock()
	*r.log = append(*r.log, strings.Join(c.Argv, " "))
	return runner.Result{}
}

// The order of a repair with a reinstall: the engine first and alone; the plan's own harmless step
// (the cache purge) only after it succeeded, never when it failed; the Engine removals never by
// doctor itself, whatever the engine's outcome.
func TestRepairRunsOwnStepsOnlyAfterTheEngine(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // the venv lock
	venv := t.TempDir()
	sp := filepath.Join(venv, "lib", "python3.11", "site-packages")
	must(t, os.MkdirAll(filepath.Join(sp, "paddle"), 0o755))
	must(t, os.WriteFile(filepath.Join(venv, "pyvenv.cfg"), []byte("home = /usr/bin\n"), 0o644))
	py := filepath.Join(venv, "bin", "python")
	must(t, os.MkdirAll(filepath.Dir(py), 0o755))
	must(t, os.WriteFile(py, nil, 0o755)) // never run: the runner only records
	rep := Report{GOOS: "linux", Venv: venv, Framework: "torch", SitePackages: sp, Python: PythonFacts{Path: py, Version: "3.11.7", Bits: 64},
		Installed: []Dist{{Name: "torch", Version: "2.6.0", LocalLabel: "+cpu"}, {Name: "torchvision", Version: "0.21.0", LocalLabel: "+cpu"}},
		Leftovers: []string{filepath.Join(sp, "~orch")},
		Lock:      &LockedBuild{Framework: "torch", Package: "torch", Version: "2.6.0", Channel: "cu126"},
		Findings:  []Finding{{Code: CodeChannelMismatch, Severity: SeverityError}, {Code: CodeLeftoverPartial, Severity: SeverityWarning}}}
	must(t, os.MkdirAll(rep.Leftovers[0], 0o755))
	plan := RepairPlan(rep, RepairOptions{Matrix: embeddedMatrix(t)})
	if plan.Reinstall == nil {
		t.Fatalf("no reinstall: %q", plan.Notes)
	}
	var listed []string
	for _, a := range plan.Actions {
		listed = append(listed, fmt.Sprintf("engine=%v %s %s", a.Engine, strings.Join(a.Argv, " "), a.RemovePath))
	}
	all := strings.Join(listed, "\n")
	for _, want := range []string{"engine=true " + py + " -m pip --disable-pip-version-check --no-input uninstall -y torch torchvision ", "engine=true  " + rep.Leftovers[0], "engine=false " + py + " -m pip --disable-pip-version-check --no-input cache remove torch "} {
		if !strings.Contains(all, want) {
			t.Fatalf("plan lacks %q:\n%s", want, all)
		}
	}
	if !strings.Contains(strings.Join(plan.Notes, "\n"), "nothing is removed before the new wheels are downloaded") {
		t.Errorf("the plan does not say when its removals happen: %q", plan.Notes)
	}

	for _, engineFails := range []bool{true, false} {
		var log []string
		d := Deps{Runner: recordRunner{&log}, Env: MapEnviron{"PATH": "/usr/bin:/bin"}, FS: OSFS{}, GOOS: "linux",
			Inspect: func(context.Context, runner.Runner, string) (Inspection, error) { return Inspection{}, nil },
			Verify: func(context.Context, runner.Runner, string, string, string) (FrameworkCheck, error) {
				return FrameworkCheck{}, nil
			}}
		d.Reinstall = func(context.Context, string, string, matrix.Candidate, chan<- runner.Line, func()) (*verify.Report, error) {
			log = append(log, "ENGINE")
			if engineFails {
				return nil, fmt.Errorf("install unchanged (the venv holds what it held before)")
			}
			return nil, nil
		}
		events := make(chan RepairEvent, 256)
		res, err := ApplyRepair(context.Background(), d, plan, events)
		if err != nil {
			t.Fatal(err)
		}
		close(events)
		// The steps start in the order they are numbered (the order the CLI and the wizard list them).
		last := 0
		for e := range events {
			if e.Line != "" || e.Done || e.Step == 0 {
				continue
			}
			if e.Step <= last {
				t.Errorf("step %d (%s) started after step %d", e.Step, e.Title, last)
			}
			last = e.Step
		}
		var own []string
		for _, l := range log {
			if l == "ENGINE" || strings.Contains(l, "pip") && strings.Contains(l, "cache") || strings.Contains(l, "uninstall") {
				own = append(own, l)
			}
		}
		if engineFails {
			if !res.Failed || len(own) != 1 || own[0] != "ENGINE" {
				t.Errorf("engine failed: failed=%v, ran %q", res.Failed, own)
			}
		} else if res.Failed || len(own) != 2 || own[0] != "ENGINE" || !strings.Contains(own[1], "cache remove torch") {
			t.Errorf("engine succeeded: failed=%v, ran %q (want the engine, then the cache purge)", res.Failed, own)
		}
		if _, err := os.Stat(rep.Leftovers[0]); err != nil {
			t.Errorf("doctor deleted %s itself (the engine's job): %v", rep.Leftovers[0], err)
		}
	}

	// The check after the repair takes the engine's verification of what it installed instead of
	// importing the framework again, unless one of doctor's own actions ran after the engine.
	engineOnly := plan
	engineOnly.Actions = slices.DeleteFunc(slices.Clone(plan.Actions), func(a Action) bool { return !a.Engine })
	for _, p := range []Repair{engineOnly, plan} {
		var log []string
		verifies := 0
		d := Deps{Runner: recordRunner{&log}, Env: MapEnviron{"PATH": "/usr/bin:/bin"}, FS: OSFS{}, GOOS: "linux",
			Inspect: func(context.Context, runner.Runner, string) (Inspection, error) {
				return Inspection{Dists: []Dist{{Name: "torch", Version: "2.6.0", LocalLabel: "+cu126"}}}, nil
			},
			Verify: func(context.Context, runner.Runner, string, string, string) (FrameworkCheck, error) {
				verifies++
				return FrameworkCheck{Imported: true, Version: "2.6.0+cu126"}, nil
			}}
		d.Reinstall = func(context.Context, string, string, matrix.Candidate, chan<- runner.Line, func()) (*verify.Report, error) {
			return &verify.Report{Framework: "torch", Version: "2.6.0+cu126", Checks: []verify.Check{{ID: "import", OK: true}}}, nil
		}
		res, err := ApplyRepair(context.Background(), d, p, nil)
		if err != nil || res.Failed || res.After == nil {
			t.Fatalf("repair: %+v %v", res, err)
		}
		want := 0
		if len(p.Actions) != len(engineOnly.Actions) {
			want = 1 // doctor's own action (the cache purge) ran after the engine: the framework is checked again
		}
		if verifies != want || !res.After.FrameworkCheck.Ran || !res.After.FrameworkCheck.Imported || res.After.FrameworkCheck.Version != "2.6.0+cu126" {
			t.Errorf("%d own actions: the check after ran the framework check %d times (want %d): %+v", len(p.Actions)-len(engineOnly.Actions), verifies, want, res.After.FrameworkCheck)
		}
	}
}
