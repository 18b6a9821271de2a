//go:build linux

package cli

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"gpuwiz/steps/install"
	"gpuwiz/steps/testkit/filetree"
	"gpuwiz/steps/testkit/pyindex"
)

// bulkFiles are n files of size random bytes under dir/ of a wheel: a torch-like wheel whose
// install takes long enough to be killed half-way.
func bulkFiles(dir string, n, size int, seed uint64) map[string]string {
	rng := rand.NewChaCha8([32]byte{byte(seed), byte(seed >> 8)})
	files := map[string]string{}
	buf := make([]byte, size)
	for i := range n {
		_, _ = rng.Read(buf)
		files[fmt.Sprintf("%s/f%04d.bin", dir, i)] = string(buf)
	}
	return files
}

// switchIndex serves torch 2.6.0 for cu124 (small) and cu126 (torch has 2,500 files of 16 KiB:
// 40 MiB), each with torchvision and torchaudio, slowly: every response waits, every connection
// is capped.
func switchIndex(t *testing.T) *pyindex.Index {
	t.Helper()
	dir := t.TempDir()
	chans := map[string][]string{}
	for _, c := range []struct {
		ch, cuda string
		bulk     int
	}{{"cu124", "12.4", 50}, {"cu126", "12.6", 2500}} {
		label := "+" + c.ch
		spec := pyindex.StubSpec{Version: "2.6.0" + label, CUDA: c.cuda, CudaAvailable: true, CuDNN: 90100, ArchList: []string{"sm_80", "sm_90"}}
		torch := pyindex.TorchStub(spec)
		for k, v := range bulkFiles("torch/_bulk_"+c.ch, c.bulk, 16<<10, uint64(c.bulk)) {
			torch[k] = v
		}
		d := filepath.Join(dir, c.ch)
		must(t, os.MkdirAll(d, 0o755))
		for _, w := range []struct {
			dist, version string
			files         map[string]string
		}{
			{"torch", "2.6.0" + label, torch},
			{"torchvision", "0.21.0" + label, map[string]string{"torchvision/__init__.py": "__version__ = '0.21.0" + label + "'\n"}},
			{"torchaudio", "2.6.0" + label, map[string]string{"torchaudio/__init__.py": "__version__ = '2.6.0" + label + "'\n"}},
		} {
			p, err := pyindex.BuildWheel(d, w.dist, w.version, w.files, nil, 0)
			must(t, err)
			chans[c.ch] = append(chans[c.ch], p)
		}
	}
	return pyindex.ServeWith(t, chans, pyindex.Network{ConnBytesPerSec: 200 << 20, Latency: 20 * time.Millisecond})
}

// venvFileSums is every file and folder of the venv but its state folder, by path, with its sha256
// (a link with its target, bytecode caches as folders only).
func venvFileSums(t *testing.T, root string) map[string]string {
	return filetree.Sums(t, root, filetree.Options{Dirs: true, Skip: []string{".gpuwiz"}}, root)
}

// buildGpuwiz builds the real binary.
func buildGpuwiz(t *testing.T) string {
	t.Helper()
	exe := filepath.Join(t.TempDir(), "gpuwiz")
	cmd := exec.Command("go", "build", "-o", exe, "gpuwiz")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	return exe
}

