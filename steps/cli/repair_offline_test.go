package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"gpuwiz/matrix"
	"gpuwiz/steps/testkit/filetree"
	"gpuwiz/steps/testkit/pyindex"
)

// repairRig is a machine whose official torch index cannot be reached (nothing listens on it):
// the matrix points there, the user installs from a loopback mirror instead.
type repairRig struct {
	dir, matrix, rig, venv, cache string
}

func newRepairRig(t testing.TB) repairRig {
	dir := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	t.Setenv("HOME", dir)
	t.Setenv("GPUWIZ_VERIFY_MATRIX_N", "8")
	isolatePip(t)
	g := repairRig{dir: dir, matrix: filepath.Join(dir, "matrix.toml"), rig: filepath.Join(dir, "rig.json"),
		venv: filepath.Join(dir, "my venv"), cache: filepath.Join(dir, "cache", "gpuwiz", "wheels")}
	m := strings.ReplaceAll(string(matrix.EmbeddedTOML()), "https://download.pytorch.org/whl/", "http://127.0.0.1:9/whl/")
	must(t, os.WriteFile(g.matrix, []byte(m), 0o644))
	must(t, os.WriteFile(g.rig, []byte(rigH200), 0o644))
	return g
}

// isolatePip gives the test's pip (and gpuwiz's) the kit's settings only: this machine's own PIP_*
// settings are not the test's, and pip 23's upgrade of itself must not wait on PyPI.
func isolatePip(t testing.TB) {
	for _, kv := range os.Environ() {
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
	t.Setenv("PIP_RETRIES", "0")
	t.Setenv("PIP_TIMEOUT", "3")
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func (g repairRig) cli(t testing.TB, args ...string) (string, string, int) {
	return runCLI(t, append([]string{"--matrix", g.matrix, "--simulate", g.rig}, args...)...)
}

// installFromMirror installs torch 2.6.0 cu126 from the mirror and breaks it (a file of torch goes).
func (g repairRig) installFromMirror(t *testing.T, mirror string) {
	t.Helper()
	out, stderr, code := g.cli(t, "install", "--framework", "torch", "--framework-version", "2.6.0", "--channel", "cu126",
		"--venv", g.venv, "--python", pyindex.Python(t), "--index-url", mirror, "--no-pip-upgrade", "--yes", "--json")
	if code != 0 {
		t.Fatalf("install from the mirror: exit %d\n%s\n%s", code, out, stderr)
	}
	lock, err := os.ReadFile(filepath.Join(g.venv, "requirements.lock"))
	must(t, err)
	if !strings.Contains(string(lock), "# index-url: "+mirror) || !strings.Contains(string(lock), "torch==2.6.0+cu126  # sha256=") {
		t.Fatalf("the lock records neither the mirror nor the wheels' hashes:\n%s", lock)
	}
	sites, _ := filepath.Glob(filepath.Join(g.venv, "lib", "python3*", "site-packages", "torch", "_tensor.py"))
	if len(sites) != 1 {
		t.Fatalf("torch/_tensor.py not found: %v", sites)
	}
	must(t, os.Remove(sites[0]))
	t.Setenv("PATH", filepath.Join(g.venv, "bin")+string(os.PathListSeparator)+os.Getenv("PATH")) // the venv is active
}

type fixJSON struct {
	Repair struct {
		Reinstall *struct {
			FrameworkVersion string `json:"framework_version"`
			Channel          string `json:"channel"`
		} `json:"reinstall"`
		Source string `json:"source"`
	} `json:"repair"`
	Result struct {
		Failed bool `json:"failed"`
		Steps  []struct {
			Title string
			OK    bool
			Err   string
		} `json:"steps"`
		After *struct {
			Problems int `json:"problems"`
		} `json:"after"`
	} `json:"result"`
}

// fixLogs are the logs of the doctor --fix runs in g, oldest first (named by time).
func (g repairRig) fixLogs() []string {
	logs, _ := filepath.Glob(filepath.Join(g.dir, "cache", "gpuwiz", "logs", "doctor-fix-*.log"))
	slices.Sort(logs)
	return logs
}

// fixLog is the log of the one doctor --fix run in g.
func (g repairRig) fixLog(t *testing.T) []byte {
	t.Helper()
	logs := g.fixLogs()
	if len(logs) != 1 {
		t.Fatalf("doctor-fix logs: %v", logs)
	}
	b, err := os.ReadFile(logs[0])
	must(t, err)
	return b
}

func (g repairRig) fix(t *testing.T, extra ...string) fixJSON {
	t.Helper()
	out, stderr, code := g.cli(t, append([]string{"doctor", "--venv", g.venv, "--fix", "--yes", "--json"}, extra...)...)
	var rep fixJSON
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("exit %d, not JSON: %v\n%s\n%s", code, err, out, stderr)
	}
	if rep.Repair.Reinstall == nil || rep.Repair.Reinstall.Channel != "cu126" || rep.Result.Failed || rep.Result.After == nil || rep.Result.After.Problems != 0 || code != 0 {
		t.Fatalf("repair: exit %d\n%s\nstderr: %s", code, out, stderr)
	}
	return rep
}

// Installed from a mirror, broken, and the mirror gone too: doctor --fix puts the same build back
// from the wheel cache, with no network at all (neither the official index nor the mirror answers).
func TestDoctorFixRepairsFromTheCacheWithNoNetwork(t *testing.T) {
	g := newRepairRig(t)
	ix := cliIndex(t)
	g.installFromMirror(t, ix.ChannelURL("cu126"))
	ix.Close()
	rep := g.fix(t)
	if !strings.Contains(rep.Repair.Source, "wheel cache") || !strings.Contains(rep.Repair.Source, "no network is needed") {
		t.Fatalf("the plan should say the wheels come from the cache: %q", rep.Repair.Source)
	}
	// torch is imported once after the reinstall (the engine's verify step), not again by the check
	// after the repair; the log says where the repair's time went, step by step.
	b := g.fixLog(t)
	verifies := 0
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "$ ") && strings.Contains(l, "gpuwiz verify (torch)") {
			verifies++
		}
	}
	if verifies != 1 || !strings.Contains(string(b), "\n# step install: ") || !strings.Contains(string(b), "\n# step uninstall: ") {
		t.Errorf("the repair's log: %d runs of the verify script (want 1), step times %v:\n%s", verifies, strings.Contains(string(b), "# step install: "), b)
	}
	// The wheel cache kept the build's resolution for this Python and these sources, every wheel
	// in the cache and checked: the stage step started no pip (no offline try, no dry run).
	if !regexp.MustCompile(`(?m)^# the wheel cache kept how this build was resolved for this Python and these sources: [0-9]+ wheels, all in the cache and checked, taken without starting pip`).Match(b) ||
		strings.Contains(string(b), " -m pip download ") || strings.Contains(string(b), " -m pip install --dry-run ") {
		t.Errorf("the repair's stage step did not take the recorded resolution:\n%s", b)
	}
	// and how long the diagnosis before it took, and the whole repair.
	if !regexp.MustCompile(`(?m)^# diagnosis before the repair: [0-9.]+ s$`).Match(b) || !regexp.MustCompile(`(?m)^# repair and the check after it: [0-9.]+ s$`).Match(b) {
		t.Errorf("the repair's log does not say how long the diagnosis and the repair took:\n%s", b)
	}
}

