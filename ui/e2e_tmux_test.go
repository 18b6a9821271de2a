package ui

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"gpuwiz/steps/i18n/i18ntest"
	"gpuwiz/steps/testkit/pyindex"
)

// e2eRig is a simulated machine, a loopback index with stub torch/paddle wheels, the test matrix
// pointing at it and the real binary, ready to run in tmux.
type e2eRig struct {
	dir, bin, matrix, rig string
	sources               string // the --sources list: none but the matrix's index unless a test writes one
	env                   []string
	ix                    *pyindex.Index // the loopback index (newRigServing's rigs)
}

func torchWheels(t *testing.T, dir, channel, cuda string, pad int) []string {
	spec := pyindex.StubSpec{Version: "2.6.0+" + channel, CUDA: cuda, ArchList: []string{"sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"},
		DeviceName: "NVIDIA GeForce RTX 3060", CudaAvailable: true, CuDNN: 90100, Capability: "8.6", DeviceCount: 1}
	return pyindex.TorchFamily(t, dir, spec, pad)
}

func paddleStub(t *testing.T, cuda string) map[string]string {
	return pyindex.PaddleStub(pyindex.StubSpec{Version: "3.0.0", CUDA: cuda, DeviceName: "NVIDIA GeForce RTX 3060",
		CudaAvailable: cuda != "", CuDNN: 90500, Capability: "8.6", DeviceCount: 1})
}

func newE2ERig(t *testing.T, torchPad int) *e2eRig {
	t.Helper()
	return newRigServing(t, pyindex.Network{}, func(wheels string) map[string][]string {
		return map[string][]string{
			"cu126":        torchWheels(t, filepath.Join(wheels, "cu126"), "cu126", "12.6", torchPad),
			"cu118":        torchWheels(t, filepath.Join(wheels, "cu118"), "cu118", "11.8", 0),
			"paddle-cu126": {buildWheel(t, filepath.Join(wheels, "paddle"), "paddlepaddle-gpu", "3.0.0", paddleStub(t, "12.6"), 0)},
			"paddle-cpu":   {buildWheel(t, filepath.Join(wheels, "paddle-cpu"), "paddlepaddle", "3.0.0", paddleStub(t, ""), 0)},
		}
	})
}

