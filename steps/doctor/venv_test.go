package doctor

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gpuwiz/steps/testkit/pyindex"
)

var goodArchs = []string{"sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120"}

func TestCleanVenvHasNoProblems(t *testing.T) {
	venv := newVenv(t)
	writeDist(t, venv, "torch", "2.8.0+cu128", torchStub("2.8.0+cu128", "12.8", goodArchs, true))
	must(t, os.WriteFile(filepath.Join(venv, "requirements.lock"), []byte("torch==2.8.0+cu128\n"), 0o644))
	rep := runDoctor(t, linuxDeps(t, "gpu-cc90.json", map[string]string{"PATH": filepath.Join(venv, "bin") + ":/usr/bin:/bin"}), venv)
	if rep.Problems != 0 {
		t.Fatalf("clean venv: %d problems: %s\n%+v", rep.Problems, codes(rep), rep.Findings)
	}
	if !rep.FrameworkCheck.Imported || rep.FrameworkCheck.CUDA != "12.8" || len(rep.FrameworkCheck.ArchList) != len(goodArchs) {
		t.Fatalf("framework check did not read the stub: %+v", rep.FrameworkCheck)
	}
	if rep.Framework != "torch" || rep.Lock == nil || rep.Lock.Channel != "cu128" {
		t.Fatalf("framework %q lock %+v", rep.Framework, rep.Lock)
	}
	if len(rep.Checked) < 6 {
		t.Fatalf("checked: %q", rep.Checked)
	}
}

func TestBothPaddleDists(t *testing.T) {
	venv := newVenv(t)
	writeDist(t, venv, "paddlepaddle", "3.0.0", paddleFiles())
	writeDist(t, venv, "paddlepaddle-gpu", "3.0.0", paddleFiles())
	rep := runDoctor(t, linuxDeps(t, "gpu-cc90.json", nil), venv)
	f := requireCode(t, rep, CodePaddleMixed, SeverityError)
	evidenceContains(t, f, "paddlepaddle-gpu 3.0.0")
	if rep.Findings[0].Severity != SeverityError {
		t.Fatalf("most severe not first: %s", codes(rep))
	}
}

func TestCPUTorch(t *testing.T) {
	venv := newVenv(t)
	writeDist(t, venv, "torch", "2.8.0+cpu", torchStub("2.8.0+cpu", "", nil, false))
	rep := runDoctor(t, linuxDeps(t, "gpu-cc90.json", nil), venv)
	f := requireCode(t, rep, CodeCPUBuild, SeverityError)
	evidenceContains(t, f, "+cpu")
	if rep.HasCode(CodeFrameworkCheckFailed) {
		t.Fatalf("cpu-build explains the failed check; got also framework-check-failed: %s", codes(rep))
	}
}

func TestArchMissingForCC120(t *testing.T) {
	venv := newVenv(t)
	old := []string{"sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"}
	writeDist(t, venv, "torch", "2.8.0+cu126", torchStub("2.8.0+cu126", "12.6", old, true))
	rep := runDoctor(t, linuxDeps(t, "gpu-cc120.json", nil), venv)
	f := requireCode(t, rep, CodeArchMissing, SeverityError)
	evidenceContains(t, f, "(torch.cuda.get_arch_list()): sm_50, sm_60, sm_70, sm_75, sm_80, sm_86, sm_90")
	evidenceContains(t, f, "sm_120")
	// the fixture's python.exe holds 8 GiB of the 32 GiB card
	requireCode(t, rep, CodeGPUMemoryHeld, SeverityWarning)
}

func TestLeftoverPartialUninstall(t *testing.T) {
	venv := newVenv(t)
	writeDist(t, venv, "torch", "2.8.0+cu128", torchStub("2.8.0+cu128", "12.8", goodArchs, true))
	must(t, os.MkdirAll(filepath.Join(sitePackages(t, venv), "~orch", "lib"), 0o755))
	rep := runDoctor(t, linuxDeps(t, "gpu-cc90.json", nil), venv)
	f := requireCode(t, rep, CodeLeftoverPartial, SeverityWarning)
	evidenceContains(t, f, "~orch")
}

func TestPipExtraIndexFromEnv(t *testing.T) {
	venv := newVenv(t)
	rep := runDoctor(t, linuxDeps(t, "gpu-cc90.json", map[string]string{"PIP_EXTRA_INDEX_URL": "https://bob:s3cret@mirror.example/simple"}), venv)
	f := requireCode(t, rep, CodePipExtraIndex, SeverityWarning)
	evidenceContains(t, f, "PIP_EXTRA_INDEX_URL")
	evidenceContains(t, f, "mirror.example")
	if strings.Contains(strings.Join(f.Evidence, " "), "s3cret") {
		t.Fatalf("password not redacted: %q", f.Evidence)
	}
}

func TestPipConfInVenv(t *testing.T) {
	venv := newVenv(t)
	must(t, os.WriteFile(filepath.Join(venv, "pip.conf"), []byte("[global]\nextra-index-url =\n    https://extra.example/simple\n"), 0o644))
	rep := runDoctor(t, linuxDeps(t, "gpu-cc90.json", nil), venv)
	f := requireCode(t, rep, CodePipExtraIndex, SeverityWarning)
	evidenceContains(t, f, filepath.Join(venv, "pip.conf"))
	evidenceContains(t, f, "https://extra.example/simple")
}