// The cache is gone: the repair goes to the mirror the lock recorded, not to the official index
// (which does not answer here).
func TestDoctorFixUsesTheMirrorTheLockRecorded(t *testing.T) {
	g := newRepairRig(t)
	ix := cliIndex(t)
	g.installFromMirror(t, ix.ChannelURL("cu126"))
	must(t, os.RemoveAll(g.cache))
	before := ix.TotalRequests()
	rep := g.fix(t)
	if !strings.Contains(rep.Repair.Source, ix.ChannelURL("cu126")) || !strings.Contains(rep.Repair.Source, "requirements.lock") {
		t.Fatalf("the plan should name the lock's mirror: %q", rep.Repair.Source)
	}
	if ix.TotalRequests() == before {
		t.Fatal("the mirror served nothing: the repair did not use it")
	}
}

// A corrupted wheel in the cache is not reused: the repair fetches it again from --index-url.
func TestDoctorFixRefusesACorruptedCachedWheel(t *testing.T) {
	g := newRepairRig(t)
	ix := cliIndex(t)
	g.installFromMirror(t, ix.ChannelURL("cu126"))
	whl := filepath.Join(g.cache, "torch-2.6.0-cu126", "torch-2.6.0+cu126-py3-none-any.whl")
	b, err := os.ReadFile(whl)
	must(t, err)
	b[len(b)/2] ^= 0xff
	must(t, os.WriteFile(whl, b, 0o644))
	before := ix.Requests("torch-2.6.0+cu126-py3-none-any.whl")
	g.fix(t, "--index-url", ix.ChannelURL("cu126"))
	if ix.Requests("torch-2.6.0+cu126-py3-none-any.whl") != before+1 {
		t.Fatal("the corrupted torch wheel was not fetched again")
	}
	if _, err := os.Stat(filepath.Join(g.cache, "torch-2.6.0-cu126", ".rejected", "torch-2.6.0+cu126-py3-none-any.whl")); err != nil {
		t.Fatalf("the corrupted wheel should be set aside: %v", err)
	}
}

