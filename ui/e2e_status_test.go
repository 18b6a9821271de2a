package ui

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"gpuwiz/steps/testkit/pyindex"
)

// The statuses the wizard shows come from what the engine did, not from the plan (never ✓ for
// what did not happen). These runs drive the real binary in tmux over a loopback index.

// newStatusRig is newE2ERig's rig with the index served over net, the cu126 torch padded by pad
// bytes, and its stub telling whether CUDA is available.
func newStatusRig(t *testing.T, net pyindex.Network, pad int, cuda bool) *e2eRig {
	t.Helper()
	spec := pyindex.StubSpec{Version: "2.6.0+cu126", CUDA: "12.6", ArchList: []string{"sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"},
		DeviceName: "NVIDIA GeForce RTX 3060", CudaAvailable: cuda, CuDNN: 90100, Capability: "8.6", DeviceCount: 1}
	if !cuda {
		spec.DeviceCount = 0
	}
	return newRigServing(t, net, func(wheels string) map[string][]string {
		cu126 := torchWheels(t, filepath.Join(wheels, "cu126"), "cu126", "12.6", 0)
		cu126[0] = buildWheel(t, filepath.Join(wheels, "cu126-status"), "torch", "2.6.0+cu126", pyindex.TorchStub(spec), pad)
		return map[string][]string{
			"cu126": cu126,
			"cu118": torchWheels(t, filepath.Join(wheels, "cu118"), "cu118", "11.8", 0),
		}
	})
}

// Item 7: a cancel while the new build downloads, into a venv that already holds a build, changed
// nothing: the screen says so, not "restored", and the venv still holds its old build.
func TestE2ECancelBeforeAnyChangeSaysUnchangedInTmux(t *testing.T) {
	// 120 MiB at 1 MiB/s a connection: the download runs long enough to be cancelled in it.
	r := newStatusRig(t, pyindex.Network{ConnBytesPerSec: 1 << 20}, 120<<20, true)
	venv := filepath.Join(r.dir, "old-env")
	run(t, r.env, "python3", "-m", "venv", venv)
	idx := strings.SplitN(readMatrixIndex(t, r.matrix), "/whl/", 2)[0]
	run(t, r.env, filepath.Join(venv, "bin", "pip"), "install", "--index-url", idx+"/whl/cu118",
		"torch==2.6.0+cu118", "torchvision==0.21.0+cu118", "torchaudio==2.6.0+cu118")
	s := r.start(t)
	s.Keys("2")
	s.WaitFor("Which Python environment?", 15*time.Second)
	s.Text(venv)
	s.WaitFor("PyTorch 2.6.0 (cu118)", 30*time.Second)
	s.Keys("Enter")
	s.WaitFor("Press enter to choose the new channel", 30*time.Second)
	s.Keys("Enter")
	s.WaitFor("Same version first", 30*time.Second)
	s.Keys("Enter")
	s.WaitFor("your URL:", 60*time.Second, "Cannot check the package sources")
	s.Keys("Enter")
	s.WaitFor("Run this plan?", 60*time.Second, "Cannot make a plan")
	s.Keys("y")
	s.WaitFor(" left", 90*time.Second, "Install failed", "Installed.") // the download's bar: bytes, rate, time left
	s.Keys("C-c")
	s.WaitFor("Cancel the install?", 15*time.Second)
	s.Keys("y")
	scr := s.WaitFor("Cancelled", 120*time.Second)
	scr = s.WaitFor("it is as it was", 30*time.Second, "restored", "removed")
	if !strings.Contains(scr, "Cancelled before anything in the environment changed") || strings.Contains(scr, "restored") {
		t.Fatalf("a cancel during the download says the environment is as it was (nothing to restore):\n%s", scr)
	}
	s.Keys("Enter")
	s.WaitFor("q or enter to quit", 30*time.Second)
	s.Keys("q")
	s.WaitFor("EXIT=130", 30*time.Second)
	got := strings.TrimSpace(run(t, r.env, filepath.Join(venv, "bin", "python"), "-c", "import torch; print(torch.__version__)"))
	if got != "2.6.0+cu118" {
		t.Fatalf("after the cancel the venv holds torch %q, want its old 2.6.0+cu118", got)
	}
}

