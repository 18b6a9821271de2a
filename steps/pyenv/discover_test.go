package pyenv

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/steps/testkit/pylayout"
)

func readFixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestParsePyLauncherOldFormat(t *testing.T) {
	got := ParsePyLauncher(readFixture(t, "py-0p-old.txt"))
	want := []LauncherEntry{
		{Tag: "3.11-64", Path: `C:\Users\me\AppData\Local\Programs\Python\Python311\python.exe`, Default: true},
		{Tag: "3.9-32", Path: `C:\Program Files (x86)\Python39-32\python.exe`},
	}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("got %+v", got)
	}
}

func TestParsePyLauncherNewFormat(t *testing.T) {
	got := ParsePyLauncher(readFixture(t, "py-0p-new.txt"))
	if len(got) != 3 {
		t.Fatalf("got %+v", got)
	}
	if got[0] != (LauncherEntry{Tag: "3.12", Path: `C:\Users\张三\AppData\Local\Programs\Python\Python312\python.exe`, Default: true}) {
		t.Fatalf("first = %+v", got[0])
	}
	if got[2].Tag != "ContinuumAnalytics/Anaconda39-64" || got[2].Path != `C:\Users\me\anaconda3\python.exe` || got[2].Default {
		t.Fatalf("third = %+v", got[2])
	}
}

func TestCondaPythons(t *testing.T) {
	got := CondaPythons("some warning\n"+readFixture(t, "conda-env-list.json"), "linux")
	if strings.Join(got, ",") != "/home/me/miniconda3/bin/python,/home/me/miniconda3/envs/torch/bin/python" {
		t.Fatalf("got %q", got)
	}
	win := CondaPythons(`{"envs": ["C:\\Users\\me\\miniconda3\\envs\\t"]}`, "windows")
	if len(win) != 1 || win[0] != `C:\Users\me\miniconda3\envs\t\python.exe` {
		t.Fatalf("windows: %q", win)
	}
	if CondaPythons("not json", "linux") != nil {
		t.Fatal("garbage parsed")
	}
}