// doctor --fix --config takes install's answer file: its index-url wins over the lock's mirror,
// which no longer answers; a key install does not know is refused before anything runs.
func TestDoctorFixConfigTakesTheInstallAnswerFile(t *testing.T) {
	g := newRepairRig(t)
	ix := cliIndex(t)
	g.installFromMirror(t, ix.ChannelURL("cu126"))
	ix.Close()
	must(t, os.RemoveAll(g.cache))
	bad := filepath.Join(g.dir, "bad.toml")
	must(t, os.WriteFile(bad, []byte("index-urll = \"https://example.org\"\n"), 0o644))
	if _, stderr, code := g.cli(t, "doctor", "--venv", g.venv, "--fix", "--yes", "--config", bad); code != 2 || !strings.Contains(stderr, "index-urll") {
		t.Fatalf("a bad key: exit %d, %s", code, stderr)
	}
	ix2 := cliIndex(t)
	answers := filepath.Join(g.dir, "answers.toml")
	must(t, os.WriteFile(answers, []byte("framework = \"torch\"\nindex-url = \""+ix2.ChannelURL("cu126")+"\"\n"), 0o644))
	rep := g.fix(t, "--config", answers)
	if !strings.Contains(rep.Repair.Source, ix2.ChannelURL("cu126")) || ix2.TotalRequests() == 0 {
		t.Fatalf("the answer file's index was not used: %q, %d requests", rep.Repair.Source, ix2.TotalRequests())
	}
}

// cudaRig is repairRig with a build that pins a CUDA library dist, as the real wheels do: torch
// 2.6.0+cu126 requires nvidia-cublas-cu12, whose wheel carries a shared library.
func cudaRig(t testing.TB) (repairRig, *pyindex.Index) { return cudaRigImporting(t, 0) }

// cudaRigImporting is cudaRig with a torch whose import takes importTime (a real one takes seconds).
func cudaRigImporting(t testing.TB, importTime time.Duration) (repairRig, *pyindex.Index) {
	g := newRepairRig(t)
	dir := t.TempDir()
	spec := pyindex.StubSpec{Version: "2.6.0+cu126", CUDA: "12.6", CudaAvailable: true, CuDNN: 90100, ArchList: []string{"sm_80", "sm_90"},
		Requires: []string{"nvidia-cublas-cu12==12.6.4.1"}, ImportTime: importTime}
	files := pyindex.TorchFamily(t, dir, spec, 0)
	libs := map[string]string{
		"nvidia/cublas/lib/libcublasLt.so.12": strings.Repeat("\x7fELF cublasLt ", 512),
		"nvidia/cublas/lib/libcublas.so.12":   strings.Repeat("\x7fELF cublas ", 512),
	}
	if mb, _ := strconv.Atoi(os.Getenv("GPUWIZ_BENCH_CUBLAS_MB")); mb > 0 {
		// A wheel of a real CUDA library's size (the benchmark's knob): random bytes, stored.
		blob := make([]byte, mb<<20)
		_, _ = rand.NewChaCha8([32]byte{7}).Read(blob)
		libs["nvidia/cublas/lib/blob.bin"] = string(blob)
	}
	cublas, err := pyindex.BuildWheel(dir, "nvidia-cublas-cu12", "12.6.4.1", libs, nil, 0)
	must(t, err)
	return g, pyindex.Serve(t, map[string][]string{"cu126": append(files, cublas)})
}

// installCUDABuild installs cudaRig's build into g.venv from ix, closes ix (what follows has no
// network), and returns the path of the installed libcublasLt.so.12.
func installCUDABuild(t testing.TB, g repairRig, ix *pyindex.Index) string {
	t.Helper()
	out, stderr, code := g.cli(t, "install", "--framework", "torch", "--framework-version", "2.6.0", "--channel", "cu126",
		"--venv", g.venv, "--python", pyindex.Python(t), "--index-url", ix.ChannelURL("cu126"), "--no-pip-upgrade", "--yes", "--json")
	if code != 0 {
		t.Fatalf("install: exit %d\n%s\n%s", code, out, stderr)
	}
	ix.Close()
	libs, _ := filepath.Glob(filepath.Join(g.venv, "lib", "python3*", "site-packages", "nvidia", "cublas", "lib", "libcublasLt.so.12"))
	if len(libs) != 1 {
		t.Fatalf("libcublasLt.so.12 not installed: %v", libs)
	}
	return libs[0]
}