// Item 6: an install whose verification fails shows ✗ on the verify step (not ✓), the verify
// screen says what failed, and the list of venvs does not call it installed. Then item 5: the
// wizard's repair of that venv puts the same build back, doctor still finds the error, and the
// repair's last step is ✗ with the done screen naming what is left (not "run gpuwiz doctor").
func TestE2EFailedVerifyAndRepairWithErrorsLeftInTmux(t *testing.T) {
	r := newStatusRig(t, pyindex.Network{}, 0, false) // torch's stub: CUDA not available
	s := r.start(t)
	venv := filepath.Join(r.dir, "venvs", "torch")
	newSetupToPlan(t, s, venv)
	s.Keys("y")
	scr := s.WaitFor("Press enter", 180*time.Second, "Cancelled")
	if regexp.MustCompile(`✓ +verify the torch build`).MatchString(scr) || !regexp.MustCompile(`✗ +verify the torch build`).MatchString(scr) {
		t.Fatalf("the verify step of an install whose checks failed must show ✗:\n%s", scr)
	}
	s.Keys("Enter")
	s.WaitFor("Some checks failed", 120*time.Second, "Every check passed")
	s.Keys("Enter")
	scr = s.WaitFor("q or enter to quit", 30*time.Second)
	t.Logf("done screen:\n%s", scr)
	if strings.Contains(scr, "installed and verified") {
		t.Fatalf("the done screen calls a failed verification verified:\n%s", scr)
	}
	s.Keys("q")
	s.WaitFor("EXIT=", 40*time.Second)
	list := run(t, r.env, r.bin, "venvs")
	if !strings.Contains(list, "verification failed") {
		t.Fatalf("gpuwiz venvs should say the verification failed:\n%s", list)
	}

	// The repair: the same build again, and doctor still finds that CUDA is not available.
	s.Keys("C-l")
	s.Text(r.bin + " --simulate " + r.rig + " --matrix " + r.matrix + " --sources " + r.sources + "; echo EXIT2=$?")
	s.Keys("Enter")
	s.WaitFor("Set up a new environment", 30*time.Second)
	s.Keys("3")
	s.WaitFor("Which Python environment?", 15*time.Second)
	s.Keys("C-u")
	s.Text(venv)
	s.WaitFor("holds:", 30*time.Second)
	s.Keys("Enter")
	scr = s.WaitFor("ERROR", 90*time.Second)
	t.Logf("doctor before the repair:\n%s", scr)
	s.Keys("Enter")
	scr = s.WaitFor("Run this plan?", 30*time.Second, "Nothing to repair")
	t.Logf("repair plan:\n%s", scr)
	s.Keys("y")
	scr = s.WaitFor("Press enter", 180*time.Second, "Cancelled")
	if !regexp.MustCompile(`✗ +Run doctor again`).MatchString(scr) || regexp.MustCompile(`✓ +Run doctor again`).MatchString(scr) {
		t.Fatalf("a repair that leaves an error ends with ✗ on doctor's second look:\n%s", scr)
	}
	s.Keys("Enter")
	scr = s.WaitFor("enter: finish", 60*time.Second) // doctor's second look, as a checklist
	t.Logf("after the repair:\n%s", scr)
	s.Keys("Enter")
	scr = s.WaitFor("q or enter to quit", 30*time.Second)
	t.Logf("done screen after the repair:\n%s", scr)
	if !strings.Contains(scr, "doctor still finds these problems") || strings.Contains(scr, "run gpuwiz doctor") {
		t.Fatalf("the done screen after a repair that left an error lists it (and does not send the user back to doctor):\n%s", scr)
	}
	s.Keys("q")
	s.WaitFor("EXIT2=", 40*time.Second)
}

// `gpuwiz install` in a terminal shows the download as one line redrawn in place, not a new line
// at every tenth as it does into a file or a pipe (the command's stdout reaches the terminal
// through the writers that redact credentials and count what was printed); in Chinese too, whose
// line is wider than its characters.
func TestE2EInstallCommandRedrawsItsDownloadLineInTmux(t *testing.T) {
	// 24 MiB at 4 MiB/s a connection: several seconds of progress, every tenth of it reported.
	r := newStatusRig(t, pyindex.Network{ConnBytesPerSec: 4 << 20}, 24<<20, true)
	s := startShell(t, r.dir, r.env)
	s.Resize(160, 60)
	for _, lang := range []struct{ code, line, full string }{{"en", "downloaded ", "(100%)"}, {"zh-CN", "已下载 ", "（100%）"}} {
		s.Keys("C-l")
		s.Text("clear")
		s.Keys("Enter")
		// Each language its own venv and wheel cache: the second install downloads too.
		venv := filepath.Join(r.dir, "cli-env-"+lang.code)
		s.Text("XDG_CACHE_HOME=" + filepath.Join(r.dir, "cache-"+lang.code) + " " + r.bin + " --lang " + lang.code + " --simulate " + r.rig + " --matrix " + r.matrix +
			" --sources " + r.sources + " install --framework torch --framework-version 2.6.0 --channel cu126 --venv " + venv +
			" --python python3 --no-pip-upgrade --yes; echo EX\"\"IT=$?")
		s.Keys("Enter")
		s.WaitFor(lang.line, 60*time.Second, "EXIT=")
		scr := s.WaitFor("EXIT=", 180*time.Second)
		if !strings.Contains(scr, "EXIT=0") {
			t.Fatalf("%s: the install failed:\n%s", lang.code, scr)
		}
		var progress []string
		for _, l := range strings.Split(scr, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), lang.line) {
				progress = append(progress, l)
			}
		}
		if len(progress) != 1 || !strings.Contains(progress[0], lang.full) {
			t.Fatalf("%s: want the download on one line, redrawn up to 100%%; got %d lines:\n%s", lang.code, len(progress), scr)
		}
	}
}
