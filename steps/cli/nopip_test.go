package cli

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/testkit/pyindex"
)

// A venv made without pip (as uv makes them): gpuwiz installs the torch family and then changes its
// channel with its own pip run against the venv; afterwards the venv still has no pip module, and a
// pip run from outside (--python) lists the build.
func TestInstallAndChannelChangeInAVenvWithoutPip(t *testing.T) {
	useConfigDir(t)
	t.Setenv("GPUWIZ_VERIFY_MATRIX_N", "8")
	dir := t.TempDir()
	channels := map[string][]string{}
	for _, c := range []struct{ ch, cuda string }{{"cu126", "12.6"}, {"cu118", "11.8"}} {
		spec := pyindex.StubSpec{Version: "2.6.0+" + c.ch, CUDA: c.cuda, CudaAvailable: true, CuDNN: 90100, ArchList: []string{"sm_80", "sm_90"}}
		channels[c.ch] = pyindex.TorchFamily(t, filepath.Join(dir, c.ch), spec, 0)
	}
	ix := pyindex.Serve(t, channels)
	venv := filepath.Join(dir, "uv venv")
	if out, err := exec.Command(pyindex.Python(t), "-m", "venv", "--without-pip", venv).CombinedOutput(); err != nil {
		t.Fatalf("venv --without-pip: %v %s", err, out)
	}
	py := pyenv.Venv{Root: venv}.Python()
	hasPip := func() bool {
		out, err := exec.Command(py, "-c", "import importlib.util as u; print(u.find_spec('pip') is not None)").Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out)) == "True"
	}
	if hasPip() {
		t.Fatal("the venv has pip before the run")
	}
	cache := filepath.Join(dir, "cache")
	for _, ch := range []string{"cu126", "cu118"} {
		out, stderr, code := runCLI(t, withRig(t, "install", "--framework", "torch", "--framework-version", "2.6.0", "--channel", ch,
			"--venv", venv, "--index-url", ix.ChannelURL(ch), "--cache-dir", cache, "--yes", "--json", "--log", filepath.Join(dir, ch+".log"))...)
		if code != 0 || !strings.Contains(out, `"result": "installed"`) {
			t.Fatalf("install %s: exit %d: %s\n%s", ch, code, stderr, out)
		}
		if hasPip() {
			t.Fatalf("after the %s install the venv has a pip module", ch)
		}
		// pip run from outside the venv sees the build.
		var list bytes.Buffer
		cmd := exec.Command(pyindex.Python(t), "-m", "pip", "--python", py, "list", "--format", "freeze", "--disable-pip-version-check")
		cmd.Env, cmd.Stdout = pyindex.PipEnv(t), &list
		if err := cmd.Run(); err != nil {
			t.Fatalf("pip --python list: %v", err)
		}
		if !strings.Contains(list.String(), "torch==2.6.0+"+ch+"\n") || strings.Contains(list.String(), "pip==") {
			t.Fatalf("pip --python %s list after the %s install:\n%s", py, ch, list.String())
		}
	}
}