// The check after a repair reads the venv as the install step left it: its probes (what the venv
// holds, then pip's settings read for it without a process; the pip on PATH) run beside the engine's
// verify step, whose framework import takes seconds, not after it. The stub torch's import takes 5 s
// here, the probes less even on a loaded machine (at 1.5 s, two pip starts on a busy 2-core machine
// came after it).
func TestDoctorFixChecksTheVenvBesideTheVerifyStep(t *testing.T) {
	g, ix := cudaRigImporting(t, 5*time.Second)
	lib := installCUDABuild(t, g, ix)
	t.Setenv("PATH", filepath.Join(g.venv, "bin")+string(os.PathListSeparator)+os.Getenv("PATH")) // the venv is active
	must(t, os.Remove(lib))
	rep := g.fix(t)
	if rep.Result.Failed || rep.Result.After == nil || rep.Result.After.Problems != 0 {
		t.Fatalf("repair: %+v", rep.Result)
	}
	if _, err := os.Stat(lib); err != nil {
		t.Fatalf("the library was not put back: %v", err)
	}
	log := string(g.fixLog(t))
	installed := strings.Index(log, "\n# step install: ")
	verified := strings.Index(log, "\n# step verify: ")
	// The runner writes a command into the log when it ends.
	inspected := strings.LastIndex(log, "# gpuwiz inspect: ")
	pipOnPath := strings.LastIndex(log, "/pip\" --version\n")
	if installed < 0 || verified < 0 || inspected < 0 || pipOnPath < 0 {
		t.Fatalf("the log lacks a step or a probe (install %d, verify %d, inspect %d, pip --version %d):\n%s", installed, verified, inspected, pipOnPath, log)
	}
	if !(installed < inspected && inspected < verified && installed < pipOnPath && pipOnPath < verified) {
		t.Errorf("the check after the repair did not probe the venv during the verify step (install step ended at %d, verify at %d; pip config list at %d, pip --version at %d):\n%s",
			installed, verified, inspected, pipOnPath, log)
	}
}

// A CUDA library deleted from the venv (a disk cleaner, by hand): doctor names it, and doctor --fix
// reinstalls the build and puts that dist back at its version from the wheel cache, with no network,
// through gpuwiz's installer and through pip alike.
func TestDoctorFixPutsBackADeletedCUDALibrary(t *testing.T) {
	for _, installer := range []string{"gpuwiz", "pip"} {
		t.Run(installer, func(t *testing.T) {
			if installer == "pip" {
				t.Setenv("GPUWIZ_INSTALLER", "pip")
			}
			g, ix := cudaRig(t)
			lib := installCUDABuild(t, g, ix)
			t.Setenv("PATH", filepath.Join(g.venv, "bin")+string(os.PathListSeparator)+os.Getenv("PATH")) // the venv is active
			want, err := os.ReadFile(lib)
			must(t, err)
			must(t, os.Remove(lib))

			out, _, _ := g.cli(t, "doctor", "--venv", g.venv, "--json")
			oneJSON(t, "doctor --json", out)
			if !strings.Contains(out, `"files-missing"`) || !strings.Contains(out, "nvidia-cublas-cu12 12.6.4.1: 1 file missing: nvidia/cublas/lib/libcublasLt.so.12") {
				t.Fatalf("doctor does not name the deleted library:\n%s", out)
			}
			out, stderr, code := g.cli(t, "doctor", "--venv", g.venv, "--fix", "--yes", "--json")
			var rep struct {
				fixJSON
				Repair struct {
					ReinstallDists []string `json:"reinstall_dists"`
					Source         string   `json:"source"`
				} `json:"repair"`
				Report frameworkCheckJSON `json:"report"`
			}
			var checkAfter struct {
				Result struct {
					After frameworkCheckJSON `json:"after"`
				} `json:"result"`
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("exit %d, not JSON: %v\n%s\n%s", code, err, out, stderr)
			}
			must(t, json.Unmarshal([]byte(out), &checkAfter))
			if code != 0 || rep.Result.Failed || rep.Result.After == nil || rep.Result.After.Problems != 0 {
				t.Fatalf("repair: exit %d\n%s\nstderr: %s", code, out, stderr)
			}
			if strings.Join(rep.Repair.ReinstallDists, " ") != "nvidia-cublas-cu12" || !strings.Contains(rep.Repair.Source, "wheel cache") {
				t.Errorf("plan: dists %q, source %q", rep.Repair.ReinstallDists, rep.Repair.Source)
			}
			got, err := os.ReadFile(lib)
			if err != nil || string(got) != string(want) {
				t.Fatalf("libcublasLt.so.12 not put back as it was: %v", err)
			}
			// torch is imported once, on the reinstalled build: not before the repair, whose
			// reinstall the missing files call for anyway.
			if before, after := rep.Report.FrameworkCheck, checkAfter.Result.After.FrameworkCheck; before.Ran || !before.Deferred || !after.Ran || !after.Imported {
				t.Errorf("framework check before the repair %+v (want deferred, not run), after %+v (want run)", before, after)
			}
		})
	}
}

