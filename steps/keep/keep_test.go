package keep

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/testkit/pyindex"
)

// project builds two indexes: the channel's (torch 2.6.0+cu126) and a PyPI-like one that serves
// a newer CPU torch, a project that needs torch>=2.0 and one that needs torch>=2.7.
func project(t *testing.T) *pyindex.Index {
	t.Helper()
	dir := t.TempDir()
	build := func(dist, version string, files map[string]string, requires ...string) string {
		p, err := pyindex.BuildWheel(dir, dist, version, files, requires, 0)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	cuda := build("torch", "2.6.0+cu126", pyindex.TorchStub(pyindex.StubSpec{Version: "2.6.0+cu126", CUDA: "12.6", CudaAvailable: true}))
	cpu := build("torch", "2.7.0", pyindex.TorchStub(pyindex.StubSpec{Version: "2.7.0"}))
	app := build("projx", "1.0", map[string]string{"projx/__init__.py": "X = 1\n"}, "torch>=2.0")
	newer := build("needsnew", "1.0", map[string]string{"needsnew/__init__.py": "Y = 1\n"}, "torch>=2.7")
	return pyindex.Serve(t, map[string][]string{"cu126": {cuda}, "pypi": {cpu, app, newer}})
}

func pip(t *testing.T, v pyenv.Venv, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(v.Python(), append([]string{"-m", "pip"}, args...)...)
	// PipEnv's PIP_CONFIG_FILE=/dev/null makes pip skip every configuration file, the venv's too;
	// an empty file skips only the user's own, as on a machine whose user has none.
	empty := filepath.Join(t.TempDir(), "pip.conf")
	os.WriteFile(empty, nil, 0o644)
	for _, kv := range pyindex.PipEnv(t) {
		if !strings.HasPrefix(kv, "PIP_CONFIG_FILE=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "PIP_CONFIG_FILE="+empty)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func torchVersion(t *testing.T, v pyenv.Venv) string {
	t.Helper()
	out, err := exec.Command(v.Python(), "-c", "import torch; print(torch.__version__)").CombinedOutput()
	if err != nil {
		t.Fatalf("import torch: %v %s", err, out)
	}
	return strings.TrimSpace(string(out))
}

// installed is a venv holding the CUDA torch with gpuwiz's lock and constraints files.
func installed(t *testing.T, ix *pyindex.Index, dir string) pyenv.Venv {
	t.Helper()
	v := pyindex.NewVenv(t, dir)
	if out, err := pip(t, v, "install", "-q", "--index-url", ix.ChannelURL("cu126"), "torch==2.6.0+cu126"); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	lock := "# written by gpuwiz: pip freeze of " + v.Root + " after installing torch 2.6.0 (cu126)\ntorch==2.6.0+cu126  # sha256=ab torch-2.6.0+cu126-py3-none-any.whl\n"
	if err := os.WriteFile(filepath.Join(v.Root, "requirements.lock"), []byte(lock), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(v.Root, "constraints.txt"), []byte("# written by gpuwiz\ntorch==2.6.0+cu126\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestProtectedVenvKeepsTheCUDABuildThroughPipInstallU(t *testing.T) {
	ix := project(t)
	req := filepath.Join(t.TempDir(), "requirements.txt")
	os.WriteFile(req, []byte("torch>=2.0\nprojx\n"), 0o644)

	// Without protection a plain `pip install -U -r requirements.txt` swaps the build: the test can fail.
	bare := installed(t, ix, "")
	if out, err := pip(t, bare, "install", "-q", "-U", "-r", req, "--index-url", ix.ChannelURL("pypi")); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	if got := torchVersion(t, bare); got != "2.7.0" {
		t.Fatalf("an unprotected venv should have taken PyPI's torch here, got %s", got)
	}

	// A path with a space and Chinese characters: pip reads the constraint as a file: URL.
	v := installed(t, ix, filepath.Join(t.TempDir(), "项目 venv"))
	st, err := Protect(v.Root, filepath.Join(v.Root, "constraints.txt"), runtime.GOOS)
	if err != nil || !st.Protected {
		t.Fatalf("protect: %v %+v", err, st)
	}
	out, err := pip(t, v, "install", "-U", "-r", req, "--index-url", ix.ChannelURL("pypi"))
	if err != nil {
		t.Fatalf("pip install -U -r in a protected venv: %v %s", err, out)
	}
	if got := torchVersion(t, v); got != "2.6.0+cu126" {
		t.Fatalf("the protected venv lost its CUDA build: %s\n%s", got, out)
	}
	if _, err := exec.Command(v.Python(), "-c", "import projx").CombinedOutput(); err != nil {
		t.Fatalf("the project was not installed: %v", err)
	}
	// A requirement that needs another torch fails with pip's conflict instead of replacing it.
	out, err = pip(t, v, "install", "needsnew", "--index-url", ix.ChannelURL("pypi"))
	if err == nil || !strings.Contains(out, "torch") {
		t.Fatalf("needsnew should be refused: %v %s", err, out)
	}
	if got := torchVersion(t, v); got != "2.6.0+cu126" {
		t.Fatalf("a refused install changed torch: %s", got)
	}
	// gpuwiz's own pip runs (a channel switch, a repair) set PIP_CONSTRAINT to the null device (an
	// empty constraints file; pip ignores an empty setting), which overrides the venv's setting: the
	// switch the user asked gpuwiz for goes through.
	out, err = pip(t, v, "install", "-q", "--index-url", ix.ChannelURL("pypi"), "torch==2.7.0", "--disable-pip-version-check")
	if err == nil {
		t.Fatalf("without PIP_CONSTRAINT= the venv's constraint must hold: %s", out)
	}
	cmd := exec.Command(v.Python(), "-m", "pip", "install", "-q", "--index-url", ix.ChannelURL("pypi"), "torch==2.7.0")
	cmd.Env = append(pyindex.PipEnv(t)[:0:0], pyindex.PipEnv(t)...)
	for i, kv := range cmd.Env {
		if strings.HasPrefix(kv, "PIP_CONFIG_FILE=") {
			cmd.Env[i] = "PIP_CONFIG_FILE=" + filepath.Join(v.Root, "no-such-user-config")
		}
	}
	cmd.Env = append(cmd.Env, "PIP_CONSTRAINT="+os.DevNull)
	if out, err := cmd.CombinedOutput(); err != nil || torchVersion(t, v) != "2.7.0" {
		t.Fatalf("PIP_CONSTRAINT=/dev/null should override the venv's constraint: %v %s", err, out)
	}
}

func TestProtectKeepsTheUsersSettingsAndUnprotectRemovesOnlyGpuwizLines(t *testing.T) {
	for _, tc := range []struct{ name, before string }{
		{"no file", ""},
		{"other sections", "[global]\ntimeout = 60\nindex-url = https://mirrors.example.invalid/simple\n"},
		{"an install section", "[global]\ntimeout = 60\n\n[install]\nno-warn-script-location = true\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			venv := t.TempDir()
			file := ConfigFile(venv, "linux")
			if tc.before != "" {
				os.WriteFile(file, []byte(tc.before), 0o644)
			}
			st, err := Protect(venv, "/v/constraints.txt", "linux")
			if err != nil || !st.Protected || st.Constraint != "/v/constraints.txt" {
				t.Fatalf("protect: %v %+v", err, st)
			}
			b, _ := os.ReadFile(file)
			if strings.Count(string(b), "[install]") != 1 {
				t.Fatalf("one [install] section, not:\n%s", b)
			}
			for _, l := range strings.Split(tc.before, "\n") {
				if !strings.Contains(string(b), l) {
					t.Fatalf("the user's line %q is gone:\n%s", l, b)
				}
			}
			if st, err := Protect(venv, "/v/constraints.txt", "linux"); err != nil || strings.Count(mustRead(t, file), beginMark) != 1 || !st.Protected {
				t.Fatalf("protecting twice: %v\n%s", err, mustRead(t, file))
			}
			if _, err := Unprotect(venv, "linux"); err != nil {
				t.Fatal(err)
			}
			after, err := os.ReadFile(file)
			if tc.before == "" {
				if !os.IsNotExist(err) {
					t.Fatalf("the file gpuwiz created should be gone: %v %q", err, after)
				}
				return
			}
			if string(after) != tc.before {
				t.Fatalf("unprotect changed the user's file:\nbefore\n%s\nafter\n%s", tc.before, after)
			}
		})
	}
	venv := t.TempDir()
	os.WriteFile(ConfigFile(venv, "linux"), []byte("[install]\nconstraint = /mine.txt\n"), 0o644)
	if _, err := Protect(venv, "/v/constraints.txt", "linux"); err != ErrUserConstraint {
		t.Fatalf("a user's own constraint setting: want ErrUserConstraint, got %v", err)
	}
	if got := mustRead(t, ConfigFile(venv, "linux")); got != "[install]\nconstraint = /mine.txt\n" {
		t.Fatalf("the user's file changed: %q", got)
	}
}

func TestEnsureRewritesStaleConstraintsFromTheLock(t *testing.T) {
	venv := t.TempDir()
	os.WriteFile(filepath.Join(venv, "requirements.lock"), []byte("# written by gpuwiz\nnumpy==2.1.0\ntorch==2.6.0+cu126  # sha256=ab f.whl\ntorchvision==0.21.0+cu126\n"), 0o644)
	os.WriteFile(filepath.Join(venv, "constraints.txt"), []byte("torch==2.5.1+cu121\n"), 0o644)
	st, rewritten, err := Ensure(venv, "linux")
	if err != nil || !st.Protected || len(rewritten) != 2 {
		t.Fatalf("ensure: %v %+v %v", err, st, rewritten)
	}
	if got := ConstraintPins([]byte(mustRead(t, filepath.Join(venv, "constraints.txt")))); strings.Join(got, " ") != "torch==2.6.0+cu126 torchvision==0.21.0+cu126" {
		t.Fatalf("constraints: %v", got)
	}
	if _, _, err := Ensure(t.TempDir(), "linux"); err == nil {
		t.Fatal("a venv without a lock has nothing to keep")
	}
}

func TestValueQuotesPathsWithSpacesAsFileURLs(t *testing.T) {
	for in, want := range map[string]string{
		"/v/constraints.txt": "/v/constraints.txt",
		"/tmp/my venv/c.txt": "file:///tmp/my%20venv/c.txt",
		"/tmp/测试 目录/c.txt":   "file:///tmp/%E6%B5%8B%E8%AF%95%20%E7%9B%AE%E5%BD%95/c.txt",
	} {
		if got := Value(in); got != want {
			t.Errorf("Value(%q) = %q, want %q", in, got, want)
		}
		if got := pathOf(Value(in)); got != filepath.FromSlash(in) {
			t.Errorf("pathOf(Value(%q)) = %q", in, got)
		}
	}
}

func mustRead(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
