package keep

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func uvp(path string) UVProject {
	return UVProject{Path: path, Pins: []string{"torch==2.8.0+cu128", "torchvision==0.23.0+cu128"}, Index: "pytorch-cu128",
		URL: "https://download.pytorch.org/whl/cu128", Dists: []string{"torch", "torchvision"}}
}

// The user's lines and comments stay as they were; the settings go after the existing [tool.uv] and
// [tool.uv.sources] headers or at the end; a second run changes nothing; a project that says
// something else is left alone.
func TestUVProjectEditKeepsTheUsersFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "pyproject.toml")
	user := "# my project\n[project]\nname = \"comfy\"  # the name\ndependencies = [\"torch\", \"numpy\"]\n\n[tool.uv]\n# keep this comment\nprerelease = \"allow\"\n"
	if err := os.WriteFile(p, []byte(user), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := uvp(p).Write(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	got := string(b)
	for _, line := range strings.Split(strings.TrimSpace(user), "\n") {
		if !strings.Contains(got, line+"\n") {
			t.Errorf("the user's line %q is gone:\n%s", line, got)
		}
	}
	for _, want := range []string{"[tool.uv]\nconstraint-dependencies = [\"torch==2.8.0+cu128\", \"torchvision==0.23.0+cu128\"]\n# keep this comment\n",
		"[[tool.uv.index]]\nname = \"pytorch-cu128\"\nurl = \"https://download.pytorch.org/whl/cu128\"\nexplicit = true\n",
		"[tool.uv.sources]\ntorch = { index = \"pytorch-cu128\" }\ntorchvision = { index = \"pytorch-cu128\" }\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	if strings.Count(got, "[tool.uv]") != 1 {
		t.Errorf("[tool.uv] twice:\n%s", got)
	}
	if _, changed, err := uvp(p).Edit(got); changed || err != nil {
		t.Errorf("a second edit: changed %v, %v", changed, err)
	}
	other := "[tool.uv]\nconstraint-dependencies = [\"torch==2.6.0+cu126\"]\n"
	if _, _, err := uvp(p).Edit(other); !errors.Is(err, ErrUVProjectByHand) {
		t.Errorf("a project pinning another torch: %v", err)
	}
	if _, _, err := uvp(p).Edit("[tool.uv\nbroken"); !errors.Is(err, ErrUVProjectByHand) {
		t.Errorf("a file that is not TOML: %v", err)
	}
}
