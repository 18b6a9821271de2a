package install

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/steps/keep"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/testkit/filetree"
	"gpuwiz/steps/testkit/pyindex"
)

// projectIndex serves the test channels plus a PyPI-like index: a newer CPU torch, a project that
// needs torch>=2.0, one that needs torch>=2.7, two OpenCV variants, and a Paddle suite that needs a
// newer Paddle.
func projectIndex(t *testing.T) *pyindex.Index {
	t.Helper()
	dir := t.TempDir()
	var pypi []string
	add := func(dist, version string, files map[string]string, requires ...string) {
		p, err := pyindex.BuildWheel(dir, dist, version, files, requires, 0)
		if err != nil {
			t.Fatal(err)
		}
		pypi = append(pypi, p)
	}
	add("torch", "2.7.0", pyindex.TorchStub(pyindex.StubSpec{Version: "2.7.0"}))
	add("projx", "1.0", map[string]string{"projx/__init__.py": "X = 1\n"}, "torch>=2.0", "gpuwiz-dep")
	add("needsnew", "1.0", map[string]string{"needsnew/__init__.py": "Y = 1\n"}, "torch>=2.7")
	add("opencv-python", "4.10.0", map[string]string{"cv2/__init__.py": "V = 'main'\n"})
	add("opencv-contrib-python", "4.10.0", map[string]string{"cv2/__init__.py": "V = 'contrib'\n"})
	add("gpuwiz-dep", "1.0", map[string]string{"gpuwiz_dep/__init__.py": "x = 1\n"})
	add("ocrsuite", "3.0", map[string]string{"ocrsuite/__init__.py": "Z = 1\n"}, "paddlepaddle-gpu>=3.1")
	chans := map[string][]string{"pypi": pypi}
	for k, v := range buildWheels(t) {
		chans[k] = v
	}
	return pyindex.Serve(t, chans)
}

// siteTree is every file of the venv with its content hash (bytecode left out).
func siteTree(t *testing.T, root string) map[string]string {
	return filetree.Sums(t, root, filetree.Options{}, root)
}

func sameTree(t *testing.T, before, after map[string]string) {
	t.Helper()
	for _, d := range filetree.Diff(before, after) {
		t.Error(d)
	}
}

func addOptions(t *testing.T, v pyenv.Venv, ix *pyindex.Index) AddOptions {
	return AddOptions{Venv: v, IndexURL: ix.ChannelURL("pypi"), Environ: pyindex.PipEnv(t), CacheDir: t.TempDir(),
		VerifyMatrixN: 8, LogPath: filepath.Join(t.TempDir(), "add.log")}
}

