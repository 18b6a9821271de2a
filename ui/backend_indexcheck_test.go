package ui

import (
	"context"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"gpuwiz/matrix"
	"gpuwiz/steps/indexcheck/indextest"
	"gpuwiz/steps/pep"
)

// The wizard's plan asks the index first: a build it does not serve for this OS and Python is refused
// with what is missing; an index that cannot be read only adds a note.
func TestPlanChecksTheIndexFirst(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	py := pep.Pythons("3.8", "3.14")
	ix := indextest.Serve(t, map[string][]string{
		"cu124": indextest.Torch("2.6.0", "", "2.6.0", "cu124", py, []string{runtime.GOOS}),
		"cu126": indextest.Torch("2.6.0", "0.21.0", "2.6.0", "cu126", py, []string{runtime.GOOS}),
	})
	toml := strings.ReplaceAll(`schema = 1
[[cuda]]
version = "12.4"
minor_compat_linux = "525.60.13"
minor_compat_windows = "528.33"
max_compute_cap = "9.0"
[[cuda]]
version = "12.6"
minor_compat_linux = "525.60.13"
minor_compat_windows = "528.33"
max_compute_cap = "9.0"
[[torch]]
version = "2.6.0"
python_min = "3.8"
python_max = "3.14"
os = ["linux", "windows"]
torchvision = "0.21.0"
torchaudio = "2.6.0"
  [[torch.build]]
  channel = "cu124"
  cuda = "12.4"
  index_url = "INDEX/whl/cu124"
  [[torch.build]]
  channel = "cu126"
  cuda = "12.6"
  index_url = "INDEX/whl/cu126"
`, "INDEX", ix.URL)
	m, err := matrix.Parse([]byte(toml), "m.toml")
	if err != nil {
		t.Fatal(err)
	}
	b := &stepsBackend{}
	cu124, _ := m.Lookup("torch", "2.6.0", "cu124")
	if _, err := b.CheckServed(context.Background(), cu124, python); err == nil || !strings.Contains(err.Error(), "the index has no torchvision==0.21.0+cu124") {
		t.Errorf("cu124: %v", err)
	}
	cu126, _ := m.Lookup("torch", "2.6.0", "cu126")
	if note, err := b.CheckServed(context.Background(), cu126, python); err != nil || note != "" {
		t.Errorf("cu126: %q %v", note, err)
	}
	ix.Break("cu126", "500")
	if note, err := b.CheckServed(context.Background(), cu126, python); err != nil || !strings.Contains(note, "could not look at the index") {
		t.Errorf("broken index: %q %v", note, err)
	}
}