// A closed window, then a power loss, in the middle of a channel switch: torch 2.6.0 cu124 is
// installed, then the real gpuwiz binary switches to cu126 and, while pip writes the new torch, gets
// SIGTERM with its pip (it puts the old build back itself), and the next time SIGKILL. The next doctor names the interrupted switch (an interrupted-install error, when it
// started, the step, what it had removed); install refuses to start on top of it; doctor --fix
// --yes puts back every file of the old build, compared file by file, and leaves no backup behind.
func TestPowerLossDuringASwitchIsNamedAndPutBack(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the binary and installs real wheels")
	}
	t0 := time.Now()
	exe := buildGpuwiz(t) // before the rig moves HOME and the caches go's build uses
	t.Logf("gpuwiz built: %.1fs", time.Since(t0).Seconds())
	g := newRepairRig(t)
	ix := switchIndex(t)
	t.Logf("wheels built: %.1fs", time.Since(t0).Seconds())
	t.Setenv("PATH", filepath.Join(g.venv, "bin")+string(os.PathListSeparator)+os.Getenv("PATH")) // the venv is active
	if out, stderr, code := g.cli(t, "install", "--framework", "torch", "--framework-version", "2.6.0", "--channel", "cu124",
		"--venv", g.venv, "--python", pyindex.Python(t), "--index-url", ix.ChannelURL("cu124"), "--no-pip-upgrade", "--yes", "--json"); code != 0 {
		t.Fatalf("install cu124: exit %d\n%s\n%s", code, out, stderr)
	}
	before := venvFileSums(t, g.venv)
	t.Logf("cu124 installed: %.1fs", time.Since(t0).Seconds())

	sites, _ := filepath.Glob(filepath.Join(g.venv, "lib", "python3*", "site-packages"))
	if len(sites) != 1 {
		t.Fatalf("site-packages: %v", sites)
	}
	// The 500th of the new torch's 2,500 bulk files: pip is well into writing it.
	probe := filepath.Join(sites[0], "torch", "_bulk_cu126", "f0500.bin")
	switchUntil := func(name string, sig syscall.Signal) *exec.Cmd {
		cmd := exec.Command(exe, "--matrix", g.matrix, "--simulate", g.rig, "install", "--framework", "torch", "--framework-version", "2.6.0",
			"--channel", "cu126", "--venv", g.venv, "--index-url", ix.ChannelURL("cu126"), "--no-pip-upgrade", "--yes")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		logf, err := os.Create(filepath.Join(g.dir, name+".out"))
		must(t, err)
		defer logf.Close()
		cmd.Stdout, cmd.Stderr = logf, logf
		must(t, cmd.Start())
		deadline := time.Now().Add(3 * time.Minute)
		for {
			if _, err := os.Stat(probe); err == nil {
				break
			}
			if time.Now().After(deadline) {
				_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				out, _ := os.ReadFile(logf.Name())
				t.Fatalf("pip never got to %s:\n%s", probe, out)
			}
			time.Sleep(2 * time.Millisecond)
		}
		must(t, syscall.Kill(-cmd.Process.Pid, sig)) // gpuwiz and its pip, as a closed window or a power loss reaches both
		_ = cmd.Wait()
		return cmd
	}

	// A closed terminal or window (SIGTERM here; on Windows the console's close event, which Go
	// delivers as SIGTERM): gpuwiz stops pip, puts the old build back itself and closes the journal.
	cmd := switchUntil("sigterm", syscall.SIGTERM)
	if code := cmd.ProcessState.ExitCode(); code != ExitInterrupted {
		out, _ := os.ReadFile(filepath.Join(g.dir, "sigterm.out"))
		t.Fatalf("after SIGTERM: exit %d, want %d\n%s", code, ExitInterrupted, out)
	}
	if j, _ := install.ReadJournal(g.venv); j == nil || j.Open() || j.Result != install.ResultRestored {
		t.Fatalf("after SIGTERM the journal should be closed, restored: %+v", j)
	}
	if d := filetree.Diff(before, venvFileSums(t, g.venv)); len(d) > 0 {
		t.Fatalf("after SIGTERM the venv differs from before the switch:\n%s", strings.Join(d, "\n"))
	}
	t.Logf("SIGTERM, restored: %.1fs", time.Since(t0).Seconds())

	// A power loss: gpuwiz and pip SIGKILLed, nothing runs after.
	switchUntil("sigkill", syscall.SIGKILL)
	t.Logf("killed: %.1fs", time.Since(t0).Seconds())
	if written, _ := os.ReadDir(filepath.Join(sites[0], "torch", "_bulk_cu126")); len(written) >= 2500 {
		t.Fatal("the new torch was written whole before the kill: the test needs a larger wheel")
	}
	j, err := install.ReadJournal(g.venv)
	if err != nil || j == nil || !j.Open() || j.Step != install.StepInstall || !j.Changed {
		t.Fatalf("the journal should be open at the install step: %+v %v", j, err)
	}

	// doctor names the run.
	out, stderr, code := g.cli(t, "doctor", "--venv", g.venv)
	if code != ExitProblems {
		t.Fatalf("doctor: exit %d\n%s\n%s", code, out, stderr)
	}
	for _, want := range []string{"a switch to torch 2.6.0 (cu126) was interrupted", "stopped during “install the new build”",
		"it had uninstalled torch, torchaudio, torchvision and was installing torch==2.6.0+cu126",
		"(interrupted-install)", "--fix --finish", j.Started.Local().Format("2006-01-02 15:04:05")} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor does not say %q:\n%s", want, out)
		}
	}
	var rep struct {
		Findings []struct{ Code, Severity string }
	}
	jout, _, _ := g.cli(t, "doctor", "--venv", g.venv, "--json")
	must(t, json.Unmarshal([]byte(jout), &rep))
	if len(rep.Findings) == 0 || rep.Findings[0].Code != "interrupted-install" || rep.Findings[0].Severity != "error" {
		t.Fatalf("interrupted-install should be the first finding, an error: %+v", rep.Findings)
	}
	t.Logf("doctor: %.1fs", time.Since(t0).Seconds())
	// install refuses to start on top of it, and says what to do.
	_, stderr, code = g.cli(t, "install", "--framework", "torch", "--framework-version", "2.6.0", "--channel", "cu126",
		"--venv", g.venv, "--index-url", ix.ChannelURL("cu126"), "--no-pip-upgrade", "--yes")
	if code != ExitFailure || !strings.Contains(stderr, "was interrupted") || !strings.Contains(stderr, "gpuwiz doctor --venv") {
		t.Fatalf("install over an interrupted run: exit %d\n%s", code, stderr)
	}

	// doctor --fix --yes puts back every old file from the backup, with no network.
	ix.Close()
	out, stderr, code = g.cli(t, "doctor", "--venv", g.venv, "--fix", "--yes")
	if code != 0 {
		t.Fatalf("doctor --fix: exit %d\n%s\n%s", code, out, stderr)
	}
	t.Logf("doctor --fix: %.1fs", time.Since(t0).Seconds())
	// torch is imported once: after the old files are back, not in the half-changed venv before.
	first, after, _ := strings.Cut(out, "Checking again")
	if !strings.Contains(first, "own check: not before the repair, which first puts back what the interrupted install changed") ||
		strings.Contains(first, "own check, as gpuwiz verify runs it") || !strings.Contains(after, "own check, as gpuwiz verify runs it") {
		t.Errorf("the framework's check should run after the restore only:\n%s", out)
	}
	if d := filetree.Diff(before, venvFileSums(t, g.venv)); len(d) > 0 {
		t.Fatalf("the venv differs from before the switch:\n%s", strings.Join(d, "\n"))
	}
	j, _ = install.ReadJournal(g.venv)
	if j == nil || j.Open() || j.Result != "recovered-restored" {
		t.Fatalf("the journal should be closed: %+v", j)
	}
	state, _ := os.ReadDir(filepath.Join(g.venv, ".gpuwiz"))
	var names []string
	for _, en := range state {
		names = append(names, en.Name())
		if strings.HasPrefix(en.Name(), "backup-") {
			t.Errorf("a backup was left behind: %s", en.Name())
		}
	}
	t.Logf("state folder after the fix: %v", names)
}
