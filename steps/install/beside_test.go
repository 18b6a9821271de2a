package install

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gpuwiz/matrix"
	"gpuwiz/steps/keep"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/testkit/pyindex"
)

// gatedTorch builds a torch family whose import waits until the file the environment variable
// GPUWIZ_TEST_GATE names exists: the verify step stays under way for as long as the test wants.
// cudaOK false makes a build the check fails (no CUDA device).
func gatedTorch(t *testing.T, label string, cudaOK bool) *pyindex.Index {
	t.Helper()
	spec := torchSpec(label, "12.6")
	spec.CudaAvailable = cudaOK
	init := pyindex.TorchStub(spec)["torch/__init__.py"]
	gate := "import os as _os, time as _time\n_g = _os.environ.get('GPUWIZ_TEST_GATE')\nwhile _g and not _os.path.exists(_g):\n    _time.sleep(0.02)\n"
	spec.Extra = map[string]string{"torch/__init__.py": gate + init}
	dir := t.TempDir()
	ch := strings.TrimPrefix(label, "+")
	return pyindex.Serve(t, map[string][]string{ch: pyindex.TorchFamily(t, dir, spec, 0)})
}

func gatedTarget(ix *pyindex.Index, ch string) Target {
	label := "+" + ch
	return Target{Framework: "torch", FrameworkVersion: "2.6.0", Channel: ch, IndexURL: ix.ChannelURL(ch), Packages: []matrix.Package{
		{Name: "torch", Version: "2.6.0", LocalLabel: label},
		{Name: "torchvision", Version: "0.21.0", LocalLabel: label},
		{Name: "torchaudio", Version: "2.6.0", LocalLabel: label},
	}}
}

// While the verify step is under way (its torch import held), the work that does not depend on it
// is done already: requirements.lock and constraints.txt written, the journal closed as installed,
// the backup removed. Only the protection waits for the check, and the lock step is said done after
// the verify step.
func TestLockFilesAndBackupRemovalRunBesideVerify(t *testing.T) {
	ix := gatedTorch(t, "+cu126", true)
	cache := filepath.Join(t.TempDir(), "cache")
	v := pyenv.Venv{Root: filepath.Join(t.TempDir(), "venv")}
	gate := filepath.Join(t.TempDir(), "gate")
	o := options(t, v, gatedTarget(ix, "cu126"), cache)
	o.Environ = append(o.Environ, "GPUWIZ_TEST_GATE="+gate)
	if err := os.WriteFile(gate, nil, 0o644); err != nil { // open for the first install
		t.Fatal(err)
	}
	if _, out, _ := install(t, context.Background(), o, nil); !out.OK() {
		t.Fatalf("first install: %+v", out)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Remove(gate))
	must(os.Remove(filepath.Join(v.Root, "requirements.lock")))
	must(os.Remove(filepath.Join(v.Root, "constraints.txt")))

	// A reinstall in place: it backs up the old build, then verifies the new one.
	var seen []string
	var order []string
	o.LogPath = filepath.Join(t.TempDir(), "install.log")
	_, out, _ := install(t, context.Background(), o, func(ev Event) {
		if ev.State != "" {
			order = append(order, ev.StepID+":"+ev.State)
		}
		if ev.StepID != StepVerify || ev.State != StateRunning {
			return
		}
		defer os.WriteFile(gate, nil, 0o644)
		// Waited for, never timed: the gate opens when the files appear, or after a minute.
		for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
			lock, lerr := os.Stat(filepath.Join(v.Root, "requirements.lock"))
			_, cerr := os.Stat(filepath.Join(v.Root, "constraints.txt"))
			backups, _ := filepath.Glob(filepath.Join(v.Root, ".gpuwiz", "backup-*"))
			j, _ := ReadJournal(v.Root)
			if lerr == nil && cerr == nil && lock.Size() > 0 && len(backups) == 0 && j != nil && !j.Open() {
				seen = append(seen, "lock", "constraints", "backup removed", "journal closed")
				return
			}
		}
	})
	if !out.OK() || out.Protected == "" {
		t.Fatalf("reinstall: %+v", out)
	}
	if len(seen) != 4 {
		t.Errorf("while verify ran, the lock files, the backup's removal and the journal's close were not all done: %v", seen)
	}
	if got := strings.Join(order, " "); !strings.Contains(got, "verify:running verify:done lock:running lock:done") {
		t.Errorf("the steps' order on screen: %s", got)
	}
}

// A build that fails its check is not protected: the protection an earlier build left in the
// venv's pip configuration goes (constraints.txt now pins the failed build), and a warning says so.
func TestAFailedVerifyIsNotProtected(t *testing.T) {
	good := gatedTorch(t, "+cu126", true)
	bad := gatedTorch(t, "+cu118", false)
	cache := filepath.Join(t.TempDir(), "cache")
	v := pyenv.Venv{Root: filepath.Join(t.TempDir(), "venv")}
	_, out, _ := install(t, context.Background(), options(t, v, gatedTarget(good, "cu126"), cache), nil)
	if !out.OK() || out.Protected == "" || !keep.Read(v.Root, hostGOOS()).Protected {
		t.Fatalf("first install: %+v", out)
	}
	_, out, events := install(t, context.Background(), options(t, v, gatedTarget(bad, "cu118"), cache), nil)
	if out.Result != ResultInstalled || out.OK() || out.Verify == nil {
		t.Fatalf("the CPU-only build should install and fail its check: %+v", out)
	}
	if out.Protected != "" || keep.Read(v.Root, hostGOOS()).Protected {
		t.Errorf("a build that failed its check is protected: %q", out.Protected)
	}
	// The front ends say the venv does not keep a build that failed (from the verify report and
	// Protected), so the engine adds no warning of its own for it.
	if len(out.Warnings) != 0 {
		t.Errorf("warnings: %q", out.Warnings)
	}
	if !hasState(events, StepVerify, StateFailed) || !hasState(events, StepLock, StateDone) {
		t.Errorf("events: %+v", events)
	}
	if _, err := os.Stat(out.LockFile); err != nil {
		t.Errorf("requirements.lock: %v", err)
	}
}