// userPip runs pip in the venv as the user would, reading the venv's own pip configuration.
func userPip(t *testing.T, v pyenv.Venv, args ...string) (string, error) {
	t.Helper()
	empty := filepath.Join(t.TempDir(), "user-pip.conf")
	os.WriteFile(empty, nil, 0o644)
	cmd := exec.Command(v.Python(), append([]string{"-m", "pip"}, args...)...)
	for _, kv := range pyindex.PipEnv(t) {
		if !strings.HasPrefix(kv, "PIP_CONFIG_FILE=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "PIP_CONFIG_FILE="+empty)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func runAdd(t *testing.T, o AddOptions, prev AddPreview) Outcome {
	t.Helper()
	r := runner.New(nil)
	plan, err := PrepareAdd(context.Background(), r, o, prev)
	if err != nil {
		t.Fatal(err)
	}
	return Run(context.Background(), r, plan, nil)
}

func TestAddKeepsTheCUDABuild(t *testing.T) {
	ix := projectIndex(t)
	v := userVenv(t)
	_, out, _ := install(t, context.Background(), options(t, v, torchTarget(ix, "cu126"), t.TempDir()), nil)
	if !out.OK() || out.Protected == "" {
		t.Fatalf("install: %+v", out)
	}
	if st := keep.Read(v.Root, ""); !st.Protected {
		t.Fatalf("the install did not protect the venv: %+v", st)
	}

	// A plain pip install -U -r requirements.txt in the venv keeps the +cu126 build.
	req := filepath.Join(t.TempDir(), "requirements.txt")
	os.WriteFile(req, []byte("torch>=2.0\nprojx\n"), 0o644)
	if o, err := userPip(t, v, "install", "-q", "-U", "-r", req, "--index-url", ix.ChannelURL("pypi")); err != nil {
		t.Fatalf("pip install -U -r: %v %s", err, o)
	}
	if got := importVersion(t, v, "torch"); got != "2.6.0+cu126" {
		t.Fatalf("pip install -U -r replaced the CUDA build: %s", got)
	}

	// gpuwiz add of a project that needs torch>=2.7 is refused with site-packages unchanged.
	before := siteTree(t, v.Root)
	o := addOptions(t, v, ix)
	o.Packages = []string{"needsnew"}
	prev, err := PreviewAdd(context.Background(), runner.New(nil), o)
	if !errors.Is(err, ErrAddRefused) || prev.Refusal == nil || !strings.Contains(prev.Refusal.Needs, "torch>=2.7") || prev.Refusal.Installed != "torch 2.6.0+cu126" {
		t.Fatalf("needsnew: want a refusal naming torch>=2.7 and the installed build, got %v %+v", err, prev.Refusal)
	}
	sameTree(t, before, siteTree(t, v.Root))

	// gpuwiz add -r requirements.txt with an OpenCV package installs the project and keeps the build.
	os.WriteFile(req, []byte("projx\nopencv-python\n"), 0o644)
	o = addOptions(t, v, ix)
	o.Requirements = []string{req}
	prev, err = PreviewAdd(context.Background(), runner.New(nil), o)
	if err != nil {
		t.Fatalf("preview: %v", err)
	}
	names := map[string]bool{}
	for _, c := range prev.Changes {
		names[c.Name] = true
	}
	if !names["opencv-python"] || names["torch"] {
		t.Fatalf("changes: %+v", prev.Changes)
	}
	res := runAdd(t, o, prev)
	if !res.OK() {
		t.Fatalf("add: %+v (verify %+v)", res, res.Verify)
	}
	if got := importVersion(t, v, "torch"); got != "2.6.0+cu126" {
		t.Fatalf("add replaced the build: %s", got)
	}
	if _, err := exec.Command(v.Python(), "-c", "import cv2, projx").CombinedOutput(); err != nil {
		t.Fatalf("the project is not importable: %v", err)
	}
	if st := keep.Read(v.Root, ""); !st.Protected {
		t.Fatalf("add left the venv unprotected: %+v", st)
	}

	// A second OpenCV variant is named before anything changes.
	o = addOptions(t, v, ix)
	o.Packages = []string{"opencv-contrib-python"}
	prev, err = PreviewAdd(context.Background(), runner.New(nil), o)
	if err != nil || len(prev.Troubles) != 1 || prev.Troubles[0].Code != TroubleOpenCVVariants {
		t.Fatalf("opencv variants: %v %+v", err, prev.Troubles)
	}

	// The protection holds pip, not gpuwiz: a channel switch the user asks gpuwiz for goes through,
	// with pip reading the venv's own configuration (no PIP_CONFIG_FILE=/dev/null here).
	so := options(t, v, torchTarget(ix, "cu118"), t.TempDir())
	empty := filepath.Join(t.TempDir(), "user-pip.conf")
	os.WriteFile(empty, nil, 0o644)
	for i, kv := range so.Environ {
		if strings.HasPrefix(kv, "PIP_CONFIG_FILE=") {
			so.Environ[i] = "PIP_CONFIG_FILE=" + empty
		}
	}
	_, out, _ = install(t, context.Background(), so, nil)
	if !out.OK() || importVersion(t, v, "torch") != "2.6.0+cu118" {
		t.Fatalf("a channel switch in a protected venv: %+v", out)
	}
	if c, _ := os.ReadFile(filepath.Join(v.Root, "constraints.txt")); !strings.Contains(string(c), "torch==2.6.0+cu118") || !keep.Read(v.Root, "").Protected {
		t.Fatalf("after the switch the venv keeps the new build: %s", c)
	}
}

func TestAddRefusesASuiteThatNeedsAnotherPaddle(t *testing.T) {
	ix := projectIndex(t)
	v := pyindex.NewVenv(t, "")
	dir := filepath.Dir(buildWheels(t)["paddle-cu126"][0])
	pipInstall(t, v, "--no-index", "--find-links", dir, "--no-deps", "paddlepaddle-gpu==3.0.0")
	os.WriteFile(filepath.Join(v.Root, "requirements.lock"), []byte("# written by gpuwiz: pip freeze of x after installing paddle 3.0.0 (cu126)\npaddlepaddle-gpu==3.0.0\ngpuwiz-dep==1.0\n"), 0o644)
	before := siteTree(t, v.Root)
	o := addOptions(t, v, ix)
	o.Packages = []string{"ocrsuite"}
	prev, err := PreviewAdd(context.Background(), runner.New(nil), o)
	if !errors.Is(err, ErrAddRefused) || prev.Refusal == nil || !strings.Contains(prev.Refusal.Needs, "paddlepaddle-gpu>=3.1") {
		t.Fatalf("ocrsuite: %v %+v", err, prev.Refusal)
	}
	after := siteTree(t, v.Root)
	// PreviewAdd writes the constraints and the pip configuration the lock calls for, nothing else.
	for _, f := range []string{"constraints.txt", "pip.conf"} {
		delete(after, f)
	}
	sameTree(t, before, after)
	if _, err := PreviewAdd(context.Background(), runner.New(nil), AddOptions{Venv: pyindex.NewVenv(t, ""), Packages: []string{"x"}}); !errors.Is(err, ErrNotGpuwizVenv) {
		t.Fatalf("a venv without gpuwiz's lock: %v", err)
	}
}

// A venv whose build came with a mirror for its dependencies (the lock records "# mirror:") takes
// the project's packages from that mirror when no source is given, with the framework's index beside
// it, not from the user's default index (here none is reachable).
func TestAddUsesTheMirrorTheLockRecorded(t *testing.T) {
	ix := projectIndex(t)
	v := userVenv(t)
	io := options(t, v, torchTarget(ix, "cu126"), t.TempDir())
	io.Target.Mirror = ix.ChannelURL("pypi")
	_, out, _ := install(t, context.Background(), io, nil)
	if !out.OK() {
		t.Fatalf("install: %+v", out)
	}
	if src := ReadLockSources(v.Root); src.Mirror != ix.ChannelURL("pypi") {
		t.Fatalf("the lock records mirror %q", src.Mirror)
	}
	o := addOptions(t, v, ix)
	o.IndexURL = "" // no source given: the user's pip settings name none, and pypi.org is not reachable here
	o.Environ = append(o.Environ, "PIP_RETRIES=0", "PIP_TIMEOUT=3")
	o.Packages = []string{"projx"}
	prev, err := PreviewAdd(context.Background(), runner.New(nil), o)
	if err != nil {
		t.Fatalf("preview: %v", err)
	}
	if prev.IndexURL != ix.ChannelURL("pypi") || prev.ExtraIndexURL != ix.ChannelURL("cu126") {
		t.Errorf("the preview names index %q, extra %q", prev.IndexURL, prev.ExtraIndexURL)
	}
	if got := runAdd(t, o, prev); !got.OK() {
		t.Fatalf("add: %+v", got)
	}
	if got := importVersion(t, v, "torch"); got != "2.6.0+cu126" {
		t.Errorf("torch after add: %s", got)
	}
	if _, err := userPip(t, v, "show", "projx"); err != nil {
		t.Error("projx is not installed")
	}
}
