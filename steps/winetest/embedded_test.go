package winetest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEmbeddedBundleUnderWine is the portable bundle on Windows: ComfyUI_windows_portable's
// python_embeded layout (python.exe beside python312._pth and python312.zip, Lib\site-packages under
// it, no venv), with the stand-in as its python.exe. gpuwiz.exe started in the bundle's folder finds
// it; an install into it is planned for that interpreter, with no venv made and the folder named as
// an embedded Python; a ._pth that hides site-packages is refused with the fix named, nothing changed.
func TestEmbeddedBundleUnderWine(t *testing.T) {
	w := windows(t)
	const bundle = `ComfyUI_windows_portable`
	const embedded = bundle + `\python_embeded`
	w.installStandin(t, embedded+`\python.exe`, `{"version": "3.12.8", "bits": 64, "dists": [{"name": "torch", "version": "2.6.0+cu126"}]}`)
	pth := w.driveC(embedded + `\python312._pth`)
	writeFile(t, pth, "python312.zip\r\n.\r\n\r\n# Uncomment to run site.main() automatically\r\nimport site\r\n")
	writeFile(t, w.driveC(embedded+`\python312.zip`), "")
	if err := os.MkdirAll(w.driveC(embedded+`\Lib\site-packages`), 0o755); err != nil {
		t.Fatal(err)
	}
	// The rig as a Windows path: started in a folder of C:, a rooted Unix path would mean C:\tmp\...
	rig := `Z:` + strings.ReplaceAll(w.rig(t), "/", `\`)

	t.Run("envs started in the bundle's folder finds it", func(t *testing.T) {
		r := w.gpuwizIn(t, w.driveC(bundle), nil, "--simulate", rig, "envs", "--json")
		if r.code != 0 {
			t.Fatalf("envs --json exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
		}
		var rep struct {
			Environments []map[string]any `json:"environments"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, r.stdout)
		}
		t.Logf("envs:\n%s", r.stdout)
		found := false
		for _, e := range rep.Environments {
			raw, _ := json.Marshal(e)
			if p, _ := e["path"].(string); strings.HasSuffix(strings.ToLower(strings.ReplaceAll(p, "/", `\`)), strings.ToLower(`\python_embeded`)) {
				found = true
				if !strings.Contains(string(raw), `"embedded"`) {
					t.Errorf("the bundle is not named an embedded Python: %s", raw)
				}
			}
		}
		if !found {
			t.Errorf("envs in %s lists no python_embeded:\n%s\nstderr:\n%s", bundle, r.stdout, r.stderr)
		}
	})

	target := `C:\` + embedded

	t.Run("an install into it is planned for its own python.exe, no venv made", func(t *testing.T) {
		r := w.gpuwiz(t, nil, "--simulate", rig, "install", "--dry-run", "--json",
			"--framework", "torch", "--channel", "cu128", "--venv", target)
		if r.code != 0 {
			t.Fatalf("install --dry-run exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
		}
		t.Logf("the plan:\n%s", r.stdout)
		var plan struct {
			Commands [][]string `json:"commands"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &plan); err != nil {
			t.Fatalf("not a plan: %v\n%s", err, r.stdout)
		}
		for _, argv := range plan.Commands {
			joined := strings.Join(argv, " ")
			if strings.Contains(joined, " -m venv") || strings.Contains(joined, `\Scripts\python.exe`) {
				t.Errorf("the plan makes or uses a venv in a bundle: %q", argv)
			}
			if len(argv) > 0 && strings.HasSuffix(strings.ToLower(argv[0]), `\python.exe`) && !strings.EqualFold(argv[0], target+`\python.exe`) {
				t.Errorf("a command runs another Python than the bundle's: %q", argv)
			}
		}
		if !strings.Contains(strings.ToLower(r.stdout), "embedded") {
			t.Errorf("the plan does not say the target is an embedded Python:\n%s", r.stdout)
		}
	})

	t.Run("a ._pth that hides site-packages is refused, nothing changed", func(t *testing.T) {
		writeFile(t, pth, "python312.zip\r\n.\r\n\r\n# Uncomment to run site.main() automatically\r\n#import site\r\n")
		mid := tree(t, w.driveC(bundle))
		r := w.gpuwiz(t, nil, "--simulate", rig, "install", "--dry-run",
			"--framework", "torch", "--channel", "cu128", "--venv", target)
		if r.code == 0 {
			t.Fatalf("install into a bundle whose ._pth hides site-packages exit 0\n%s\n%s", r.stdout, r.stderr)
		}
		out := r.stdout + r.stderr
		t.Logf("the refusal:\n%s", out)
		for _, want := range []string{"python312._pth", "--fix-pth"} {
			if !strings.Contains(out, want) {
				t.Errorf("the refusal does not name %q:\n%s", want, out)
			}
		}
		if after := tree(t, w.driveC(bundle)); after != mid {
			t.Errorf("the refused install changed the bundle:\nbefore:\n%s\nafter:\n%s", mid, after)
		}
	})

}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// tree lists every file under root with its size and contents' length, for a before/after check.
func tree(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		data := ""
		if fi.Mode().IsRegular() && fi.Size() < 4096 {
			c, _ := os.ReadFile(p)
			data = string(c)
		}
		b.WriteString(rel + " " + fi.Mode().String() + " " + data + "\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
