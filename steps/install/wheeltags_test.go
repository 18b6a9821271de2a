package install

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"gpuwiz/steps/pyenv"
)

func TestWheelRunsReadsTheTags(t *testing.T) {
	for _, c := range []struct {
		file, py, goos string
		want           bool
	}{
		{"torch-2.11.0+cu130-cp312-cp312-manylinux_2_28_x86_64.whl", "3.12.4", "linux", true},
		{"torch-2.11.0+cu130-cp312-cp312-manylinux_2_28_x86_64.whl", "3.11.9", "linux", false},
		{"torch-2.11.0+cu130-cp312-cp312-manylinux_2_28_x86_64.whl", "3.12.4", "windows", false},
		{"torch-2.7.1+cu126-cp311-cp311-win_amd64.whl", "3.11.9", "windows", true},
		{"torch-2.7.1+cu126-cp311-cp311-win_amd64.whl", "3.11.9", "linux", false},
		{"torchvision-0.21.0-py3-none-any.whl", "3.13.1", "windows", true},
		{"cuda_bindings-13.0.1-cp310-abi3-manylinux_2_24_x86_64.whl", "3.12.0", "linux", true},
		{"cuda_bindings-13.0.1-cp313-abi3-manylinux_2_24_x86_64.whl", "3.12.0", "linux", false},
		{"paddlepaddle_gpu-3.0.0-cp39.cp310.cp311-cp39.cp310.cp311-linux_x86_64.whl", "3.11.2", "linux", true},
		{"torch-2.11.0+cu130-cp312-cp312-manylinux_2_28_aarch64.whl", "3.12.4", "linux", false},
		{"torch-2.11.0+cu130-cp312-cp312-manylinux_2_28_x86_64.whl", "", "linux", true}, // Python unknown: only the system is judged
		{"not-a-wheel.whl", "3.12.4", "linux", false},
	} {
		if got := wheelRuns(c.file, c.py, c.goos); got != c.want {
			t.Errorf("wheelRuns(%s, %q, %s) = %v, want %v", c.file, c.py, c.goos, got, c.want)
		}
	}
}

// A cache staged for Python 3.12 on Linux does not count as "the build is in the cache" for a
// Python 3.11 venv, nor on Windows: the plan must not say that no network is needed.
func TestCachedBuildOnlyCountsWheelsThisPythonCanInstall(t *testing.T) {
	dir := t.TempDir()
	rec := wheelRecord{Wheels: map[string]cachedWheel{}}
	for _, f := range []string{"torch-2.11.0+cu130-cp312-cp312-manylinux_2_28_x86_64.whl", "torchvision-0.26.0+cu130-cp312-cp312-manylinux_2_28_x86_64.whl"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("wheel "+f), 0o644); err != nil {
			t.Fatal(err)
		}
		rec.Wheels[f] = cachedWheel{SHA256: "x", Size: int64(len("wheel " + f)), From: "https://mirror.example/simple", Staged: time.Now()}
	}
	if err := writeWheelRecord(dir, rec); err != nil {
		t.Fatal(err)
	}
	pins := []string{"torch==2.11.0+cu130", "torchvision==0.26.0+cu130"}
	if ok, files, _, from := cachedBuild(dir, pins, "3.12.4", "linux"); !ok || files != 2 || len(from) != 1 {
		t.Errorf("Python 3.12 on Linux: ok %v, %d files, from %v", ok, files, from)
	}
	if ok, _, _, _ := cachedBuild(dir, pins, "3.11.9", "linux"); ok {
		t.Error("Python 3.11: the cp312 wheels counted as the build")
	}
	if ok, _, _, _ := cachedBuild(dir, pins, "3.12.4", "windows"); ok {
		t.Error("Windows: the manylinux wheels counted as the build")
	}
}

// With the whole build in the wheel cache (for this Python), the plan takes it from there and does
// not try to upgrade pip first: a newer pip is for continuing downloads, and there are none; an
// offline repair would only wait for the index. With wheels for another Python it still does both.
func TestPlanFromTheCacheSkipsThePipUpgrade(t *testing.T) {
	cache := t.TempDir()
	tg := planTarget()
	dir := StageDir(cache, tg)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	rec := wheelRecord{Wheels: map[string]cachedWheel{}}
	for _, f := range []string{"torch-2.6.0+cu126-cp311-cp311-manylinux_2_28_x86_64.whl", "torchvision-0.21.0+cu126-cp311-cp311-manylinux_2_28_x86_64.whl"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
		rec.Wheels[f] = cachedWheel{SHA256: "x", Size: int64(len(f)), From: "https://mirror.example/simple", Staged: time.Now()}
	}
	if err := writeWheelRecord(dir, rec); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		py      string
		source  string
		upgrade bool
	}{{"3.11.9", "cache", false}, {"3.12.4", "index", false}} { // pip 23.2.1 is new enough: no upgrade (by design)
		o := Options{Venv: pyenv.Venv{Root: "/v", GOOS: "linux"}, Target: tg, CacheDir: cache, Environ: []string{}}
		in := existing("23.2.1")
		in.Python.Version = c.py
		p, err := MakePlan(o, in)
		if err != nil {
			t.Fatal(err)
		}
		_, upgrade := p.Step(StepPipUpgrade)
		if p.Source.Kind != c.source || upgrade != c.upgrade {
			t.Errorf("Python %s: source %q (want %q), pip upgrade %v (want %v)", c.py, p.Source.Kind, c.source, upgrade, c.upgrade)
		}
	}
}