func TestLockSaysCu126InstalledCu118(t *testing.T) {
	venv := newVenv(t)
	writeDist(t, venv, "torch", "2.6.0+cu118", torchStub("2.6.0+cu118", "11.8", []string{"sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"}, true))
	must(t, os.WriteFile(filepath.Join(venv, "requirements.lock"), []byte("# written by gpuwiz\n--index-url https://download.pytorch.org/whl/cu126\ntorch==2.6.0+cu126\n"), 0o644))
	rep := runDoctor(t, linuxDeps(t, "gpu-cc90.json", nil), venv)
	f := requireCode(t, rep, CodeChannelMismatch, SeverityError)
	evidenceContains(t, f, "+cu118")
	evidenceContains(t, f, "torch==2.6.0+cu126")
}

// A pip on PATH that installs elsewhere is a real warning only where this venv is the active one
// (the user's pip goes elsewhere); otherwise it is context: listed, no problem, exit 0.
func TestPipOnPathBelongsToAnotherPython(t *testing.T) {
	venv, other := newVenv(t), newVenv(t)
	path := map[string]string{"PATH": filepath.Join(other, "bin")}
	rep := runDoctor(t, linuxDeps(t, "gpu-cc90.json", path), venv)
	f := requireCode(t, rep, CodePipPythonMismatch, SeverityInfo)
	evidenceContains(t, f, sitePackages(t, other))
	evidenceContains(t, f, sitePackages(t, venv))
	evidenceContains(t, f, "not the one active in your shell")
	if f.Consequence != ConsequenceContext || f.IsProblem() {
		t.Fatalf("not active: %+v is not context", *f)
	}

	for _, k := range []string{"VIRTUAL_ENV", "CONDA_PREFIX"} {
		path[k] = venv + "/"
		rep = runDoctor(t, linuxDeps(t, "gpu-cc90.json", path), venv)
		delete(path, k)
		f = requireCode(t, rep, CodePipPythonMismatch, SeverityWarning)
		if f.Consequence != ConsequenceThreatens || rep.Problems == 0 || strings.Contains(strings.Join(f.Evidence, "\n"), "not the one active") {
			t.Fatalf("%s names the venv: %+v, %d problems", k, *f, rep.Problems)
		}
	}
}

// A GPU whose matmul gives wrong numbers: verify's CPU comparison fails, and doctor reports the
// framework's own check with the matmul's evidence (nothing more specific explains it).
func TestWrongGPUResultIsAFrameworkCheckFailure(t *testing.T) {
	venv := newVenv(t)
	files := pyindex.TorchStub(pyindex.StubSpec{Version: "2.8.0+cu128", CUDA: "12.8", ArchList: goodArchs, CudaAvailable: true, CuDNN: 91002, WrongResult: true})
	writeDist(t, venv, "torch", "2.8.0+cu128", files)
	must(t, os.WriteFile(filepath.Join(venv, "requirements.lock"), []byte("torch==2.8.0+cu128\n"), 0o644))
	rep := runDoctor(t, linuxDeps(t, "gpu-cc90.json", map[string]string{"PATH": filepath.Join(venv, "bin") + ":/usr/bin:/bin"}), venv)
	requireCode(t, rep, CodeFrameworkCheckFailed, SeverityError)
	for _, f := range rep.Findings {
		if f.Code == CodeFrameworkCheckFailed && !strings.Contains(strings.Join(f.Evidence, "\n"), "matmul") {
			t.Fatalf("evidence does not name the matmul: %q", f.Evidence)
		}
	}
	if rep.HasCode(CodeCPUBuild) || rep.HasCode(CodeArchMissing) {
		t.Fatalf("a wrong result is not a CPU build or missing arch: %s", codes(rep))
	}
}

// Issue: a torch whose __init__.py was missing (a cut-short install) was called "a CPU build". It
// imports as an empty namespace package; doctor says the install is incomplete and reinstalls.
func TestTorchWithoutInitIsIncompleteNotCPU(t *testing.T) {
	venv := newVenv(t)
	writeDist(t, venv, "torch", "2.8.0+cu128", torchStub("2.8.0+cu128", "12.8", goodArchs, true))
	must(t, os.Remove(filepath.Join(sitePackages(t, venv), "torch", "__init__.py")))
	rep := runDoctor(t, linuxDeps(t, "gpu-cc90.json", nil), venv)
	if rep.HasCode(CodeCPUBuild) {
		t.Fatalf("a torch without __init__.py is called a CPU build: %s", codes(rep))
	}
	f := requireCode(t, rep, CodeFrameworkCheckFailed, SeverityError)
	if !strings.Contains(f.Title+f.Fix+strings.Join(f.Evidence, "\n"), "__init__.py") {
		t.Fatalf("the finding does not say __init__.py is missing: %+v", f)
	}
	// The file torch's RECORD lists and the disk lacks is named too, and both are fixed by reinstalling.
	m := requireCode(t, rep, CodeFilesMissing, SeverityError)
	if !strings.Contains(strings.Join(m.Evidence, "\n"), "torch 2.8.0+cu128: 1 file missing: torch/__init__.py") {
		t.Fatalf("files-missing evidence: %q", m.Evidence)
	}
	r := RepairPlan(rep, RepairOptions{Matrix: embeddedMatrix(t)})
	if r.Reinstall == nil || slices.ContainsFunc(r.Unfixable, func(f Finding) bool { return f.Code == CodeFilesMissing }) {
		t.Fatalf("torch's own missing file is not repaired by a reinstall: reinstall %v, left %+v, notes %q", r.Reinstall, r.Unfixable, r.Notes)
	}
}
