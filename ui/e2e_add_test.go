package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gpuwiz/steps/testkit/pyindex"
)

// TestE2EAddProjectAfterInstallInTmux: the real binary installs the stub cu126 torch, verifies it,
// and from the done screen takes the project step: a requirement that needs a newer torch is refused
// with the way out, then a requirements file (typed as a path with a space) goes in from a loopback
// PyPI-like index that also serves a newer CPU torch; the build stays +cu126, the quick check passes,
// and the screen says the venv keeps its build and how to give it back.
func TestE2EAddProjectAfterInstallInTmux(t *testing.T) {
	needTmux(t)
	dir := t.TempDir()
	wheels := filepath.Join(dir, "wheels")
	pypi := filepath.Join(wheels, "pypi")
	wheel := func(dist, version string, files map[string]string, requires ...string) string {
		p, err := pyindex.BuildWheel(pypi, dist, version, files, requires, 0)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	ix := pyindex.Serve(t, map[string][]string{
		"cu126": torchWheels(t, filepath.Join(wheels, "cu126"), "cu126", "12.6", 0),
		"cu118": torchWheels(t, filepath.Join(wheels, "cu118"), "cu118", "11.8", 0),
		"pypi": {
			wheel("torch", "2.7.0", pyindex.TorchStub(pyindex.StubSpec{Version: "2.7.0"})),
			wheel("projx", "1.0", map[string]string{"projx/__init__.py": "X = 1\n"}, "torch>=2.0", "gpuwiz-dep"),
			wheel("gpuwiz-dep", "1.0", map[string]string{"gpuwiz_dep/__init__.py": "x = 1\n"}),
			wheel("needsnew", "1.0", map[string]string{"needsnew/__init__.py": "Y = 1\n"}, "torch>=2.7"),
		},
	})
	rig, _ := filepath.Abs(filepath.Join("testdata", "e2e", "rig-rtx3060.json"))
	r := &e2eRig{dir: dir, bin: buildBinary(t), matrix: writeMatrix(t, dir, ix.URL), rig: rig, env: pipEnv(t),
		sources: filepath.Join(dir, "sources.toml")}
	if err := os.WriteFile(r.sources, []byte("schema = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The project's packages come from the user's pip settings: here the loopback PyPI.
	r.env = append(r.env, "TERM=xterm-256color", "XDG_CONFIG_HOME="+filepath.Join(dir, "config"), "XDG_CACHE_HOME="+filepath.Join(dir, "cache"),
		"PIP_INDEX_URL="+ix.ChannelURL("pypi"))
	project := filepath.Join(dir, "my project")
	os.MkdirAll(project, 0o755)
	req := filepath.Join(project, "requirements.txt")
	os.WriteFile(req, []byte("torch>=2.0\nprojx\n"), 0o644)

	s := r.start(t)
	venv := filepath.Join(dir, "venvs", "torch")
	newSetupToPlan(t, s, venv)
	s.Keys("y")
	s.WaitFor("Press enter to verify", 180*time.Second, "Install failed", "Cancelled")
	s.Keys("Enter")
	s.WaitFor("Every check passed", 120*time.Second, "Some checks failed")
	s.Keys("Enter")
	s.WaitFor("a add packages", 30*time.Second)
	scr := wholeScreen(t, s)
	if !strings.Contains(scr, "keeps its build by itself") || !strings.Contains(scr, "gpuwiz protect --off --venv") || !strings.Contains(scr, filepath.Join(venv, "pip.conf")) {
		t.Fatalf("the done screen does not say the venv keeps its build:\n%s", scr)
	}
	s.Keys("a")
	s.WaitFor("package names separated by spaces", 15*time.Second)
	// Before the preview the screen says where the packages come from: the index the pip settings
	// name. tab chooses another: the same loopback index typed under another name, which the add then
	// uses (its log names it).
	if scr := flat(s.WaitFor("PIP_INDEX_URL", 15*time.Second)); !strings.Contains(scr, "come from "+ix.ChannelURL("pypi")+", the index your pip settings name (PIP_INDEX_URL)") {
		t.Fatalf("the add screen does not say where the packages come from:\n%s", scr)
	}
	typed := strings.Replace(ix.ChannelURL("pypi"), "127.0.0.1", "localhost", 1)
	s.Keys("Tab")
	s.WaitFor("Another index", 15*time.Second)
	for range 10 {
		s.Keys("Down")
	}
	s.Text(typed)
	s.Keys("Enter")
	if scr := flat(s.WaitFor("package names separated by spaces", 15*time.Second)); !strings.Contains(scr, "come from "+typed+".") {
		t.Fatalf("the add screen does not say the typed source:\n%s", scr)
	}

	// A requirement that needs another torch: refused before anything changes, with the way out.
	s.Text("needsnew")
	s.Keys("Enter")
	scr = s.WaitFor("Refused", 120*time.Second, "Could not preview")
	if !strings.Contains(scr, "needsnew 1.0 needs torch>=2.7") || !strings.Contains(scr, "Nothing was") {
		t.Fatalf("refusal:\n%s", scr)
	}
	// Change what to install: the path of the requirements file, quoted as Explorer copies it.
	s.Keys("Tab")
	for range len("needsnew") {
		s.Keys("BSpace")
	}
	s.Text(`"` + req + `"`)
	s.Keys("Enter")
	scr = s.WaitFor("would be added", 120*time.Second, "Could not preview", "Refused")
	if !strings.Contains(scr, "projx 1.0 (new)") || strings.Contains(scr, "torch 2.6.0+cu126 →") {
		t.Fatalf("preview:\n%s", scr)
	}
	s.Keys("Enter")
	s.WaitFor("Press enter to see the result", 180*time.Second, "failed", "Cancelled")
	s.Keys("Enter")
	s.WaitFor("a install more", 30*time.Second)
	scr = wholeScreen(t, s)
	for _, want := range []string{"Your project's requirements are installed", "keeps its build by itself", "gpuwiz protect --off --venv", "matmul on GPU 0 matches the CPU"} {
		if !strings.Contains(scr, want) {
			t.Fatalf("add result lacks %q:\n%s", want, scr)
		}
	}
	s.Keys("q")
	s.WaitFor("EXIT=0", 40*time.Second)
	logs, _ := filepath.Glob(filepath.Join(dir, "cache", "gpuwiz", "logs", "add-*.log"))
	if len(logs) != 1 {
		t.Fatalf("add logs: %v", logs)
	}
	if b, _ := os.ReadFile(logs[0]); !strings.Contains(string(b), typed) {
		t.Fatalf("the add did not take its packages from the chosen source %s:\n%s", typed, b)
	}
	py := filepath.Join(venv, "bin", "python")
	if got := strings.TrimSpace(run(t, r.env, py, "-c", "import torch, projx, gpuwiz_dep; print(torch.__version__)")); got != "2.6.0+cu126" {
		t.Fatalf("after the project step the venv holds torch %q, want 2.6.0+cu126", got)
	}
}
