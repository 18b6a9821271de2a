package pyenv

import (
	"archive/zip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeWheel(t *testing.T, path string, members ...string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	z := zip.NewWriter(f)
	for _, m := range members {
		w, err := z.Create(m)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte("x"))
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// The deepest file comes from the wheels' own file lists, in the Windows layout; the warning
// follows the build and the root: it appears exactly when long paths are off and root + file passes
// 259 characters, and names the file, the registry switch and the longest root that fits.
func TestBuildFitsFollowsTheWheelsAndTheRoot(t *testing.T) {
	dir := t.TempDir()
	// A dist-info license tree like torch 2.13's (pytorch/TensorRT#4288), 200 characters below the root.
	license := "torch-2.13.0+cu130.dist-info/licenses/third_party/kineto/libkineto/third_party/dynolog/third_party/DCGM/testing/python3/libs_3rdparty/vendored/LICENSE-of-a-vendored-lib-longer.md.txt"
	deep := filepath.Join(dir, "torch-2.13.0+cu130-cp312-cp312-win_amd64.whl")
	writeWheel(t, deep, "torch/__init__.py", license, "torch-2.13.0+cu130.data/scripts/torchrun.exe")
	shallow := filepath.Join(dir, "numpy-2.2.0-cp312-cp312-win_amd64.whl")
	writeWheel(t, shallow, "numpy/__init__.py", "numpy-2.2.0.dist-info/RECORD")
	d, err := DeepestWheelFile([]string{shallow, deep})
	if err != nil {
		t.Fatal(err)
	}
	want := `Lib\site-packages\` + strings.ReplaceAll(license, "/", `\`)
	if d.Path != want || d.Length != len(want) {
		t.Fatalf("deepest %+v, want %q (%d)", d, want, len(want))
	}
	if d.Length != 200 {
		t.Fatalf("the fixture is %d characters below the root, not 200", d.Length)
	}
	root59 := `C:\Users\zhangwei\Documents\Projects\stable-diffusion\venv` // 59 characters, as in the report
	root59 = root59 + strings.Repeat("x", 59-len(root59))
	off := LongPaths{Known: true, Enabled: false}
	w := BuildFits(root59, d, "windows", off)
	for _, s := range []string{root59, want, "[WinError 206]", "LongPathsEnabled -Value 1", "as administrator", "at most 259"} {
		if !strings.Contains(w, s) {
			t.Errorf("warning lacks %q:\n%s", s, w)
		}
	}
	if BuildFits(root59, d, "windows", LongPaths{Known: true, Enabled: true}) != "" {
		t.Error("warned with long paths on")
	}
	if BuildFits(`C:\venvs\gpu`, d, "windows", off) != "" {
		t.Error("warned for a short root")
	}
	if BuildFits(root59, d, "linux", off) != "" {
		t.Error("warned on Linux")
	}
	// Exactly at the limit: root + "\" + file = 259 fits, 260 does not.
	fit := strings.Repeat("r", maxPath-1-d.Length)
	if BuildFits(fit, d, "windows", off) != "" || BuildFits(fit+"r", d, "windows", off) == "" {
		t.Error("the limit is not 259 characters")
	}
	// A shallow build fits the same 59-character root.
	s, _ := DeepestWheelFile([]string{shallow})
	if BuildFits(root59, s, "windows", off) != "" {
		t.Error("a shallow build warned")
	}
}
