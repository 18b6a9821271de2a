package ui

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"gpuwiz/matrix"
	"gpuwiz/steps/app"
	"gpuwiz/steps/pep"
	"gpuwiz/steps/testkit/pyindex"
)

// The wizard's plan asks the index first: a build it does not serve for this OS and Python is refused
// with what is missing; an index that cannot be read only adds a note.
func TestPlanChecksTheIndexFirst(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	py := pep.Pythons("3.8", "3.14")
	ix := pyindex.ServeNames(t, map[string][]string{
		"cu124": pyindex.Torch("2.6.0", "", "2.6.0", "cu124", py, []string{runtime.GOOS}),
		"cu126": pyindex.Torch("2.6.0", "0.21.0", "2.6.0", "cu126", py, []string{runtime.GOOS}),
	})
	toml := strings.ReplaceAll(twoChannels, "INDEX", ix.URL)
	m, err := matrix.Parse([]byte(toml), "m.toml")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "m.toml")
	if err := os.WriteFile(file, []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	b := &app.Env{G: &app.Globals{MatrixFile: file}}
	cu124, _ := m.Lookup("torch", "2.6.0", "cu124")
	if _, err := checkServed(b, cu124, python); err == nil || !strings.Contains(err.Error(), "the index has no torchvision==0.21.0+cu124") {
		t.Errorf("cu124: %v", err)
	}
	cu126, _ := m.Lookup("torch", "2.6.0", "cu126")
	if note, err := checkServed(b, cu126, python); err != nil || note != "" {
		t.Errorf("cu126: %q %v", note, err)
	}
	ix.Break("cu126", "500")
	if note, err := checkServed(b, cu126, python); err != nil || !strings.Contains(note, "could not look at the index") {
		t.Errorf("broken index: %q %v", note, err)
	}
}

// On a machine where another build fits, the wizard's refusal offers the next-best build the index
// serves, as the CLI's does (the application layer asks once for both).
func TestPlanOffersTheNextBestBuild(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	py := pep.Pythons("3.8", "3.14")
	ix := pyindex.ServeNames(t, map[string][]string{
		"cu124": pyindex.Torch("2.6.0", "", "2.6.0", "cu124", py, []string{runtime.GOOS}),
		"cu126": pyindex.Torch("2.6.0", "0.21.0", "2.6.0", "cu126", py, []string{runtime.GOOS}),
	})
	dir := t.TempDir()
	file, rig := filepath.Join(dir, "m.toml"), filepath.Join(dir, "rig.json")
	if err := os.WriteFile(file, []byte(strings.ReplaceAll(twoChannels, "INDEX", ix.URL)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rig, []byte(`{"available": true, "backend": "simulated", "driver_version": "580.95.05", "cuda_max": "13.0",
 "simulated": true, "gpus": [{"index": 0, "name": "NVIDIA H200", "uuid": "GPU-test-0", "memory_total_mib": 143771,
 "memory_used_mib": 0, "compute_capability": "9.0", "processes": []}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	env := &app.Env{G: &app.Globals{MatrixFile: file, SimulateFile: rig}}
	m, err := env.Matrix()
	if err != nil {
		t.Fatal(err)
	}
	b := env
	cu124, _ := m.Lookup("torch", "2.6.0", "cu124")
	_, err = checkServed(b, cu124, python)
	if err == nil || !strings.Contains(err.Error(), "the next-best build the index serves is PyTorch 2.6.0 (cu126): pick it on the channel screen") {
		t.Errorf("cu124 on an H200: %v", err)
	}
}

// checkServed asks the build's own index, as the wizard's plan does, whether it serves c's wheels
// for this OS and python, and words the answer as the plan screen does: a note when the index could
// not be read, an error when the build is not served.
func checkServed(env *app.Env, c app.Candidate, python string) (string, error) {
	check, err := env.CheckServed(context.Background(), app.IndexQuery{Candidate: c, Python: python})
	switch {
	case err != nil:
		return "", err
	case check.Refused():
		return "", errors.New(notServedText(check))
	}
	return indexNote(check), nil
}

// twoChannels is a matrix of torch 2.6.0 on cu124 and cu126, both on the index at INDEX.
const twoChannels = `schema = 1
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
`