// newRigServing is the rig around an index, served over net, of the channels that channels builds
// in the folder wheels.
func newRigServing(t *testing.T, net pyindex.Network, channels func(wheels string) map[string][]string) *e2eRig {
	t.Helper()
	needTmux(t)
	dir := t.TempDir()
	wheels := filepath.Join(dir, "wheels")
	if err := os.MkdirAll(wheels, 0o755); err != nil {
		t.Fatal(err)
	}
	ix := pyindex.ServeWith(t, channels(wheels), net)
	rig, _ := filepath.Abs(filepath.Join("testdata", "e2e", "rig-rtx3060.json"))
	r := &e2eRig{dir: dir, bin: buildBinary(t), matrix: writeMatrix(t, dir, ix.URL), rig: rig, env: pipEnv(t),
		sources: filepath.Join(dir, "sources.toml"), ix: ix}
	if err := os.WriteFile(r.sources, []byte("schema = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Its own user config dir: the list of venvs gpuwiz worked on starts empty.
	r.env = append(r.env, "TERM=xterm-256color", "XDG_CONFIG_HOME="+filepath.Join(dir, "config"), "XDG_CACHE_HOME="+filepath.Join(dir, "cache"))
	return r
}

func (r *e2eRig) start(t *testing.T) *tmuxSession {
	s := startShell(t, r.dir, r.env)
	s.Text(r.bin + " --simulate " + r.rig + " --matrix " + r.matrix + " --sources " + r.sources + "; echo EXIT=$?")
	s.Keys("Enter")
	s.WaitFor("Set up a new environment", 30*time.Second)
	if !strings.Contains(s.Screen(), "SIMULATED") {
		t.Fatalf("no SIMULATED banner:\n%s", s.Screen())
	}
	return s
}

// newSetupToPlan walks welcome → GPU → framework → channel → venv → package source → plan.
func newSetupToPlan(t *testing.T, s *tmuxSession, venv string) {
	newSetupToSources(t, s, venv)
	s.Keys("Enter")
	s.WaitFor("Run this plan?", 60*time.Second, "Cannot make a plan")
}

// newSetupToSources walks welcome → GPU → framework → channel → venv → package source, and waits
// for the sources' check.
func newSetupToSources(t *testing.T, s *tmuxSession, venv string) {
	s.WaitFor("Set up a new environment", 15*time.Second)
	s.Keys("Enter")
	s.WaitFor("Press enter to choose a framework", 30*time.Second)
	s.Keys("Enter")
	s.WaitFor("in the matrix", 30*time.Second)
	s.Keys("Enter")
	scr := s.WaitFor("cu118", 30*time.Second)
	if !strings.Contains(scr, "★ cu126") && !strings.Contains(scr, "* cu126") {
		t.Fatalf("cu126 should be recommended on driver 560 / sm_86:\n%s", scr)
	}
	s.Keys("Enter")
	s.WaitFor("a new venv will be created", 40*time.Second)
	for range len("venv-torch") {
		s.Keys("BSpace")
	}
	s.Text(venv)
	s.WaitFor("a new venv will be created", 15*time.Second)
	s.Keys("Enter")
	s.WaitFor("Where should", 30*time.Second)
	s.WaitFor("your URL:", 30*time.Second, "Cannot check the package sources")
}

// finishVerifiedInstall goes on from "Press enter to verify": verify → every check passed → the
// done screen → q, and returns the screen once the wizard exited 0.
func finishVerifiedInstall(s *tmuxSession) string {
	s.Keys("Enter")
	s.WaitFor("Every check passed", 120*time.Second, "Some checks failed")
	s.Keys("Enter")
	s.WaitFor("installed and verified", 30*time.Second)
	s.Keys("q")
	return s.WaitFor("EXIT=0", 40*time.Second)
}

func TestE2ENewSetupInTmux(t *testing.T) {
	r := newE2ERig(t, 0)
	s := r.start(t)
	venv := filepath.Join(r.dir, "venvs", "torch gpu") // a space: argv, never a shell string
	newSetupToPlan(t, s, venv)
	scr := s.Screen()
	for _, want := range []string{"torch==2.6.0", "cu126"} {
		if !strings.Contains(scr, want) {
			t.Fatalf("plan lacks %q:\n%s", want, scr)
		}
	}
	if _, err := os.Stat(venv); err == nil {
		t.Fatal("the venv exists before the plan was confirmed")
	}
	s.Keys("y")
	s.WaitFor("Press enter to verify", 180*time.Second, "Install failed", "Cancelled", "repair failed")
	scr = finishVerifiedInstall(s)
	py := filepath.Join(venv, "bin", "python")
	got := strings.TrimSpace(run(t, r.env, py, "-c", "import torch; print(torch.__version__)"))
	if got != "2.6.0+cu126" {
		t.Fatalf("venv holds torch %q, want 2.6.0+cu126", got)
	}
	lock := regexp.MustCompile(`lock file:\s+(\S.*)`).FindStringSubmatch(scr)
	if lock == nil {
		t.Fatalf("the summary names no lock file:\n%s", scr)
	}
	body, err := os.ReadFile(strings.TrimSpace(lock[1]))
	if err != nil || !strings.Contains(string(body), "2.6.0+cu126") {
		t.Fatalf("lock file %s: %v\n%s", lock[1], err, body)
	}
}

func TestE2ECtrlCDuringInstallInTmux(t *testing.T) {
	r := newE2ERig(t, 400<<20) // a 400 MiB torch wheel: the install takes long enough to interrupt
	s := r.start(t)
	venv := filepath.Join(r.dir, "venvs", "torch")
	newSetupToPlan(t, s, venv)
	s.Keys("y")
	s.WaitFor("ctrl+c cancel", 30*time.Second)
	time.Sleep(1500 * time.Millisecond) // into pip's download
	s.Keys("C-c")
	s.WaitFor("Cancel the install?", 15*time.Second)
	s.Keys("y")
	scr := s.WaitFor("Cancelled.", 120*time.Second)
	restored := strings.Contains(scr, "was restored")
	s.Keys("Enter")
	s.WaitFor("q or enter to quit", 30*time.Second)
	s.Keys("q")
	s.WaitFor("EXIT=130", 30*time.Second)
	// The terminal is usable: the shell answers.
	s.Text("echo alive-$((6*7))")
	s.Keys("Enter")
	s.WaitFor("alive-42", 15*time.Second)
	// Consistent: the new torch set is absent (restored) or complete (the install had finished).
	py := filepath.Join(venv, "bin", "python")
	if _, err := os.Stat(py); err != nil {
		return // cancelled before the venv existed: nothing to be inconsistent
	}
	out, _ := exec.Command(py, "-c", "import importlib.util as u; print([bool(u.find_spec(m)) for m in ('torch','torchvision','torchaudio')])").CombinedOutput()
	got := strings.TrimSpace(string(out))
	if got != "[False, False, False]" && got != "[True, True, True]" {
		t.Fatalf("half-installed torch family after cancel (restored=%v): %s", restored, got)
	}
}

func TestE2ERepairPaddleMixedInTmux(t *testing.T) {
	r := newE2ERig(t, 0)
	venv := filepath.Join(r.dir, "paddle-env")
	run(t, r.env, "python3", "-m", "venv", venv)
	pip := filepath.Join(venv, "bin", "pip")
	idx := strings.TrimSuffix(strings.SplitN(readMatrixIndex(t, r.matrix), "/whl/", 2)[0], "/")
	run(t, r.env, pip, "install", "--index-url", idx+"/whl/paddle-cpu/", "paddlepaddle==3.0.0")
	run(t, r.env, pip, "install", "--index-url", idx+"/whl/paddle-cu126/", "paddlepaddle-gpu==3.0.0")
	s := r.start(t)
	s.Keys("3")
	s.WaitFor("Which Python environment?", 15*time.Second)
	s.Text(venv)
	s.WaitFor("holds:", 30*time.Second)
	s.Keys("Enter")
	scr := s.WaitFor("[paddle-mixed]", 90*time.Second)
	if strings.Index(scr, "ERROR") > strings.Index(scr, "WARNING") && strings.Contains(scr, "WARNING") {
		t.Fatalf("errors must come first:\n%s", scr)
	}
	s.Keys("Enter")
	scr = s.WaitFor("Run this plan?", 30*time.Second)
	for _, want := range []string{"To remove", "paddlepaddle-gpu", "uninstall"} {
		if !strings.Contains(scr, want) {
			t.Fatalf("repair plan lacks %q:\n%s", want, scr)
		}
	}
	s.Keys("y")
	s.WaitFor("Press enter to verify", 180*time.Second, "Install failed", "Cancelled", "repair failed")
	s.Keys("Enter")
	// The checklist is doctor run again: the mix must be gone. (Other findings, such as the stub
	// paddle's own check, are doctor's verdict on the stub, not the repair's.)
	scr = s.WaitFor("enter: finish", 60*time.Second)
	t.Logf("after the repair:\n%s", scr)
	if strings.Contains(scr, "paddle-mixed") || strings.Contains(scr, "Both paddlepaddle") {
		t.Fatalf("doctor still finds both Paddle dists after the repair:\n%s", scr)
	}
	s.Keys("Enter")
	s.WaitFor("q or enter to quit", 30*time.Second)
	s.Keys("q")
	s.WaitFor("EXIT=", 40*time.Second)
	list := run(t, r.env, filepath.Join(venv, "bin", "python"), "-m", "pip", "list", "--format=freeze")
	if !strings.Contains(list, "paddlepaddle-gpu==3.0.0") || regexp.MustCompile(`(?m)^paddlepaddle==`).MatchString(list) {
		t.Fatalf("after repair the venv should hold paddlepaddle-gpu only:\n%s", list)
	}
}

// The repair journey offers the venvs gpuwiz made: the newest is in the input, down picks the
// Paddle one, enter repairs it — no path typed. The wizard then has it on the list as repaired.
func TestE2ERepairPicksAKnownVenvInTmux(t *testing.T) {
	r := newE2ERig(t, 0)
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	venv := filepath.Join(r.dir, "paddle-env")
	run(t, r.env, r.bin, "venv", venv, "--python", python) // gpuwiz made it: on the list
	idx := strings.TrimSuffix(strings.SplitN(readMatrixIndex(t, r.matrix), "/whl/", 2)[0], "/")
	pip := filepath.Join(venv, "bin", "pip")
	run(t, r.env, pip, "install", "--index-url", idx+"/whl/paddle-cpu/", "paddlepaddle==3.0.0")
	run(t, r.env, pip, "install", "--index-url", idx+"/whl/paddle-cu126/", "paddlepaddle-gpu==3.0.0")
	other := filepath.Join(r.dir, "other-env")
	run(t, r.env, r.bin, "venv", other, "--python", python) // newer: listed first
	s := r.start(t)
	s.Keys("3")
	scr := s.WaitFor("Venvs gpuwiz knows", 30*time.Second)
	if strings.Index(scr, other) > strings.Index(scr, venv) || !strings.Contains(scr, "PaddlePaddle 3.0.0 (paddlepaddle and paddlepaddle-gpu both)") {
		t.Fatalf("the list should show other-env first, then paddle-env with what it holds:\n%s", scr)
	}
	s.WaitFor("path: "+other, 15*time.Second)
	s.Keys("Down")
	s.WaitFor("path: "+venv, 15*time.Second)
	s.WaitFor("PaddlePaddle 3.0.0 (-)", 30*time.Second) // the holds: line, read for the picked path
	s.Keys("Enter")
	s.WaitFor("[paddle-mixed]", 90*time.Second)
	s.Keys("Enter")
	s.WaitFor("Run this plan?", 30*time.Second)
	s.Keys("y")
	s.WaitFor("Press enter to verify", 180*time.Second, "Install failed", "Cancelled", "repair failed")
	s.Keys("Enter")
	s.WaitFor("enter: finish", 60*time.Second)
	s.Keys("Enter")
	s.WaitFor("q or enter to quit", 30*time.Second)
	s.Keys("q")
	s.WaitFor("EXIT=", 40*time.Second)
	out := run(t, r.env, r.bin, "venvs", "--json")
	var rep struct {
		Venvs []struct {
			Path  string
			Known *struct{ Action, Result string }
			Holds struct{ Framework, Package string }
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(rep.Venvs) != 2 || rep.Venvs[0].Path != venv || rep.Venvs[0].Known == nil || rep.Venvs[0].Known.Action != "repair" ||
		rep.Venvs[0].Holds.Package != "paddlepaddle-gpu" || rep.Venvs[1].Path != other {
		t.Fatalf("after the wizard's repair the list should have paddle-env first, repaired, holding paddlepaddle-gpu:\n%s", out)
	}
}

func readMatrixIndex(t *testing.T, matrix string) string {
	b, err := os.ReadFile(matrix)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`index_url = "([^"]+)"`).FindSubmatch(b)
	return string(m[1])
}

func TestE2EChangeChannelInTmux(t *testing.T) {
	r := newE2ERig(t, 0)
	venv := filepath.Join(r.dir, "old-env")
	run(t, r.env, "python3", "-m", "venv", venv)
	idx := strings.SplitN(readMatrixIndex(t, r.matrix), "/whl/", 2)[0]
	run(t, r.env, filepath.Join(venv, "bin", "pip"), "install", "--index-url", idx+"/whl/cu118",
		"torch==2.6.0+cu118", "torchvision==0.21.0+cu118", "torchaudio==2.6.0+cu118")
	s := r.start(t)
	s.Keys("2")
	s.WaitFor("Which Python environment?", 15*time.Second)
	// Found, not typed: the venv beside the folder the wizard runs in is listed (to pick with the
	// arrows; the path field stays as typed).
	s.WaitFor("found beside the folder", 30*time.Second)
	s.Text(venv)
	s.WaitFor("PyTorch 2.6.0 (cu118)", 30*time.Second)
	s.Keys("Enter")
	s.WaitFor("Press enter to choose the new channel", 30*time.Second)
	s.Keys("Enter")
	scr := s.WaitFor("Same version first", 30*time.Second)
	if !regexp.MustCompile(`(?m)^ *[▸>] .*cu126 +CUDA 12.6 +2\.6\.0`).MatchString(scr) || !strings.Contains(scr, "(current)") {
		t.Fatalf("the cursor should start on cu126 at the same version, cu118 marked current:\n%s", scr)
	}
	s.Keys("Enter")
	s.WaitFor("your URL:", 30*time.Second, "Cannot check the package sources")
	s.Keys("Enter")
	scr = s.WaitFor("Run this plan?", 60*time.Second, "Cannot make a plan")
	if !strings.Contains(scr, "To remove") || !strings.Contains(scr, "torch==2.6.0+cu118") {
		t.Fatalf("changing channel removes the old set first, named with the version the venv holds:\n%s", scr)
	}
	s.Keys("y")
	s.WaitFor("Press enter to verify", 180*time.Second, "Install failed", "Cancelled")
	finishVerifiedInstall(s)
	got := strings.TrimSpace(run(t, r.env, filepath.Join(venv, "bin", "python"), "-c", "import torch, torchvision; print(torch.__version__, torchvision.__version__)"))
	if got != "2.6.0+cu126 0.21.0+cu126" {
		t.Fatalf("after the change the venv holds %q", got)
	}
}

// In a terminal with stdin redirected the wizard refuses at once, naming the headless commands.
func TestE2EStdinNotATerminalInTmux(t *testing.T) {
	needTmux(t)
	dir := t.TempDir()
	rig, _ := filepath.Abs(filepath.Join("testdata", "e2e", "rig-rtx3060.json"))
	s := startShell(t, dir, []string{"TERM=xterm-256color", "PATH=" + os.Getenv("PATH")})
	s.Text(buildBinary(t) + " --simulate " + rig + " < /dev/null; echo EXIT=$?")
	s.Keys("Enter")
	scr := s.WaitFor("EXIT=2", 30*time.Second, "EXIT=0", "EXIT=1", "interrupted")
	for _, want := range []string{"stdin is not", "gpuwiz install --yes", "gpuwiz --help"} {
		if !strings.Contains(scr, want) {
			t.Fatalf("want %q on the screen:\n%s", want, scr)
		}
	}
}

// A venv gpuwiz installed, broken afterwards (a file of torch deleted), and its index gone: the
// wizard's repair plan says the wheels come from the wheel cache, and the repair puts the same build
// back with no network at all.
func TestE2ERepairFromTheCacheWithTheIndexGoneInTmux(t *testing.T) {
	needTmux(t)
	dir := t.TempDir()
	ix := pyindex.Serve(t, map[string][]string{"cu126": torchWheels(t, filepath.Join(dir, "wheels"), "cu126", "12.6", 0)})
	rig, _ := filepath.Abs(filepath.Join("testdata", "e2e", "rig-rtx3060.json"))
	r := &e2eRig{dir: dir, bin: buildBinary(t), matrix: writeMatrix(t, dir, ix.URL), rig: rig, env: pipEnv(t), sources: filepath.Join(dir, "sources.toml")}
	r.env = append(r.env, "TERM=xterm-256color", "XDG_CONFIG_HOME="+filepath.Join(dir, "config"), "XDG_CACHE_HOME="+filepath.Join(dir, "cache"))
	if err := os.WriteFile(r.sources, []byte("schema = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	venv := filepath.Join(dir, "torch-env")
	run(t, r.env, r.bin, "--simulate", r.rig, "--matrix", r.matrix, "install", "--framework", "torch", "--framework-version", "2.6.0",
		"--channel", "cu126", "--venv", venv, "--python", python, "--no-pip-upgrade", "--yes")
	broken, _ := filepath.Glob(filepath.Join(venv, "lib", "python3*", "site-packages", "torch", "_tensor.py"))
	if len(broken) != 1 {
		t.Fatalf("torch/_tensor.py: %v", broken)
	}
	if err := os.Remove(broken[0]); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	// Another Python's pip first on PATH, and no environment active: context, not a problem.
	other := pyindex.NewVenv(t, filepath.Join(dir, "other"))
	for i, kv := range r.env {
		if strings.HasPrefix(kv, "PATH=") {
			r.env[i] = "PATH=" + other.BinDir() + string(os.PathListSeparator) + strings.TrimPrefix(kv, "PATH=")
		}
	}

	s := r.start(t)
	s.Keys("3")
	s.WaitFor("torch-env", 30*time.Second) // the venv gpuwiz installed is on its list, and in the input
	s.WaitFor("holds: Python", 30*time.Second)
	s.Keys("Enter")
	s.WaitFor("[framework-check-failed]", 90*time.Second)
	s.Keys("Enter")
	scr := s.WaitFor("Run this plan?", 30*time.Second)
	if !strings.Contains(scr, "wheel cache") {
		t.Fatalf("the repair plan should say the wheels come from the wheel cache:\n%s", scr)
	}
	s.Keys("y")
	s.WaitFor("Press enter to verify", 180*time.Second, "Install failed", "Cancelled", "repair failed")
	s.Keys("Enter")
	scr = s.WaitFor("enter: finish", 60*time.Second)
	if strings.Contains(scr, "framework-check-failed") {
		t.Fatalf("doctor still finds the framework broken after the repair:\n%s", scr)
	}
	s.Keys("Enter")
	scr = s.WaitFor("q or enter to quit", 30*time.Second)
	if !strings.Contains(scr, "✓ Repaired: PyTorch 2.6.0 (cu126) is installed and verified") ||
		!strings.Contains(scr, "for your information: `pip` on PATH installs into another") || strings.Contains(scr, "✗") {
		t.Fatalf("the repair worked: the done screen should say ✓ with the foreign pip as context:\n%s", scr)
	}
	s.Keys("q")
	if code := waitExit(t, s, 40*time.Second); code != "0" {
		t.Fatalf("the wizard should exit 0 after a repair that worked, exit %s:\n%s", code, s.Screen())
	}
	got := strings.TrimSpace(run(t, r.env, filepath.Join(venv, "bin", "python"), "-c", "import torch; print(torch.__version__)"))
	if got != "2.6.0+cu126" {
		t.Fatalf("after the repair the venv holds torch %q", got)
	}
}

// startLang starts the real binary with extra flags (--lang zh-CN) and waits for the welcome's want.
func (r *e2eRig) startLang(t *testing.T, want string, flags ...string) *tmuxSession {
	t.Helper()
	t.Setenv("LC_CTYPE", "C.UTF-8") // tmux draws Chinese only when its client's locale is UTF-8
	s := startShell(t, r.dir, r.env)
	s.Text(strings.Join(append([]string{r.bin, "--simulate", r.rig, "--matrix", r.matrix, "--sources", r.sources}, flags...), " ") + "; echo EXIT=$?")
	s.Keys("Enter")
	s.WaitFor(want, 30*time.Second)
	return s
}

// With --lang zh-CN the real binary draws the welcome, GPU, framework and channel screens in
// Chinese, the help bar too.
func TestE2EChineseScreensInTmux(t *testing.T) {
	r := newE2ERig(t, 0)
	s := r.startLang(t, "更多按键", "--lang", "zh-CN")
	scr := s.Screen()
	for _, want := range []string{"欢迎", "只检查本机", "界面语言：简体中文", "q 退出", "模拟运行"} {
		if !strings.Contains(scr, want) {
			t.Fatalf("the welcome lacks %q:\n%s", want, scr)
		}
	}
	i18ntest.NoEnglishProse(t, "welcome", scr)
	s.Keys("Enter")
	scr = s.WaitFor("按 enter 选择框架", 30*time.Second)
	for _, want := range []string{"显卡与驱动", "显卡驱动 560.94", "最高支持 CUDA", "RTX 3060", "esc 返回"} {
		if !strings.Contains(scr, want) {
			t.Fatalf("the GPU screen lacks %q:\n%s", want, scr)
		}
	}
	i18ntest.NoEnglishOnScreen(t, "GPU screen", scr)
	s.Keys("Enter")
	s.WaitFor("个版本", 30*time.Second)
	s.Keys("Enter")
	scr = s.WaitFor("cu118", 30*time.Second)
	for _, want := range []string{"的 CUDA 通道", "推荐", "上移"} {
		if !strings.Contains(scr, want) {
			t.Fatalf("the channel screen lacks %q:\n%s", want, scr)
		}
	}
	s.Keys("q")
	s.WaitFor("EXIT=0", 30*time.Second)
}

// l on the welcome of the real binary switches to Chinese and back.
func TestE2EWelcomeLanguageKeyInTmux(t *testing.T) {
	r := newE2ERig(t, 0)
	s := r.startLang(t, "more keys")
	if !strings.Contains(s.Screen(), "l 中文") {
		t.Fatalf("the welcome does not offer l:\n%s", s.Screen())
	}
	s.Keys("l")
	scr := s.WaitFor("更多按键", 15*time.Second)
	if !strings.Contains(scr, "l English") || !strings.Contains(scr, "q 退出") {
		t.Fatalf("after l the help bar is not Chinese:\n%s", scr)
	}
	i18ntest.NoEnglishProse(t, "welcome after l", scr)
	s.Keys("Enter")
	s.WaitFor("显卡与驱动", 30*time.Second)
	s.Keys("Escape")
	s.WaitFor("新建环境", 15*time.Second)
	s.Keys("l")
	s.WaitFor("Set up a new environment", 15*time.Second)
	s.Keys("q")
	s.WaitFor("EXIT=0", 30*time.Second)
}

// A newcomer's run in Chinese with the real binary at 80x24, over a loopback index that carries
// 4 MiB/s a connection: a first install cancelled with Ctrl+C while torch downloads, a second whose
// download fails (a damaged torchvision), a third that installs and verifies; then a file of torch
// deleted, doctor, and the repair it offers, run. Every screen and every line the CLI leaves in the
// shell is checked for English: no sentence, no step id, no finding code, no Go error text; only
// product names, commands and paths (and pip's own lines, which are pip's).
func TestE2EChineseInstallAndDoctorInTmux(t *testing.T) {
	r := newRigServing(t, pyindex.Network{ConnBytesPerSec: 4 << 20}, func(wheels string) map[string][]string {
		return map[string][]string{
			"cu126": torchWheels(t, filepath.Join(wheels, "cu126"), "cu126", "12.6", 48<<20), // 12 s a download
			"cu118": torchWheels(t, filepath.Join(wheels, "cu118"), "cu118", "11.8", 0),
		}
	})
	s := r.startLang(t, "更多按键", "--lang", "zh-CN")
	// Other programs' words are theirs: pip's lines, and Python's traceback doctor quotes as what
	// it saw when import torch failed.
	theirs := regexp.MustCompile(`(?m)^.*(Collecting|Processing|Installing|Successfully|Looking in|Downloading|Requirement|WARNING: Retrying|Error:|cannot import name|partially initialized|most likely due to|line \d+, in <module>|import\)).*$`)
	check := func(what, scr string, wants ...string) {
		t.Helper()
		for _, w := range wants {
			if !strings.Contains(scr, w) {
				t.Fatalf("%s lacks %q:\n%s", what, w, scr)
			}
		}
		i18ntest.NoEnglishOnScreen(t, what, theirs.ReplaceAllString(unwrapped(scr), ""))
		t.Logf("%s:\n%s", what, scr) // with -v: the whole journey as the newcomer saw it
	}
	// whole is every page of the screen shown, the Chinese "more" line followed with pgdn.
	whole := func() string { return wholeScreenUntil(s, "下面还有") }
	wizard := func() {
		s.Keys("C-l")
		s.Text(strings.Join([]string{r.bin, "--lang", "zh-CN", "--simulate", r.rig, "--matrix", r.matrix, "--sources", r.sources}, " ") + "; echo EXIT=$?")
		s.Keys("Enter")
		s.WaitFor("更多按键", 30*time.Second)
	}
	venv := filepath.Join(r.dir, "venvs", "torch 环境")
	toPlan := func(first bool) {
		s.Keys("Enter")
		scr := s.WaitFor("按 enter 选择框架", 30*time.Second)
		if first {
			check("the GPU screen", scr, "显卡与驱动", "RTX 3060")
		}
		s.Keys("Enter")
		s.WaitFor("个版本", 30*time.Second)
		// The framework screen takes its enter once it is drawn; on a loaded machine the first one
		// can arrive before it listens, so it is pressed again while the channels are not shown.
		for range 3 {
			s.Keys("Enter")
			deadline := time.Now().Add(10 * time.Second)
			for time.Now().Before(deadline) && !strings.Contains(s.Screen(), "cu118") {
				time.Sleep(200 * time.Millisecond)
			}
			if strings.Contains(s.Screen(), "cu118") {
				break
			}
		}
		scr = s.WaitFor("cu118", 30*time.Second)
		if first {
			check("the channel screen", scr, "的 CUDA 通道", "推荐")
		}
		s.Keys("Enter")
		s.WaitFor("将在这里新建虚拟环境", 40*time.Second)
		for range len("venv-torch") {
			s.Keys("BSpace")
		}
		s.Text(venv)
		s.WaitFor("将在这里新建虚拟环境", 15*time.Second)
		s.Keys("Enter")
		scr = s.WaitFor("自定义地址", 60*time.Second)
		if first {
			check("the package-source screen", scr, "从哪里下载", "有这个版本", "本机上的 cu126 安装源")
		}
		s.Keys("Enter")
		scr = s.WaitFor("执行这个计划吗", 60*time.Second)
		if first {
			check("the plan", whole(), "计划", "torch==2.6.0", "cu126", "esc 返回")
		}
	}

	// 1. Ctrl+C while torch downloads: the wizard asks, then says nothing was left behind.
	toPlan(true)
	s.Keys("y")
	check("the download", s.WaitFor("剩余", 90*time.Second, "安装失败", "安装完成"), "创建虚拟环境")
	s.Keys("C-c")
	check("the cancel question", s.WaitFor("要取消安装吗", 15*time.Second), "y：停止")
	s.Keys("y")
	check("the cancelled install", s.WaitFor("已取消", 120*time.Second), "新建的虚拟环境已删除")
	s.Keys("Enter")
	s.WaitFor("按 q 或 enter 退出", 30*time.Second)
	s.Keys("q")
	check("the shell after the cancel", s.WaitFor("EXIT=130", 40*time.Second))
	if _, err := os.Stat(venv); !os.IsNotExist(err) {
		t.Fatalf("the cancelled run left its new venv behind (%v)", err)
	}

	// 2. A download that fails: torch arrives damaged (its sha256 does not match; the part the
	// cancelled run kept is resumed, the damaged byte is in the rest).
	r.ix.CorruptLate("torch-2.6.0+cu126-py3-none-any.whl")
	wizard()
	toPlan(false)
	s.Keys("y")
	s.WaitFor("安装失败", 180*time.Second, "安装完成")
	check("the failed download", whole(), "安装失败", "校验值不符", "新建的虚拟环境已删除")
	s.Keys("Enter")
	s.WaitFor("按 q 或 enter 退出", 30*time.Second)
	s.Keys("q")
	check("the shell after the failure", waitExitScreen(t, s), "EXIT=1")

	// 3. The index serves it whole again: install, verify, done.
	r.ix.Repair("torch-2.6.0+cu126-py3-none-any.whl")
	wizard()
	toPlan(false)
	s.Keys("y")
	check("the install", s.WaitFor("按 enter 开始验证", 180*time.Second, "安装失败", "已取消"), "安装完成", "创建虚拟环境")
	s.Keys("Enter")
	check("verification", s.WaitFor("全部检查通过", 120*time.Second, "有检查没有通过"), "导入 torch", "torch 是 CUDA 版")
	s.Keys("Enter")
	s.WaitFor("已安装并通过验证", 30*time.Second)
	check("the done screen", s.WaitFor("激活方法", 30*time.Second), "已安装并通过验证", "锁定文件") // the activation lines come when the venv's shells are known
	check("the done screen, whole", whole())
	s.Keys("q")
	check("the summary", s.WaitFor("EXIT=0", 40*time.Second), "gpuwiz：已安装")

	// 4. A file of torch deleted: doctor says so in words, and its repair puts it back.
	broken, _ := filepath.Glob(filepath.Join(venv, "lib", "python3*", "site-packages", "torch", "_tensor.py"))
	if len(broken) != 1 {
		t.Fatalf("torch/_tensor.py: %v", broken)
	}
	if err := os.Remove(broken[0]); err != nil {
		t.Fatal(err)
	}
	wizard()
	s.Keys("3")
	s.WaitFor("选择哪个 Python 环境", 15*time.Second)
	s.WaitFor("已有：", 30*time.Second) // the venv gpuwiz installed is on its list, and in the input
	s.Keys("Enter")
	doc := s.WaitFor("查看修复计划", 90*time.Second)
	check("doctor", whole(), "错误", "诊断")
	if strings.Contains(doc+whole(), "paddle-mixed") {
		t.Errorf("the Chinese doctor screen shows the finding's code:\n%s", whole())
	}
	s.Keys("Enter")
	s.WaitFor("执行这个计划吗", 30*time.Second)
	check("the repair plan", whole(), "torch")
	s.Keys("y")
	check("the repair", s.WaitFor("按 enter 开始验证", 180*time.Second, "安装失败", "已取消", "修复失败"))
	s.Keys("Enter")
	s.WaitFor("enter：完成", 60*time.Second)
	check("the check after the repair", whole())
	s.Keys("Enter")
	s.WaitFor("按 q 或 enter 退出", 30*time.Second)
	check("the end of the repair", whole())
	s.Keys("q")
	check("the shell after the repair", waitExitScreen(t, s))
	got := strings.TrimSpace(run(t, r.env, filepath.Join(venv, "bin", "python"), "-c", "import torch; print(torch.__version__)"))
	if got != "2.6.0+cu126" {
		t.Fatalf("after the repair the venv holds torch %q", got)
	}
}

// unwrapped joins the lines a screen wrapped with a hanging indent (four columns deeper than the
// line they continue: the plan's commands and notes) onto that line, so a command broken over
// lines is read as the command it is. List items two columns under a heading stay lines of their own.
func unwrapped(scr string) string {
	var out []string
	start := 0 // the indent of the line the last one in out began with
	indent := func(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }
	for _, l := range strings.Split(scr, "\n") {
		if n := len(out); n > 0 && strings.TrimSpace(l) != "" && strings.TrimSpace(out[n-1]) != "" && indent(l) >= start+4 {
			out[n-1] = strings.TrimRight(out[n-1], " ") + " " + strings.TrimSpace(l)
			continue
		}
		out, start = append(out, l), indent(l)
	}
	return strings.Join(out, "\n")
}

// waitExitScreen waits for the shell's "EXIT=N" after the wizard quits (not the typed "echo EXIT=$?").
func waitExitScreen(t *testing.T, s *tmuxSession) string {
	t.Helper()
	exit := regexp.MustCompile(`(?m)^EXIT=\d+`)
	deadline := time.Now().Add(40 * time.Second)
	for {
		scr := s.Screen()
		if exit.MatchString(scr) {
			return scr
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited 40s for the exit status; the screen shows:\n%s", scr)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
