package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/matrix"
	"gpuwiz/steps/testkit/pyindex"
	"gpuwiz/steps/testkit/pylayout"
)

// An embedded Python (the layout of the Windows embeddable package, laid out on this OS: the
// interpreter at the folder's top beside its python3.X._pth, site-packages under the folder, no
// venv, ensurepip or pip) is a target: named by its interpreter, refused with the ._pth named while
// that file leaves site-packages off sys.path, then, with --fix-pth, installed, switched to another
// channel and repaired by doctor --fix, with the backup, journal and lock in its own .gpuwiz folder.
func TestEmbeddedPythonInstallSwitchRepair(t *testing.T) {
	useConfigDir(t)
	root, py := pylayout.Embedded(t, false)
	dir := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	t.Setenv("HOME", dir)
	t.Setenv("GPUWIZ_VERIFY_MATRIX_N", "8")
	isolatePip(t)
	channels := map[string][]string{}
	for _, c := range []struct{ ch, cuda string }{{"cu126", "12.6"}, {"cu118", "11.8"}} {
		spec := pyindex.StubSpec{Version: "2.6.0+" + c.ch, CUDA: c.cuda, CudaAvailable: true, CuDNN: 90100, ArchList: []string{"sm_80", "sm_90"}}
		channels[c.ch] = pyindex.TorchFamily(t, filepath.Join(dir, c.ch), spec, 0)
	}
	ix := pyindex.Serve(t, channels)
	pth := py + "._pth"
	before, _ := os.ReadFile(pth)
	cache := filepath.Join(dir, "wheels")
	install := func(ch string, extra ...string) (map[string]any, string, int) {
		args := append([]string{"install", "--framework", "torch", "--framework-version", "2.6.0", "--channel", ch,
			"--venv", py, "--index-url", ix.ChannelURL(ch), "--cache-dir", cache, "--yes", "--json"}, extra...)
		out, stderr, code := runCLI(t, withRig(t, args...)...)
		var rep map[string]any
		_ = json.Unmarshal([]byte(out), &rep)
		return rep, out + stderr, code
	}

	// Refused while the ._pth hides site-packages: the file is named, the flag offered, nothing changed.
	_, text, code := install("cu126")
	if code != 2 || !strings.Contains(text, pth) || !strings.Contains(text, "--fix-pth") {
		t.Fatalf("install into an embedded Python whose ._pth lacks import site: exit %d\n%s", code, text)
	}
	if after, _ := os.ReadFile(pth); string(after) != string(before) {
		t.Fatalf("the refusal changed %s:\n%s", pth, after)
	}
	if _, err := os.Stat(filepath.Join(root, ".gpuwiz")); err == nil {
		t.Fatal("the refusal left a .gpuwiz folder")
	}

	// With consent: the line goes in, the build is installed, the plan says what kind it found.
	rep, text, code := install("cu126", "--fix-pth")
	if code != 0 || rep["outcome"].(map[string]any)["result"] != "installed" {
		t.Fatalf("install --fix-pth: exit %d\n%s", code, text)
	}
	env := rep["plan"].(map[string]any)["environment"].(map[string]any)
	if env["kind"] != "embedded" || env["has_pip"] != false || env["pth"] != pth {
		t.Fatalf("the plan's environment: %v", env)
	}
	if b, _ := os.ReadFile(pth); !strings.Contains(string(b), "\nimport site\n") || strings.Contains(string(b), "#import site") {
		t.Fatalf("%s after --fix-pth:\n%s", pth, b)
	}
	if sd := rep["plan"].(map[string]any)["state_dir"]; sd != filepath.Join(root, ".gpuwiz") {
		t.Fatalf("state dir %v, want beside the environment", sd)
	}

	// A channel change: the old build backed up beside the environment, the new one in place.
	rep, text, code = install("cu118")
	if code != 0 || rep["outcome"].(map[string]any)["result"] != "installed" {
		t.Fatalf("switch to cu118: exit %d\n%s", code, text)
	}
	if _, err := os.Stat(filepath.Join(root, ".gpuwiz")); err != nil {
		t.Fatalf("no .gpuwiz beside the environment: %v", err)
	}
	site, _ := filepath.Glob(filepath.Join(root, "lib", "python3*", "site-packages", "torch-2.6.0+cu118.dist-info"))
	if len(site) != 1 {
		t.Fatalf("torch cu118 is not in the embedded Python's site-packages")
	}
	for _, p := range []string{"pip", "venv", "ensurepip"} {
		if out, err := runPy(py, "import importlib.util as u, sys; sys.exit(u.find_spec(sys.argv[1]) is not None)", p); err != nil {
			t.Fatalf("after the runs the embedded Python has %s: %v %s", p, err, out)
		}
	}

	// Repair: a file of the build is lost; doctor --fix finds it and puts the build back.
	m := strings.ReplaceAll(string(matrix.EmbeddedTOML()), "https://download.pytorch.org/whl/", ix.URL+"/whl/")
	mfile := filepath.Join(dir, "matrix.toml")
	if err := os.WriteFile(mfile, []byte(m), 0o644); err != nil {
		t.Fatal(err)
	}
	init, _ := filepath.Glob(filepath.Join(root, "lib", "python3*", "site-packages", "torch", "__init__.py"))
	if len(init) != 1 {
		t.Fatal("no torch/__init__.py")
	}
	if err := os.Remove(init[0]); err != nil {
		t.Fatal(err)
	}
	out, stderr, _ := runCLI(t, withRig(t, "--matrix", mfile, "doctor", "--venv", root, "--fix", "--yes", "--json")...)
	type finding struct{ Code, Fix string }
	var doc struct {
		Report struct{ Findings []finding } `json:"report"`
		Result struct {
			Failed bool
			After  *struct{ Findings []finding } `json:"after"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || doc.Result.Failed || doc.Result.After == nil {
		t.Fatalf("doctor --fix on the embedded Python: %v\n%s\n%s", err, out, stderr)
	}
	if !strings.Contains(out, `"files-missing"`) {
		t.Fatalf("doctor did not name the missing file:\n%s", out)
	}
	if _, err := os.Stat(init[0]); err != nil {
		t.Fatalf("doctor --fix did not put torch back: %v\n%s", err, out)
	}
	for _, f := range doc.Result.After.Findings {
		switch f.Code {
		case "files-missing":
			t.Fatalf("files still missing after the repair:\n%s", out)
		case "pip-python-mismatch": // this machine's pip on PATH is another Python's: the advice fits the kind
			if strings.Contains(f.Fix, "bin/activate") || !strings.Contains(f.Fix, py+" -m pip") {
				t.Errorf("pip advice for an embedded Python: %s", f.Fix)
			}
		}
	}
}

func runPy(py string, code string, args ...string) (string, error) {
	out, err := exec.Command(py, append([]string{"-c", code}, args...)...).CombinedOutput()
	return string(out), err
}

// A Python's own folder (a prefix: an interpreter and its standard library, no pyvenv.cfg, no
// conda-meta) is told apart and planned into; with PEP 668's EXTERNALLY-MANAGED in its standard
// library it is refused with the reason, exit 2, nothing changed.
func TestAPythonPrefixIsATargetUnlessTheOSManagesIt(t *testing.T) {
	useConfigDir(t)
	root, py := pylayout.CondaPrefix(t, false)
	if err := os.RemoveAll(filepath.Join(root, "conda-meta")); err != nil {
		t.Fatal(err)
	}
	ix := cliIndex(t)
	plan := func() (string, int) {
		out, stderr, code := runCLI(t, withRig(t, "install", "--framework", "torch", "--framework-version", "2.6.0", "--channel", "cu126",
			"--venv", py, "--index-url", ix.ChannelURL("cu126"), "--dry-run", "--json")...)
		return out + stderr, code
	}
	text, code := plan()
	if code != 0 || !strings.Contains(text, `"kind": "prefix"`) {
		t.Fatalf("a Python prefix: exit %d\n%s", code, text)
	}
	stdlib, _ := filepath.Glob(filepath.Join(root, "lib", "python3.*"))
	if len(stdlib) != 1 {
		t.Fatalf("stdlib: %q", stdlib)
	}
	if err := os.WriteFile(filepath.Join(stdlib[0], "EXTERNALLY-MANAGED"), []byte("[externally-managed]\nError=use apt\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	text, code = plan()
	if code != 2 || !strings.Contains(text, "EXTERNALLY-MANAGED") || !strings.Contains(text, "PEP 668") {
		t.Fatalf("an externally managed Python: exit %d\n%s", code, text)
	}
	if _, err := os.Stat(filepath.Join(root, ".gpuwiz")); err == nil {
		t.Fatal("the refusal left a .gpuwiz folder")
	}
}