// Declining doctor --fix's plan changes nothing, and says that the framework's check, left to after
// the repair, did not run, and how to run it.
func TestDoctorFixDeclinedSaysTheCheckDidNotRun(t *testing.T) {
	g, ix := cudaRig(t)
	must(t, os.Remove(installCUDABuild(t, g, ix)))
	before := filetree.Sums(t, g.venv, filetree.Options{Skip: []string{".gpuwiz"}}, g.venv)
	root, _ := NewRoot(Build{Version: "test"})
	root.SetIn(strings.NewReader("n\n"))
	var out, errb bytes.Buffer
	code := run(context.Background(), root, []string{"--matrix", g.matrix, "--simulate", g.rig, "doctor", "--venv", g.venv, "--fix"}, &out, &errb)
	if code != ExitProblems || !strings.Contains(out.String(), "Nothing changed.") ||
		!strings.Contains(out.String(), "did not run: it was left to after the repair. gpuwiz doctor without --fix runs it") {
		t.Fatalf("declined: exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	if diff := filetree.Diff(before, filetree.Sums(t, g.venv, filetree.Options{Skip: []string{".gpuwiz"}}, g.venv)); len(diff) > 0 {
		t.Errorf("the venv changed: %q", diff)
	}
}

// oneJSON fails unless out is one JSON document and nothing after it (a script reads it whole).
func oneJSON(t testing.TB, what, out string) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(out))
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%s: not JSON: %v\n%s", what, err, out)
	}
	if err := dec.Decode(new(any)); err != io.EOF {
		t.Fatalf("%s: more after the JSON document:\n%s", what, out)
	}
}

// frameworkCheckJSON is the framework check of a doctor report in --json.
type frameworkCheckJSON struct {
	FrameworkCheck struct {
		Ran      bool `json:"ran"`
		Deferred bool `json:"deferred"`
		Imported bool `json:"imported"`
	} `json:"framework_check"`
}

