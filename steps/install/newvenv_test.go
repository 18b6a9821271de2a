package install

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/testkit/pyindex"
)

// A venv the install creates gets pip linked in from gpuwiz's cache of unpacked wheels (the wheel
// the base Python's ensurepip carries), not by ensurepip: pip works in it (python -m pip and the
// pip launcher), and its files are hard links into the cache's entry.
func TestNewVenvGetsPipLinkedFromTheCache(t *testing.T) {
	ix := serve(t)
	cache := t.TempDir()
	root := filepath.Join(t.TempDir(), "new venv")
	o := options(t, pyenv.Venv{Root: root}, torchTarget(ix, "cu126"), cache)
	_, out, _ := install(t, context.Background(), o, nil)
	if out.Result != ResultInstalled {
		t.Fatalf("install: %s %v", out.Result, out.Err)
	}
	log, _ := os.ReadFile(o.LogPath)
	if !strings.Contains(string(log), "new venv: pip linked in from "+UnpackedDir(cache)) {
		t.Fatalf("pip was not linked in from the cache; log:\n%s", log)
	}
	// The pip a new venv gets is the wheel the base Python's ensurepip carries, read once: the plan
	// and the venv step share one probe (none in this log when a test before asked the same Python
	// in this process), and no Python starts to ask ensurepip its version.
	if n := strings.Count(string(log), "does this interpreter's environment have pip"); n > 1 || strings.Contains(string(log), "ensurepip.version()") {
		t.Fatalf("the base Python was asked for its pip %d times (or ensurepip's version asked); log:\n%s", n, log)
	}
	// The Python that linked pip in answered the install step too: where pip installs and the
	// launchers, with no second start.
	if !strings.Contains(string(log), "the venv's Python that linked pip in stays running for the install step") {
		t.Fatalf("the install step did not take the venv step's Python; log:\n%s", log)
	}
	v := pyenv.Venv{Root: root}
	for _, argv := range [][]string{{v.Python(), "-m", "pip", "--version"}, {filepath.Join(v.BinDir(), "pip"), "--version"}} {
		b, err := exec.Command(argv[0], argv[1:]...).CombinedOutput()
		if err != nil || !strings.HasPrefix(string(b), "pip ") || !strings.Contains(string(b), root) {
			t.Fatalf("%v: %v %s", argv, err, b)
		}
	}
	init, _ := filepath.Glob(filepath.Join(root, "lib", "python3*", "site-packages", "pip", "__init__.py"))
	if len(init) != 1 {
		t.Fatalf("pip/__init__.py in the venv: %v", init)
	}
	cached, _ := filepath.Glob(filepath.Join(UnpackedDir(cache), "*", "pip", "__init__.py"))
	a, errA := os.Stat(init[0])
	if len(cached) != 1 || errA != nil {
		t.Fatalf("the cache's unpacked pip: %v %v", cached, errA)
	}
	if c, err := os.Stat(cached[0]); err != nil || !os.SameFile(a, c) {
		t.Fatalf("pip/__init__.py in the venv is not a link to %s: %v", cached[0], err)
	}
	if !strings.Contains(freeze(t, v), "pip==") {
		t.Fatal("pip freeze --all lists no pip")
	}
}

// BenchmarkVenvCreate: a new venv as python -m venv makes it (ensurepip) against CreateVenv
// (--without-pip, then pip linked in from the unpacked cache, warm after the first).
func BenchmarkVenvCreate(b *testing.B) {
	python := pyindex.Python(b)
	env := pyindex.PipEnv(b)
	base := b.TempDir()
	unpacked := UnpackedDir(b.TempDir())
	if err := CreateVenv(context.Background(), runner.New(nil), python, filepath.Join(base, "warm"), env, unpacked); err != nil {
		b.Fatal(err)
	}
	b.Run("ensurepip", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if err := pyenv.Create(context.Background(), runner.New(nil), python, filepath.Join(base, "e"+strconv.Itoa(i))); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("linked", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if err := CreateVenv(context.Background(), runner.New(nil), python, filepath.Join(base, "l"+strconv.Itoa(i)), env, unpacked); err != nil {
				b.Fatal(err)
			}
		}
	})
}