func TestRegistryEntryExecutable(t *testing.T) {
	for _, c := range []struct {
		e    RegistryEntry
		want string
	}{
		{RegistryEntry{Company: "PythonCore", Tag: "3.11", InstallPath: `C:\Python311\`}, `C:\Python311\python.exe`},
		{RegistryEntry{Company: "PythonCore", Tag: "3.12", InstallPath: `C:\x`, ExecutablePath: `C:\x\py.exe`}, `C:\x\py.exe`},
		{RegistryEntry{Company: "PyLauncher", Tag: "Launcher", InstallPath: `C:\Windows`}, ""},
		{RegistryEntry{Company: "PythonCore", Tag: "3.8"}, ""},
	} {
		if got := c.e.Executable(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.e, got, c.want)
		}
	}
}

func TestClassify(t *testing.T) {
	store := `C:\Program Files\WindowsApps\PythonSoftwareFoundation.Python.3.11_3.11.2544.0_x64__qbz5n2kfra8p0\python.exe`
	for _, c := range []struct {
		path, goos string
		d          description
		want       string
	}{
		{store, "windows", description{}, "store"},
		{`C:\Users\me\AppData\Local\Programs\Python\Python311\python.exe`, "windows", description{}, "python.org"},
		{`C:\Users\me\miniconda3\python.exe`, "windows", description{Conda: true}, "conda"},
		{`C:\Users\me\.pyenv\pyenv-win\versions\3.11.7\python.exe`, "windows", description{}, "pyenv"},
		{"/root/.pyenv/versions/3.11.7/bin/python3", "linux", description{}, "pyenv"},
		{"/usr/bin/python3", "linux", description{Prefix: "/usr", BasePrefix: "/usr"}, "system"},
		{"/tmp/v/bin/python", "linux", description{Prefix: "/tmp/v", BasePrefix: "/usr"}, "venv"},
		{"/opt/odd/python", "linux", description{}, "unknown"},
	} {
		if got := classify(c.path, c.d, c.goos); got != c.want {
			t.Errorf("classify(%q) = %q, want %q", c.path, got, c.want)
		}
	}
	if !IsStorePath(store) || IsStorePath(`C:\Python311\python.exe`) {
		t.Fatal("IsStorePath")
	}
	if !isStoreAlias(`C:\Users\me\AppData\Local\Microsoft\WindowsApps\python.exe`, "windows") {
		t.Fatal("alias not recognised")
	}
}

func TestSupportWarnings(t *testing.T) {
	ok := Interpreter{Version: "3.11.7", Bits: 64, Kind: "python.org"}
	if w := SupportWarnings(ok, "3.9", "3.13"); len(w) != 0 {
		t.Fatalf("warnings for a fine Python: %q", w)
	}
	if w := SupportWarnings(Interpreter{Version: "3.14.0", Bits: 64}, "3.9", "3.13"); len(w) != 1 || !strings.Contains(w[0], "3.9 to 3.13") {
		t.Fatalf("3.14: %q", w)
	}
	if w := SupportWarnings(Interpreter{Version: "3.8.10", Bits: 64}, "3.9", ""); len(w) != 1 || !strings.Contains(w[0], "3.9 or newer") {
		t.Fatalf("3.8: %q", w)
	}
	w := SupportWarnings(Interpreter{Version: "3.11.2", Bits: 32, Kind: "store"}, "3.9", "3.13")
	if len(w) != 2 || !strings.Contains(w[0], "32-bit") || !strings.Contains(w[1], "python.org") {
		t.Fatalf("32-bit store: %q", w)
	}
}

type fakeRegistry []RegistryEntry

func (f fakeRegistry) PythonEntries() ([]RegistryEntry, error) { return f, nil }

func realPython(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	return p
}

func TestDescribeRealPython(t *testing.T) {
	in, err := Describe(context.Background(), realPython(t))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(in.Version, "3.") || in.Bits != 64 || in.Prefix == "" || in.Path == "" {
		t.Fatalf("described %+v", in)
	}
}

func TestDiscoverDedupesAndReportsSources(t *testing.T) {
	py := realPython(t)
	link := filepath.Join(t.TempDir(), "python3") // pyenv shims dispatch on their name
	if err := os.Symlink(py, link); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), "gone", "python.exe")
	o := DiscoverOptions{
		GOOS: "linux",
		Env:  func(string) string { return "" },
		LookPath: func(name string) (string, error) {
			if name == "python3" {
				return py, nil
			}
			if name == "python" {
				return link, nil // the same interpreter by another path
			}
			return "", errors.New("not found")
		},
		Registry: fakeRegistry{{Company: "PythonCore", Tag: "3.7", ExecutablePath: missing}},
	}
	found, err := Discover(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 1 || found[0].Source != "PATH" {
		t.Fatalf("found %+v", found)
	}

	o.Explicit = link
	found, err = Discover(context.Background(), o)
	if err != nil || len(found) != 1 || found[0].Source != "flag" {
		t.Fatalf("with --python: %+v %v", found, err)
	}
	o.Explicit = missing
	if _, err := Discover(context.Background(), o); err == nil || !strings.Contains(err.Error(), missing) {
		t.Fatalf("bad --python: %v", err)
	}
}

func TestDiscoverReadsConda(t *testing.T) {
	py := realPython(t)
	dir := t.TempDir()
	// a fake conda whose env list points at a directory holding a link to the real python
	env := filepath.Join(dir, "envs", "torch")
	if err := os.MkdirAll(filepath.Join(env, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(py, filepath.Join(env, "bin", "python")); err != nil {
		t.Fatal(err)
	}
	conda := filepath.Join(dir, "conda")
	script := "#!/bin/sh\nprintf '{\"envs\": [\"%s\"]}\\n' '" + env + "'\n"
	if err := os.WriteFile(conda, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	found, err := Discover(context.Background(), DiscoverOptions{
		GOOS:     "linux",
		Env:      func(k string) string { return map[string]string{"CONDA_EXE": conda}[k] },
		LookPath: func(string) (string, error) { return "", errors.New("not found") },
	})
	if err != nil || len(found) != 1 || found[0].Source != "conda" {
		t.Fatalf("found %+v, %v", found, err)
	}
}

// With a venv active, python3 on PATH is the venv's (on Linux a symlink to its base). The venv is
// listed as a venv, and its base as a separate interpreter that can create new venvs: seen on the
// H200 machine, where the only python3 on PATH was a venv's and the wizard found no Python.
func TestDiscoverFindsTheBaseOfAnActiveVenv(t *testing.T) {
	root := filepath.Join(t.TempDir(), "active venv")
	if out, err := exec.Command(realPython(t), "-m", "venv", "--without-pip", root).CombinedOutput(); err != nil {
		t.Fatalf("venv: %v\n%s", err, out)
	}
	venvPy := filepath.Join(root, "bin", "python3")
	o := DiscoverOptions{GOOS: "linux", Env: func(string) string { return "" },
		LookPath: func(name string) (string, error) {
			if name == "python3" || name == "python" {
				return venvPy, nil
			}
			return "", errors.New("not found")
		}}
	found, err := Discover(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 2 {
		t.Fatalf("want the venv and its base, found %+v", found)
	}
	if found[0].Kind != "venv" || found[0].Base == "" {
		t.Fatalf("first is the venv with its base named: %+v", found[0])
	}
	base := found[1]
	if base.Kind == "venv" || !strings.HasPrefix(base.Source, "base of the venv") || base.Version != found[0].Version {
		t.Fatalf("second is the base interpreter: %+v", base)
	}
}

// A Debian or Ubuntu Python without python3.X-venv (a real interpreter copied beside its standard
// library minus ensurepip) is found, said to be unable to make a venv, and given the apt package by
// its own minor version; on another distribution it gets no apt command.
func TestDiscoverNamesThePackageForAPythonWithoutEnsurepip(t *testing.T) {
	py := pylayout.Without(t, "ensurepip")
	if out, err := exec.Command(py, "-m", "venv", filepath.Join(t.TempDir(), "v")).CombinedOutput(); err == nil {
		t.Fatalf("the layout made a venv, so it is not a Python without ensurepip:\n%s", out)
	}
	debian := ParseOSRelease("PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nNAME=\"Debian GNU/Linux\"\nVERSION_ID=\"12\"\nID=debian\n")
	o := DiscoverOptions{GOOS: "linux", Explicit: py, Distro: &debian, Env: func(string) string { return "" },
		LookPath: func(string) (string, error) { return "", errors.New("not found") }}
	found, err := Discover(context.Background(), o)
	if err != nil || len(found) != 1 {
		t.Fatalf("found %+v, %v", found, err)
	}
	in := found[0]
	if strings.Join(in.VenvMissing, ",") != "ensurepip" {
		t.Fatalf("venv_missing = %q, want ensurepip: %+v", in.VenvMissing, in)
	}
	pkg := "python" + in.MinorVersion() + "-venv"
	warn := strings.Join(in.Warnings, "\n")
	if !in.debianLayout {
		// A Python that is not Debian's own (pyenv's, python.org's) gets no apt advice.
		if in.VenvFix != nil || !strings.Contains(warn, "ensurepip module is missing") || strings.Contains(warn, "apt") {
			t.Fatalf("non-Debian layout: %+v", in)
		}
		t.Skip("the only Python here that could be laid out is not Debian's: checked the generic advice only")
	}
	if in.VenvFix == nil || in.VenvFix.Manager != "apt" || strings.Join(in.VenvFix.Packages, " ") != pkg ||
		!strings.HasSuffix(in.VenvFix.Command, "apt install "+pkg) {
		t.Fatalf("venv_fix = %+v, want apt install %s", in.VenvFix, pkg)
	}
	if !strings.Contains(warn, "cannot create a venv") || !strings.Contains(warn, "`"+in.VenvFix.Command+"`") {
		t.Fatalf("warning does not name the command: %q", warn)
	}

	arch := ParseOSRelease("ID=arch\n")
	o.Distro = &arch
	found, _ = Discover(context.Background(), o)
	if len(found) != 1 || len(found[0].VenvMissing) != 1 || found[0].VenvFix != nil || strings.Contains(strings.Join(found[0].Warnings, ""), "apt") {
		t.Fatalf("on Arch a Python outside /usr/bin gets no package: %+v", found)
	}

	// The machine's own python3 has both modules.
	found, _ = Discover(context.Background(), DiscoverOptions{GOOS: "linux", Explicit: realPython(t), Distro: &debian,
		Env: func(string) string { return "" }, LookPath: func(string) (string, error) { return "", errors.New("no") }})
	if len(found) != 1 || len(found[0].VenvMissing) != 0 || found[0].VenvFix != nil {
		t.Fatalf("a complete Python: %+v", found)
	}
}

// Conda envs are found without conda on PATH: from ~/.conda/environments.txt and the usual
// Miniconda folder with its envs/, each described as conda.
func TestDiscoverFindsCondaEnvsInTheUsualFolders(t *testing.T) {
	home := t.TempDir()
	base, _ := pylayout.CondaPrefix(t, false)
	mini := filepath.Join(home, "miniconda3")
	if err := os.Rename(base, mini); err != nil {
		t.Fatal(err)
	}
	// The copied interpreter finds its library from where it now is; an env listed only in
	// environments.txt lives elsewhere.
	other, _ := pylayout.CondaPrefix(t, false)
	if err := os.MkdirAll(filepath.Join(home, ".conda"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".conda", "environments.txt"), []byte(other+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	found, err := Discover(context.Background(), DiscoverOptions{GOOS: "linux",
		Env:      func(k string) string { return map[string]string{"HOME": home}[k] },
		LookPath: func(string) (string, error) { return "", errors.New("not found") }})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Interpreter{}
	for _, in := range found {
		got[in.Prefix] = in
	}
	for _, root := range []string{mini, other} {
		in, ok := got[root]
		if !ok || in.Kind != "conda" || in.Source != "conda" {
			t.Errorf("conda env %s: %+v (found %+v)", root, in, found)
		}
	}
	if v := (Venv{Root: mini}); !v.IsConda() || v.Python() != filepath.Join(mini, "bin", "python") || !strings.Contains(v.ActivateHints()[0], "conda activate") {
		t.Errorf("Venv on a conda env: conda %v python %s hints %q", v.IsConda(), v.Python(), v.ActivateHints())
	}
}

func TestCondaConflictWarnings(t *testing.T) {
	root := t.TempDir()
	meta := filepath.Join(root, "conda-meta")
	if err := os.MkdirAll(meta, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, doc := range map[string]string{
		"pytorch-2.1.0-py3.11_cuda11.8_0.json": `{"name": "pytorch", "version": "2.1.0"}`,
		"cudatoolkit-11.8.0-h0.json":           `{"name": "cudatoolkit", "version": "11.8.0"}`,
		"numpy-1.26.0-h0.json":                 `{"name": "numpy", "version": "1.26.0"}`,
		"history":                              "==> 2025 <==\n",
	} {
		if err := os.WriteFile(filepath.Join(meta, name), []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w := CondaConflictWarnings(root, "torch")
	if len(w) != 2 || !strings.Contains(w[0], "conda manages cudatoolkit 11.8.0") || !strings.Contains(w[1], "conda manages pytorch 2.1.0") || !strings.Contains(w[1], "behind conda's back") {
		t.Fatalf("torch: %q", w)
	}
	if w := CondaConflictWarnings(root, "paddle"); len(w) != 1 || !strings.Contains(w[0], "cudatoolkit") {
		t.Fatalf("paddle: %q", w)
	}
}
