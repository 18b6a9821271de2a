package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func mkfile(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, nil, 0o755); err != nil {
		t.Fatal(err)
	}
}

// gpuwiz envs, run inside a portable bundle's ComfyUI folder, finds the bundle's embedded Python
// beside it, a uv venv below it and ComfyUI Desktop's environment; each row has its kind, Python
// and build, and for an RTX 5070 the cu126 torch is named as having no kernels for it. A venv three
// levels down is not looked for.
func TestEnvsFindsBundlesAroundTheFolder(t *testing.T) {
	useConfigDir(t)
	top := t.TempDir()
	portable := filepath.Join(top, "ComfyUI_windows_portable")
	emb := filepath.Join(portable, "python_embeded")
	mkfile(t, filepath.Join(emb, "python3.12"))
	mkfile(t, filepath.Join(emb, "python312._pth"))
	mkfile(t, filepath.Join(emb, "lib", "python3.12", "site-packages", "torch-2.8.0+cu126.dist-info", "METADATA"))
	comfy := filepath.Join(portable, "ComfyUI")
	uv := filepath.Join(comfy, "custom_nodes", ".venv")
	if err := os.MkdirAll(filepath.Join(uv, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(uv, "pyvenv.cfg"), []byte("home = /usr/bin\nuv = 0.5.11\nversion_info = 3.12.8\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	deep := filepath.Join(comfy, "a", "b", "venv")
	mkfile(t, filepath.Join(deep, "pyvenv.cfg"))
	home := filepath.Join(top, "home")
	desktop := filepath.Join(home, "Documents", "ComfyUI", ".venv")
	mkfile(t, filepath.Join(desktop, "pyvenv.cfg"))
	t.Setenv("HOME", home)
	t.Chdir(comfy)

	out, stderr, code := runCLI(t, "--simulate", rigOf(t, "NVIDIA GeForce RTX 5070", "12.0"), "envs", "--json")
	if code != 0 {
		t.Fatalf("envs: exit %d\n%s", code, stderr)
	}
	var rep struct {
		Cards        []string
		Environments []struct {
			Path, Source, Kind, UV string
			Holds                  struct{ Python, Framework, Channel string }
			Kernels                *struct {
				Known, All bool
				Missing    []string
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	got := map[string]int{}
	for i, e := range rep.Environments {
		got[e.Path] = i
	}
	if _, ok := got[deep]; ok {
		t.Errorf("a venv three levels down was found: the search is not bounded\n%s", out)
	}
	i, ok := got[emb]
	if !ok {
		t.Fatalf("the bundle's python_embeded beside the folder was not found:\n%s", out)
	}
	e := rep.Environments[i]
	if e.Kind != "embedded" || e.Source != "nearby" || e.Holds.Python != "3.12" || e.Holds.Framework != "torch" || e.Holds.Channel != "cu126" {
		t.Errorf("the bundle's row: %+v", e)
	}
	if e.Kernels == nil || !e.Kernels.Known || e.Kernels.All || strings.Join(e.Kernels.Missing, ",") != "12.0" {
		t.Errorf("cu126 torch beside an RTX 5070: kernels %+v", e.Kernels)
	}
	if i, ok := got[uv]; !ok || rep.Environments[i].Kind != "venv" || rep.Environments[i].UV != "0.5.11" {
		t.Errorf("the uv venv two levels down: %v\n%s", ok, out)
	}
	if i, ok := got[desktop]; !ok || rep.Environments[i].Source != "comfyui-desktop" {
		t.Errorf("ComfyUI Desktop's environment: %v\n%s", ok, out)
	}

	text, _, _ := runCLI(t, "--simulate", rigOf(t, "NVIDIA GeForce RTX 5070", "12.0"), "envs")
	if !strings.Contains(text, "embedded Python: PyTorch") || !strings.Contains(text, "no kernels for the card with compute capability 12.0") {
		t.Errorf("envs in words:\n%s", text)
	}
}
