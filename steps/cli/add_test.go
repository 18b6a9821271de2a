package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/testkit/filetree"
	"gpuwiz/steps/testkit/pyindex"
)

// addIndex is cliIndex's cu126 channel plus a PyPI-like index: a newer CPU torch, a project that
// needs torch>=2.0 and one that needs torch>=2.7.
func addIndex(t *testing.T) *pyindex.Index {
	t.Helper()
	dir := t.TempDir()
	spec := pyindex.StubSpec{Version: "2.6.0+cu126", CUDA: "12.6", CudaAvailable: true, CuDNN: 90100, ArchList: []string{"sm_80", "sm_90"}}
	build := func(dist, version string, files map[string]string, requires ...string) string {
		p, err := pyindex.BuildWheel(dir, dist, version, files, requires, 0)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	chans := map[string][]string{
		"cu126": pyindex.TorchFamily(t, dir, spec, 0),
		"pypi": {
			build("torch", "2.7.0", pyindex.TorchStub(pyindex.StubSpec{Version: "2.7.0"})),
			build("projx", "1.0", map[string]string{"projx/__init__.py": "X = 1\n"}, "torch>=2.0", "gpuwiz-dep"),
			build("gpuwiz-dep", "1.0", map[string]string{"gpuwiz_dep/__init__.py": "x = 1\n"}),
			build("needsnew", "1.0", map[string]string{"needsnew/__init__.py": "Y = 1\n"}, "torch>=2.7"),
		},
	}
	return pyindex.Serve(t, chans)
}

// venvFiles is every file of the venv with its content hash (bytecode left out).
func venvFiles(t *testing.T, root string) map[string]string {
	return filetree.Sums(t, root, filetree.Options{}, root)
}

func sameFiles(t *testing.T, what string, before, after map[string]string) {
	t.Helper()
	for _, d := range filetree.Diff(before, after) {
		t.Errorf("%s: %s", what, d)
	}
}

type addJSON struct {
	ExitCode int `json:"exit_code"`
	Preview  *struct {
		Venv      string   `json:"venv"`
		Framework string   `json:"framework"`
		Channel   string   `json:"channel"`
		Build     []string `json:"build"`
		Changes   []struct {
			Name, From, To string
		} `json:"changes"`
		Refusal *struct {
			Requirement, Needs, Installed string
		} `json:"refusal"`
	} `json:"preview"`
	Outcome *struct {
		Result    string `json:"result"`
		Protected string `json:"protected"`
		Verify    struct {
			OK bool `json:"ok"`
		} `json:"verify"`
	} `json:"outcome"`
	Error string `json:"error"`
}

func decodeAdd(t *testing.T, out string) addJSON {
	t.Helper()
	var r addJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return r
}

func torchIn(t *testing.T, venv string) string {
	t.Helper()
	out, err := exec.Command(pyenv.Venv{Root: venv}.Python(), "-c", "import torch; print(torch.__version__)").CombinedOutput()
	if err != nil {
		t.Fatalf("import torch: %v %s", err, out)
	}
	return strings.TrimSpace(string(out))
}

// inZh runs the command in Chinese (what --lang zh-CN chooses before the root runs).
func inZh(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	i18n.Set(i18n.Chinese)
	defer i18n.Set(i18n.English)
	return runCLI(t, args...)
}

// gpuwiz add and gpuwiz doctor --requirements through the cobra root, on a venv gpuwiz installed:
// the JSON's shape, a refusal as exit 3 with the venv unchanged file by file, bad input as exit 2,
// an install that keeps the +cu126 build, and the same in Chinese.
func TestAddThroughTheCommand(t *testing.T) {
	useConfigDir(t)
	t.Setenv("GPUWIZ_VERIFY_MATRIX_N", "8")
	ix := addIndex(t)
	dir := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "xdg")) // add's stage folder, in the default wheel cache
	venv := filepath.Join(dir, "my venv")
	if out, stderr, code := runCLI(t, withRig(t, "install", "--framework", "torch", "--framework-version", "2.6.0", "--channel", "cu126",
		"--venv", venv, "--python", pyindex.Python(t), "--index-url", ix.ChannelURL("cu126"), "--cache-dir", filepath.Join(dir, "cache"), "--yes", "--no-pip-upgrade")...); code != 0 {
		t.Fatalf("install: exit %d: %s\n%s", code, stderr, out)
	}
	pypi := ix.ChannelURL("pypi")
	req := filepath.Join(dir, "req dir", "requirements.txt")
	os.MkdirAll(filepath.Dir(req), 0o755)
	os.WriteFile(req, []byte("projx\n"), 0o644)
	bad := filepath.Join(dir, "needs-new.txt")
	os.WriteFile(bad, []byte("needsnew\n"), 0o644)

	// The preview: JSON, nothing installed.
	before := venvFiles(t, venv)
	out, stderr, code := runCLI(t, "add", "--venv", venv, "-r", req, "--index-url", pypi, "--dry-run", "--json")
	r := decodeAdd(t, out)
	if code != 0 || r.ExitCode != 0 || r.Preview == nil || r.Outcome != nil || r.Preview.Framework != "torch" || r.Preview.Channel != "cu126" ||
		r.Preview.Venv != venv || len(r.Preview.Build) == 0 || r.Preview.Refusal != nil {
		t.Fatalf("dry run: exit %d %s\n%s", code, stderr, out)
	}
	names := map[string]bool{}
	for _, c := range r.Preview.Changes {
		names[c.Name] = c.From == "" && c.To != ""
	}
	if !names["projx"] || !names["gpuwiz-dep"] || len(names) != 2 {
		t.Fatalf("changes: %+v", r.Preview.Changes)
	}
	sameFiles(t, "--dry-run", before, venvFiles(t, venv))

	// doctor --requirements predicts the same, changing nothing.
	out, stderr, code = runCLI(t, "doctor", "--venv", venv, "--requirements", req, "--index-url", pypi)
	if code != 0 || !strings.Contains(out, "keeps torch==2.6.0+cu126") || !strings.Contains(out, "projx 1.0 (new)") {
		t.Fatalf("doctor --requirements (keeps): exit %d %s\n%s", code, stderr, out)
	}
	out, _, code = inZh(t, "doctor", "--venv", venv, "--requirements", req, "--index-url", pypi)
	if code != 0 || !strings.Contains(out, "中的 torch==2.6.0+cu126") || !strings.Contains(out, "会保留") || !strings.Contains(out, "没有安装任何东西") {
		t.Fatalf("doctor --requirements in Chinese: exit %d\n%s", code, out)
	}
	out, stderr, code = runCLI(t, "doctor", "--venv", venv, "--requirements", bad, "--index-url", pypi, "--json")
	var pred struct {
		ExitCode   int  `json:"exit_code"`
		KeepsBuild bool `json:"keeps_build"`
		Preview    struct {
			Refusal *struct{ Needs string }
		}
		WayOut string `json:"way_out"`
	}
	if err := json.Unmarshal([]byte(out), &pred); err != nil || code != 3 || pred.ExitCode != 3 || pred.KeepsBuild ||
		pred.Preview.Refusal == nil || !strings.Contains(pred.Preview.Refusal.Needs, "torch>=2.7") || pred.WayOut == "" {
		t.Fatalf("doctor --requirements (refused): exit %d %v %s\n%s", code, err, stderr, out)
	}
	sameFiles(t, "doctor --requirements", before, venvFiles(t, venv))

	// A requirement that needs another torch: exit 3, in words and in JSON, the venv unchanged.
	out, stderr, code = runCLI(t, "add", "--venv", venv, "needsnew", "--index-url", pypi, "--yes")
	if code != 3 || !strings.Contains(out, "Refused: needsnew 1.0 needs torch>=2.7, but this venv holds torch 2.6.0+cu126") || !strings.Contains(out, "--framework-version") {
		t.Fatalf("refusal: exit %d %s\n%s", code, stderr, out)
	}
	out, _, code = runCLI(t, "add", "--venv", venv, "-r", bad, "--index-url", pypi, "--yes", "--json")
	if r := decodeAdd(t, out); code != 3 || r.ExitCode != 3 || r.Preview == nil || r.Preview.Refusal == nil || r.Outcome != nil {
		t.Fatalf("refusal --json: exit %d\n%s", code, out)
	}
	out, _, code = inZh(t, "add", "--venv", venv, "needsnew", "--index-url", pypi, "--yes")
	if code != 3 || !strings.Contains(out, "已拒绝：needsnew 1.0 需要 torch>=2.7") || !strings.Contains(out, "没有做任何改动") {
		t.Fatalf("refusal in Chinese: exit %d\n%s", code, out)
	}
	sameFiles(t, "refused add", before, venvFiles(t, venv))

	// pip could not make the preview: said in the interface's words with the log, pip's lines left there.
	for _, tc := range []struct {
		name, index, pkg, want string
		zh                     bool
	}{
		{"no such package", pypi, "nosuchpkg", "has no release of nosuchpkg", false},
		{"no answer", "http://127.0.0.1:9/simple", "projx", "pip got no answer from the package source", false},
		{"no answer in Chinese", "http://127.0.0.1:9/simple", "projx", "安装源没有响应", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("PIP_RETRIES", "1")
			args := []string{"add", "--venv", venv, tc.pkg, "--index-url", tc.index, "--yes"}
			var stderr string
			var code int
			if tc.zh {
				_, stderr, code = inZh(t, args...)
			} else {
				_, stderr, code = runCLI(t, args...)
			}
			if code != 1 || !strings.Contains(stderr, tc.want) || !strings.Contains(stderr, ".log") {
				t.Fatalf("exit %d (want 1), stderr %q (want %q and the log)", code, stderr, tc.want)
			}
			for _, raw := range []string{"ERROR:", "WARNING:", "Retrying", "Could not find a version"} {
				if strings.Contains(stderr, raw) {
					t.Errorf("pip's own line %q on the screen: %q", raw, stderr)
				}
			}
		})
	}
	sameFiles(t, "failed preview", before, venvFiles(t, venv))

	// Bad input: exit 2 with what to do, nothing changed.
	notVenv := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		msg  string
	}{
		{"no venv", []string{"add", "projx"}, "--venv"},
		{"no such file", []string{"add", "--venv", venv, "-r", filepath.Join(dir, "nope.txt")}, "nope.txt does not exist"},
		{"not a venv", []string{"add", "--venv", notVenv, "projx"}, notVenv},
		{"nothing asked", []string{"add", "--venv", venv, "--yes"}, ""},
		{"doctor --requirements without --venv", []string{"doctor", "--requirements", req}, "--venv"},
		{"doctor --requirements with --fix", []string{"doctor", "--venv", venv, "--requirements", req, "--fix"}, "--requirements"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := runCLI(t, tc.args...)
			if code != 2 || !strings.Contains(stderr, tc.msg) {
				t.Fatalf("exit %d (want 2), stderr %q (want %q)", code, stderr, tc.msg)
			}
		})
	}
	_, stderr, code = inZh(t, "add", "--venv", venv, "-r", filepath.Join(dir, "nope.txt"))
	if code != 2 || !strings.Contains(stderr, "nope.txt") || !strings.ContainsAny(stderr, "请文件") {
		t.Fatalf("bad input in Chinese: exit %d %q", code, stderr)
	}
	sameFiles(t, "bad input", before, venvFiles(t, venv))

	// The install: the project goes in, the build stays, the venv stays protected.
	out, stderr, code = runCLI(t, "add", "--venv", venv, "-r", req, "--index-url", pypi, "--yes", "--json", "--log", filepath.Join(dir, "add.log"))
	r = decodeAdd(t, out)
	if code != 0 || r.ExitCode != 0 || r.Outcome == nil || r.Outcome.Result != "installed" || !r.Outcome.Verify.OK || r.Outcome.Protected == "" {
		t.Fatalf("add: exit %d %s\n%s", code, stderr, out)
	}
	if got := torchIn(t, venv); got != "2.6.0+cu126" {
		t.Fatalf("add replaced the build: %s", got)
	}
	if o, err := exec.Command(pyenv.Venv{Root: venv}.Python(), "-c", "import projx, gpuwiz_dep").CombinedOutput(); err != nil {
		t.Fatalf("the project is not importable: %v %s", err, o)
	}
	// gpuwiz cache counts the wheels add downloaded, in the venv's own folder under add/.
	out, _, _ = runCLI(t, "cache")
	if !regexp.MustCompile(`(?m)^  add/my venv-[0-9a-f]+ +2 wheels, `).MatchString(out) {
		t.Errorf("gpuwiz cache should count add's 2 wheels (projx, gpuwiz_dep):\n%s", out)
	}
	// Again: nothing to do, said so.
	out, _, code = runCLI(t, "add", "--venv", venv, "-r", req, "--index-url", pypi, "--yes")
	if code != 0 || !strings.Contains(out, "nothing to do") {
		t.Fatalf("second add: exit %d\n%s", code, out)
	}
}
