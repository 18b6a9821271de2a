package doctor

import (
	"archive/zip"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gpuwiz/steps/testkit/pyindex"
)

// doctor --fix on a venv holding both Paddle dists (real pip installs), a stray file in paddle/
// and a ~ leftover, with the loopback index up: the install engine stages paddlepaddle-gpu, then
// removes both dists, paddle/ and ~addle itself, and doctor finds the mix gone.
func TestRepairBothPaddleDistsEndToEnd(t *testing.T) {
	_, gpuWhl := paddleWheels(t)
	ix := pyindex.Serve(t, map[string][]string{"cu126": {gpuWhl}})
	g := newEngineRig(t, ix.URL+"/whl/")
	must(t, os.MkdirAll(filepath.Join(g.sp, "~addle"), 0o755))
	rep := runDoctor(t, g.deps, g.venv)
	requireCode(t, rep, CodePaddleMixed, SeverityError)
	requireCode(t, rep, CodeLeftoverPartial, SeverityWarning)

	gr, _ := g.deps.GPU(context.Background())
	plan := RepairPlan(rep, RepairOptions{Matrix: g.matrix, GPU: gr})
	if plan.Reinstall == nil || !plan.SameBuild || plan.Reinstall.Channel != "cu126" || plan.Reinstall.FrameworkVersion != "3.0.0" {
		t.Fatalf("reinstall target: %+v (notes %q)", plan.Reinstall, plan.Notes)
	}
	var removes, uninstalls []string
	for _, a := range plan.Actions {
		if !a.Engine {
			t.Fatalf("a removal outside the install engine: %+v", a)
		}
		removes = append(removes, a.RemovePath)
		uninstalls = append(uninstalls, strings.Join(a.Argv, " "))
	}
	if !strings.Contains(strings.Join(removes, " "), filepath.Join(g.sp, "paddle")) || !strings.Contains(strings.Join(removes, " "), "~addle") {
		t.Fatalf("plan does not list paddle/ and ~addle: %+v", plan.Actions)
	}
	if !strings.Contains(strings.Join(uninstalls, "\n"), "uninstall -y paddlepaddle paddlepaddle-gpu") {
		t.Fatalf("plan does not list the uninstall of both dists: %+v", plan.Actions)
	}
	events := make(chan RepairEvent, 4096)
	res, err := ApplyRepair(context.Background(), g.deps, plan, events)
	if err != nil || res.Failed {
		t.Fatalf("ApplyRepair: %v %+v", err, res.Steps)
	}
	if res.After == nil || res.After.HasCode(CodePaddleMixed) || res.After.HasCode(CodeLeftoverPartial) {
		t.Fatalf("after repair: %s", codes(*res.After))
	}
	for _, p := range []string{filepath.Join(g.sp, "paddle", "stray.py"), filepath.Join(g.sp, "~addle")} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Fatalf("%s survived the repair: %v", p, err)
		}
	}
	if got := res.After.Installed; len(got) != 1 || got[0].Name != "paddlepaddle-gpu" {
		t.Fatalf("installed after repair: %+v", got)
	}
	if !res.After.FrameworkCheck.Imported || res.After.FrameworkCheck.CUDA != "12.6" {
		t.Fatalf("framework check after repair: %+v", res.After.FrameworkCheck)
	}
	if ix.Requests(filepath.Base(gpuWhl)) == 0 {
		t.Error("the index served no paddlepaddle-gpu wheel: the reinstall did not go through it")
	}
	close(events)
	n := 0
	errsLeft := slices.ContainsFunc(res.After.Findings, func(f Finding) bool { return f.Severity == SeverityError })
	for e := range events {
		if e.Done && e.Err == "" {
			n++
		}
		// "Run doctor again" passes only when doctor finds no error any more.
		if e.Step == 0 && e.Done && (e.Err != "") != errsLeft {
			t.Errorf("the last step ended with err %q while doctor finds errors: %v (%s)", e.Err, errsLeft, codes(*res.After))
		}
	}
	if n < len(plan.Actions)+1 {
		t.Fatalf("only %d finished-step events", n)
	}
}

