package doctor

import (
	"archive/zip"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/matrix"
	"gpuwiz/steps/pyindex"
	"gpuwiz/steps/runner"
)

// pipReinstall stands in for the install engine: real pip from a loopback index, --index-url only.
func pipReinstall(t *testing.T) ReinstallFunc {
	return func(ctx context.Context, venv, python string, c matrix.Candidate, lines chan<- runner.Line) error {
		whl, err := pyindex.BuildWheel(t.TempDir(), "paddlepaddle-gpu", c.FrameworkVersion, pyindex.PaddleStub(pyindex.StubSpec{Version: c.FrameworkVersion, CUDA: "12.6", CudaAvailable: true, CuDNN: 90501}), nil, 0)
		if err != nil {
			return err
		}
		ix := pyindex.Serve(t, map[string][]string{c.Channel: {whl}})
		res := runner.New(nil).Run(ctx, runner.Cmd{Argv: pipArgv(python, "install", "--index-url", ix.ChannelURL(c.Channel), "paddlepaddle-gpu=="+c.FrameworkVersion)}, lines)
		return res.Err
	}
}

func TestRepairBothPaddleDistsEndToEnd(t *testing.T) {
	venv := newVenv(t)
	writeDist(t, venv, "paddlepaddle", "3.0.0", paddleFiles())
	writeDist(t, venv, "paddlepaddle-gpu", "3.0.0", paddleFiles())
	sp := sitePackages(t, venv)
	must(t, os.WriteFile(filepath.Join(sp, "paddle", "stray.py"), []byte("# left by the CPU build\n"), 0o644))
	must(t, os.MkdirAll(filepath.Join(sp, "~addle"), 0o755))
	must(t, os.WriteFile(filepath.Join(venv, "requirements.lock"), []byte("--index-url https://www.paddlepaddle.org.cn/packages/stable/cu126/\npaddlepaddle-gpu==3.0.0\n"), 0o644))
	d := linuxDeps(t, "gpu-cc90.json", map[string]string{"PATH": filepath.Join(venv, "bin") + ":/usr/bin:/bin"})
	d.Reinstall = pipReinstall(t)
	rep := runDoctor(t, d, venv)
	requireCode(t, rep, CodePaddleMixed, SeverityError)
	requireCode(t, rep, CodeLeftoverPartial, SeverityWarning)

	plan := RepairPlan(rep, RepairOptions{Matrix: d.Matrix})
	if plan.Reinstall == nil || !plan.SameBuild || plan.Reinstall.Channel != "cu126" || plan.Reinstall.FrameworkVersion != "3.0.0" {
		t.Fatalf("reinstall target: %+v (notes %q)", plan.Reinstall, plan.Notes)
	}
	var removes []string
	for _, a := range plan.Actions {
		removes = append(removes, a.RemovePath)
	}
	if !strings.Contains(strings.Join(removes, " "), filepath.Join(sp, "paddle")) || !strings.Contains(strings.Join(removes, " "), "~addle") {
		t.Fatalf("plan does not remove paddle/ and ~addle: %+v", plan.Actions)
	}
	events := make(chan RepairEvent, 1024)
	res, err := ApplyRepair(context.Background(), d, plan, events)
	if err != nil || res.Failed {
		t.Fatalf("ApplyRepair: %v %+v", err, res.Steps)
	}
	if res.After == nil || res.After.HasCode(CodePaddleMixed) || res.After.HasCode(CodeLeftoverPartial) || res.After.Problems != 0 {
		t.Fatalf("after repair: %s", codes(*res.After))
	}
	if _, err := os.Stat(filepath.Join(sp, "paddle", "stray.py")); !os.IsNotExist(err) {
		t.Fatalf("stray file of the old build survived: %v", err)
	}
	if got := res.After.Installed; len(got) != 1 || got[0].Name != "paddlepaddle-gpu" {
		t.Fatalf("installed after repair: %+v", got)
	}
	if !res.After.FrameworkCheck.Imported || res.After.FrameworkCheck.CUDA != "12.6" {
		t.Fatalf("framework check after repair: %+v", res.After.FrameworkCheck)
	}
	close(events)
	n := 0
	for e := range events {
		if e.Done && e.Err == "" {
			n++
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
	if !strings.Contains(joined, "uninstall -y torch torchvision torchaudio") || !strings.Contains(joined, "cache remove torch") {
		t.Fatalf("actions: %s", joined)
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