// doctor --fix leaves the framework's check to after a reinstall only when its plan makes one: with
// no matrix to find the build in, nothing is reinstalled, and the diagnosis checks the framework
// as doctor alone does.
func TestDoctorFixChecksTheFrameworkWhenItCannotReinstall(t *testing.T) {
	g, ix := cudaRig(t)
	must(t, os.Remove(installCUDABuild(t, g, ix)))
	g.matrix = filepath.Join(g.dir, "no-such-matrix.toml")
	out, stderr, code := g.cli(t, "doctor", "--venv", g.venv, "--fix", "--yes", "--json")
	var rep struct {
		Report frameworkCheckJSON `json:"report"`
		Repair struct {
			Reinstall any `json:"reinstall"`
		} `json:"repair"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("exit %d, not JSON: %v\n%s\n%s", code, err, out, stderr)
	}
	if rep.Repair.Reinstall != nil || code != 5 {
		t.Fatalf("without a matrix: exit %d, reinstall %v (want 5, none)\n%s", code, rep.Repair.Reinstall, out)
	}
	if fc := rep.Report.FrameworkCheck; !fc.Ran || fc.Deferred || !fc.Imported {
		t.Errorf("the framework check was not run before a repair without a reinstall: %+v\n%s", fc, out)
	}
}

// A CUDA library dist that is no part of the build (installed on its own) lost a file: the reinstall
// could not put it back, so doctor --fix stops before changing anything and says so.
func TestDoctorFixLeavesAStrayCUDADistAsItWas(t *testing.T) {
	g, ix := cudaRig(t)
	defer ix.Close()
	out, stderr, code := g.cli(t, "install", "--framework", "torch", "--framework-version", "2.6.0", "--channel", "cu126",
		"--venv", g.venv, "--python", pyindex.Python(t), "--index-url", ix.ChannelURL("cu126"), "--no-pip-upgrade", "--yes", "--json")
	if code != 0 {
		t.Fatalf("install: exit %d\n%s\n%s", code, out, stderr)
	}
	stray, err := pyindex.BuildWheel(t.TempDir(), "nvidia-nccl-cu12", "2.21.5", map[string]string{"nvidia/nccl/lib/libnccl.so.2": "\x7fELF nccl"}, nil, 0)
	must(t, err)
	py := filepath.Join(g.venv, "bin", "python")
	if b, err := exec.Command(py, "-m", "pip", "install", "--no-index", "--no-deps", stray).CombinedOutput(); err != nil {
		t.Fatalf("pip install the stray dist: %v\n%s", err, b)
	}
	libs, _ := filepath.Glob(filepath.Join(g.venv, "lib", "python3*", "site-packages", "nvidia", "nccl", "lib", "libnccl.so.2"))
	must(t, os.Remove(libs[0]))
	before := filetree.Sums(t, g.venv, filetree.Options{Skip: []string{".gpuwiz"}}, g.venv)

	out, stderr, code = g.cli(t, "doctor", "--venv", g.venv, "--fix", "--yes", "--json")
	if code == 0 || !strings.Contains(out+stderr, "do not include nvidia-nccl-cu12") || !strings.Contains(out+stderr, "nothing was changed") {
		t.Fatalf("a dist the build does not stage: exit %d\n%s\n%s", code, out, stderr)
	}
	if diff := filetree.Diff(before, filetree.Sums(t, g.venv, filetree.Options{Skip: []string{".gpuwiz"}}, g.venv)); len(diff) > 0 {
		t.Errorf("the venv changed: %q", diff)
	}
}

// A repair whose lock names the build's wheels, in a venv that has also lost one of the build's
// dependencies: pip's dry run against the venv names that dependency, and the repair puts it back
// from the cache with the rest, still without pip's offline try and with no network.
func TestDoctorFixFromTheLockPutsBackAMissingDependency(t *testing.T) {
	g, ix := cudaRig(t)
	lib := installCUDABuild(t, g, ix)
	t.Setenv("PATH", filepath.Join(g.venv, "bin")+string(os.PathListSeparator)+os.Getenv("PATH")) // the venv is active
	py := filepath.Join(g.venv, "bin", "python")
	if out, err := exec.Command(py, "-m", "pip", "uninstall", "-y", "-q", "nvidia-cublas-cu12").CombinedOutput(); err != nil {
		t.Fatalf("pip uninstall: %v %s", err, out)
	}
	sites, _ := filepath.Glob(filepath.Join(g.venv, "lib", "python3*", "site-packages", "torch", "_tensor.py"))
	if len(sites) != 1 {
		t.Fatalf("torch/_tensor.py not found: %v", sites)
	}
	must(t, os.Remove(sites[0]))
	// Without the resolution the cache records (a cache from an older gpuwiz), the lock names the wheels.
	recorded, _ := filepath.Glob(filepath.Join(g.cache, "*", "gpuwiz-resolved.json"))
	if len(recorded) != 1 {
		t.Fatalf("the install recorded no resolution in the cache: %v", recorded)
	}
	must(t, os.Remove(recorded[0]))
	out, stderr, code := g.cli(t, "doctor", "--venv", g.venv, "--fix", "--yes", "--json")
	if code != 0 {
		t.Fatalf("doctor --fix: exit %d\n%s\n%s", code, out, stderr)
	}
	if _, err := os.Stat(lib); err != nil {
		t.Errorf("nvidia-cublas-cu12 was not put back: %v", err)
	}
	if _, err := os.Stat(sites[0]); err != nil {
		t.Errorf("torch/_tensor.py was not put back: %v", err)
	}
	b := g.fixLog(t)
	if !strings.Contains(string(b), "requirements.lock names 3 wheels of this build") || strings.Contains(string(b), " -m pip download ") ||
		!regexp.MustCompile(`(?m)^# pip's dry run against the venv asks for 1 more wheel, from the cache: nvidia_cublas_cu12-12\.6\.4\.1-\S+\.whl$`).Match(b) {
		t.Errorf("the stage step did not take the lock's 3 wheels and the dependency pip's dry run named:\n%s", b)
	}
}