func TestRepairPlanCPUTorch(t *testing.T) {
	rep := Report{GOOS: "linux", Venv: "/v", Framework: "torch", Python: PythonFacts{Path: "/v/bin/python", Version: "3.11.7", Bits: 64},
		Installed: []Dist{{Name: "torch", Version: "2.8.0", LocalLabel: "+cpu"}},
		Findings:  []Finding{{Code: CodeCPUBuild, Severity: SeverityError}, {Code: CodeVCRuntimeMissing, Severity: SeverityError}}}
	m := embeddedMatrix(t)
	g := gpuFixture(t, "gpu-cc90.json")
	gr, _ := g(context.Background())
	plan := RepairPlan(rep, RepairOptions{Matrix: m, GPU: gr})
	var argvs []string
	for _, a := range plan.Actions {
		argvs = append(argvs, strings.Join(a.Argv, " "))
	}
	joined := strings.Join(argvs, "\n")
	if !strings.Contains(joined, "uninstall -y torch") || !strings.Contains(joined, "cache remove torch") {
		t.Fatalf("actions: %s", joined)
	}
	// The uninstall is the engine's (after staging, undone on failure); only the cache purge is
	// doctor's own, and it comes after the install.
	for _, a := range plan.Actions {
		uninstall := strings.Contains(strings.Join(a.Argv, " "), "uninstall")
		if uninstall != a.Engine {
			t.Fatalf("action %q: engine=%v", a.Title, a.Engine)
		}
		// What it removes is said typed, for the front ends' lists.
		if want := map[bool]string{true: "torch", false: ""}[uninstall]; strings.Join(a.Uninstall, " ") != want {
			t.Errorf("action %q removes %q, want %q", a.Title, a.Uninstall, want)
		}
	}
	if plan.Reinstall == nil || plan.Reinstall.Channel == "cpu" || plan.SameBuild {
		t.Fatalf("a CPU build must be replaced by a CUDA build: %+v", plan.Reinstall)
	}
	if len(plan.Unfixable) != 1 || plan.Unfixable[0].Code != CodeVCRuntimeMissing {
		t.Fatalf("unfixable: %+v", plan.Unfixable)
	}
}

func TestBundleIsRedacted(t *testing.T) {
	venv := newVenv(t)
	writeDist(t, venv, "torch", "2.8.0+cu128", torchStub("2.8.0+cu128", "12.8", goodArchs, true))
	logDir := filepath.Join(venv, ".gpuwiz")
	must(t, os.MkdirAll(logDir, 0o755))
	must(t, os.WriteFile(filepath.Join(logDir, "install.log"), []byte("$ pip install --index-url https://alice:tok3n@corp.example/simple torch\nGET https://files.example/x.whl?token=zz9&sig=qq8\n"), 0o644))
	d := linuxDeps(t, "gpu-cc90.json", map[string]string{"PIP_INDEX_URL": "https://carol:pw7@idx.example/simple"})
	rep := runDoctor(t, d, venv)
	g, _ := d.GPU(context.Background())
	out := filepath.Join(t.TempDir(), "bundle.zip")
	must(t, WriteBundle(context.Background(), out, BundleInput{Report: rep, GPU: g, Runner: d.Runner, Env: d.Env, LogDirs: []string{logDir}}))
	zr, err := zip.OpenReader(out)
	must(t, err)
	defer zr.Close()
	var all strings.Builder
	names := map[string]bool{}
	for _, f := range zr.File {
		names[f.Name] = true
		rc, err := f.Open()
		must(t, err)
		b, _ := io.ReadAll(rc)
		rc.Close()
		all.Write(b)
		if f.Name == "pip-freeze.txt" && !strings.Contains(string(b), "torch==2.8.0+cu128") {
			t.Fatalf("pip freeze: %s", b)
		}
	}
	for _, n := range []string{"report.json", "report.txt", "gpu.json", "pip-freeze.txt", "env.txt", "logs/0-.gpuwiz/install.log"} {
		if !names[n] {
			t.Fatalf("bundle lacks %s: %v", n, names)
		}
	}
	for _, secret := range []string{"tok3n", "zz9", "qq8", "pw7"} {
		if strings.Contains(all.String(), secret) {
			t.Fatalf("secret %q in the bundle", secret)
		}
	}
	if !strings.Contains(all.String(), "corp.example") {
		t.Fatal("redaction removed the host too")
	}
}
