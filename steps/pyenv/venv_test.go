package pyenv

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/steps/runner"
)

func TestVenvLayout(t *testing.T) {
	w := Venv{Root: `C:\venvs\torch\`, GOOS: "windows"}
	if w.Python() != `C:\venvs\torch\Scripts\python.exe` || w.BinDir() != `C:\venvs\torch\Scripts` {
		t.Fatalf("windows python %q", w.Python())
	}
	h := w.ActivateHints()
	if len(h) != 3 || h[0] != `PowerShell: & C:\venvs\torch\Scripts\Activate.ps1` || !strings.Contains(h[1], "Set-ExecutionPolicy -Scope CurrentUser RemoteSigned") || h[2] != `cmd: C:\venvs\torch\Scripts\activate.bat` {
		t.Fatalf("windows hints %q", h)
	}
	l := Venv{Root: "/home/me/my venv", GOOS: "linux"}
	if l.Python() != "/home/me/my venv/bin/python" {
		t.Fatalf("linux python %q", l.Python())
	}
	if h := l.ActivateHints(); len(h) != 1 || h[0] != "bash/zsh: source '/home/me/my venv/bin/activate'" {
		t.Fatalf("linux hints %q", h)
	}
	// A space, a quote or $ in the path: each shell's line still pastes as one argument.
	sp := Venv{Root: `C:\Users\张三\my $venv's`, GOOS: "windows"}.ActivateHints()
	if sp[0] != `PowerShell: & 'C:\Users\张三\my $venv''s\Scripts\Activate.ps1'` || sp[2] != `cmd: "C:\Users\张三\my $venv's\Scripts\activate.bat"` {
		t.Fatalf("windows hints with a space: %q", sp)
	}
}

func TestCheckVenvPath(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "afile")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if pc := CheckVenvPath(file, "linux"); len(pc.Errors) != 1 || !strings.Contains(pc.Errors[0], "is a file") {
		t.Fatalf("file: %+v", pc)
	}
	// a parent that is a file: nothing can be created under it, even by root
	if pc := CheckVenvPath(filepath.Join(file, "venv"), "linux"); len(pc.Errors) != 1 || !strings.Contains(pc.Errors[0], "is a file") {
		t.Fatalf("file parent: %+v", pc)
	}
	// /proc refuses new directories even to root
	if pc := CheckVenvPath("/proc/gpuwiz-venv", "linux"); len(pc.Errors) != 1 || !strings.Contains(pc.Errors[0], "not writable") {
		t.Fatalf("/proc: %+v", pc)
	}
	if pc := CheckVenvPath(filepath.Join(dir, "new", "deeper", "venv"), "linux"); !pc.OK() || len(pc.Warnings) != 0 {
		t.Fatalf("fresh path: %+v", pc)
	}
	if pc := CheckVenvPath("", "linux"); pc.OK() {
		t.Fatal("empty path accepted")
	}
	nonASCII := filepath.Join(dir, "张三", "venv")
	if pc := CheckVenvPath(nonASCII, "windows"); !pc.OK() || len(pc.Warnings) != 1 || !strings.Contains(pc.Warnings[0], `C:\venvs\torch`) {
		t.Fatalf("non-ASCII on windows: %+v", pc)
	}
	if pc := CheckVenvPath(nonASCII, "linux"); len(pc.Warnings) != 0 {
		t.Fatalf("non-ASCII on linux warned: %+v", pc)
	}
	long := filepath.Join(dir, strings.Repeat("d", 120), strings.Repeat("e", 100))
	if pc := CheckVenvPath(long, "windows"); len(pc.Warnings) != 1 || !strings.Contains(pc.Warnings[0], "LongPathsEnabled") {
		t.Fatalf("long on windows: %+v", pc)
	}
	busy := filepath.Join(dir, "busy")
	os.MkdirAll(busy, 0o755)
	os.WriteFile(filepath.Join(busy, "notes.txt"), nil, 0o644)
	if pc := CheckVenvPath(busy, "linux"); pc.OK() || !strings.Contains(pc.Errors[0], "not empty and is not a venv") {
		t.Fatalf("non-empty dir: %+v", pc)
	}
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	if pc := CheckVenvPath(empty, "linux"); !pc.OK() || len(pc.Warnings) != 0 {
		t.Fatalf("an empty dir is fine: %+v", pc)
	}
}

func TestCreateMakesAndReusesVenv(t *testing.T) {
	py := realPython(t)
	root := filepath.Join(t.TempDir(), "my venv & co; 中文")
	r := runner.New(nil)
	if err := Create(context.Background(), r, py, root); err != nil {
		t.Fatal(err)
	}
	v := Venv{Root: root}
	if !v.Exists() {
		t.Fatal("no pyvenv.cfg")
	}
	in, err := Describe(context.Background(), v.Python())
	if err != nil || in.Kind != "venv" {
		t.Fatalf("venv python: %+v %v", in, err)
	}
	inst, err := Inspect(context.Background(), r, v.Python())
	if err != nil || inst.PipVersion == "" {
		t.Fatalf("pip in the new venv: %q %v", inst.PipVersion, err)
	}
	marker := filepath.Join(root, "marker")
	os.WriteFile(marker, nil, 0o644)
	if err := Create(context.Background(), r, py, root); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("reuse recreated the venv")
	}
}

func TestCreateFailureLeavesNothing(t *testing.T) {
	root := filepath.Join(t.TempDir(), "venv")
	err := Create(context.Background(), runner.New(nil), filepath.Join(t.TempDir(), "no-python"), root)
	if err == nil {
		t.Fatal("created with a missing python")
	}
	if _, statErr := os.Stat(root); !os.IsNotExist(statErr) {
		t.Fatalf("left %s behind", root)
	}
}
