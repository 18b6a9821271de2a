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
)

// A venv made by uv (pyvenv.cfg's uv line) beside a uv project's pyproject.toml, holding torch
// 2.8.0 cu128: doctor names uv (it reads none of pip's protection); doctor --fix writes the
// project's own settings (explicit index, sources, constraint-dependencies), keeping the user's
// lines; afterwards doctor no longer names it. A real `uv pip install -r` is not run here: uv is
// not installed on the machines these tests run on, and no package index is reachable to fetch it.
func TestDoctorNamesUVAndWritesTheProjectsSettings(t *testing.T) {
	useConfigDir(t)
	dir := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	t.Setenv("HOME", dir)
	t.Setenv("GPUWIZ_VERIFY_MATRIX_N", "8")
	isolatePip(t)
	spec := pyindex.StubSpec{Version: "2.8.0+cu128", CUDA: "12.8", CudaAvailable: true, CuDNN: 91002,
		ArchList: []string{"sm_70", "sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120"}}
	ix := pyindex.Serve(t, map[string][]string{"cu128": pyindex.TorchFamilyOf(t, filepath.Join(dir, "w"), spec, "0.23.0", 0)})
	m := strings.ReplaceAll(string(matrix.EmbeddedTOML()), "https://download.pytorch.org/whl/", ix.URL+"/whl/")
	mfile := filepath.Join(dir, "matrix.toml")
	if err := os.WriteFile(mfile, []byte(m), 0o644); err != nil {
		t.Fatal(err)
	}
	project := filepath.Join(dir, "my-comfy")
	venv := filepath.Join(project, ".venv")
	if out, err := exec.Command(pyindex.Python(t), "-m", "venv", "--without-pip", venv).CombinedOutput(); err != nil {
		t.Fatalf("venv: %v %s", err, out)
	}
	cfg := filepath.Join(venv, "pyvenv.cfg")
	b, _ := os.ReadFile(cfg)
	if err := os.WriteFile(cfg, append(b, []byte("uv = 0.5.11\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	user := "# my comfy\n[project]\nname = \"my-comfy\"\nversion = \"0.1.0\"\ndependencies = [\"torch\", \"torchvision\"]  # the GPU build\n"
	pyproject := filepath.Join(project, "pyproject.toml")
	if err := os.WriteFile(pyproject, []byte(user), 0o644); err != nil {
		t.Fatal(err)
	}
	rig := rigOf(t, "NVIDIA GeForce RTX 5070", "12.0")
	if out, stderr, code := runCLI(t, "--simulate", rig, "--matrix", mfile, "install", "--framework", "torch", "--framework-version", "2.8.0",
		"--channel", "cu128", "--venv", venv, "--yes", "--json"); code != 0 {
		t.Fatalf("install: exit %d\n%s\n%s", code, out, stderr)
	}
	doctor := func(args ...string) string {
		out, _, _ := runCLI(t, append([]string{"--simulate", rig, "--matrix", mfile, "doctor", "--venv", venv, "--json"}, args...)...)
		return out
	}
	out := doctor()
	if !strings.Contains(out, `"uv-ignores-protection"`) || !strings.Contains(out, "uv 0.5.11") || !strings.Contains(out, pyproject) {
		t.Fatalf("doctor did not name uv with the project to write:\n%s", out)
	}
	if after, _ := os.ReadFile(pyproject); string(after) != user {
		t.Fatal("doctor without --fix changed the project")
	}
	out = doctor("--fix", "--yes")
	var rep struct {
		Result struct{ Failed bool } `json:"result"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.Result.Failed {
		t.Fatalf("doctor --fix: %v\n%s", err, out)
	}
	got, _ := os.ReadFile(pyproject)
	if !strings.HasPrefix(string(got), user) {
		t.Fatalf("the user's lines changed:\n%s", got)
	}
	for _, want := range []string{"constraint-dependencies = [\"torch==2.8.0+cu128\", \"torchvision==0.23.0+cu128\", \"torchaudio==2.8.0+cu128\"]",
		"[[tool.uv.index]]\nname = \"pytorch-cu128\"\nurl = \"" + ix.URL + "/whl/cu128\"\nexplicit = true",
		"torch = { index = \"pytorch-cu128\" }"} {
		if !strings.Contains(string(got), want) {
			t.Errorf("pyproject.toml lacks %q:\n%s", want, got)
		}
	}
	if out := doctor(); strings.Contains(out, `"uv-ignores-protection"`) {
		t.Fatalf("doctor still names uv once the project keeps the build:\n%s", out)
	}
	if _, err := exec.LookPath("uv"); err != nil {
		t.Log("uv is not installed here: `uv pip install -r` against the written settings is not run")
	}
}
