package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"gpuwiz/steps/app"
	"gpuwiz/steps/install"
	"gpuwiz/steps/keep"
	"gpuwiz/steps/shellquote"
	"gpuwiz/steps/testkit/pyindex"
)

// A venv gpuwiz installed, a file of torch deleted, and another Python's pip first on PATH with no
// environment active (gpuwiz runs outside the venv, as it usually does): doctor --fix puts the file
// back and ends ✓ with exit 0, the foreign pip listed under it as context; the list of venvs says
// repaired, and plain doctor on the healthy venv exits 0.
func TestDoctorFixWithAForeignPipOnPathEndsRepaired(t *testing.T) {
	useConfigDir(t)
	g := newRepairRig(t)
	ix := cliIndex(t)
	g.installFromMirror(t, ix.ChannelURL("cu126"))
	other := pyindex.NewVenv(t, filepath.Join(g.dir, "other"))
	t.Setenv("PATH", other.BinDir()+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("VIRTUAL_ENV", "")
	t.Setenv("CONDA_PREFIX", "")

	out, stderr, code := g.cli(t, "doctor", "--venv", g.venv, "--fix", "--yes")
	after := out[strings.LastIndex(out, "gpuwiz doctor: "):]
	if code != 0 || !strings.Contains(after, "\n✓ Repaired: the check afterwards finds nothing that blocks or threatens the build.\n") ||
		!strings.Contains(after, "  for your information: `pip` on PATH installs into another Python\n") || strings.Contains(out, "✗") {
		t.Fatalf("doctor --fix: exit %d, want 0 and ✓ with the foreign pip as context\n%s\nstderr: %s", code, out, stderr)
	}
	if !strings.Contains(after, "No problems found.\n") || !strings.Contains(after, other.Root) {
		t.Errorf("the check afterwards should say no problems and name the other pip as context:\n%s", after)
	}
	known := knownVenvs(t)
	if len(known) != 1 || known[0].Known == nil || known[0].Known.Result != "repaired" || !known[0].Known.OK {
		t.Fatalf("gpuwiz venvs after the repair: %+v", known)
	}
	out, stderr, code = g.cli(t, "doctor", "--venv", g.venv)
	if code != 0 || !strings.Contains(out, "For your information (nothing to fix for this environment):") {
		t.Fatalf("plain doctor on the healthy venv: exit %d, want 0\n%s\nstderr: %s", code, out, stderr)
	}
}

// doctor without --venv checks the active environment (VIRTUAL_ENV, else CONDA_PREFIX); with none
// active it checks nothing, lists the environments gpuwiz knows with the command for each, and exits 2.
func TestDoctorTakesTheActiveEnvironment(t *testing.T) {
	useConfigDir(t)
	g := newRepairRig(t)
	t.Setenv("VIRTUAL_ENV", "")
	t.Setenv("CONDA_PREFIX", "")
	out, stderr, code := g.cli(t, "doctor")
	if code != ExitUsage || !strings.Contains(stderr, "No environment is active") || !strings.Contains(stderr, "gpuwiz knows no environment on this machine yet.") || out != "" {
		t.Fatalf("no environment active, none known: exit %d\nstdout: %s\nstderr: %s", code, out, stderr)
	}

	v := pyindex.NewVenv(t, filepath.Join(g.dir, "my venv"))
	if err := app.RecordVenv(t.Context(), v.Root, app.ActionCreate, app.Created, true, nil); err != nil {
		t.Fatal(err)
	}
	out, stderr, code = g.cli(t, "doctor", "--json")
	want := "gpuwiz doctor --venv " + shellquote.Posix(v.Root)
	if code != ExitUsage || !strings.Contains(stderr, "The environments gpuwiz knows") || !strings.Contains(stderr, "\n  "+want+"\n") || !strings.Contains(out, `"exit_code": 2`) {
		t.Fatalf("no environment active: exit %d, want %d and %q listed\nstdout: %s\nstderr: %s", code, ExitUsage, want, out, stderr)
	}

	for _, k := range []string{"VIRTUAL_ENV", "CONDA_PREFIX"} {
		t.Run(k, func(t *testing.T) {
			root := v.Root
			if k == "CONDA_PREFIX" { // a conda env: conda-meta/ and its own python
				root = filepath.Join(g.dir, "conda env")
				must(t, os.MkdirAll(filepath.Join(root, "conda-meta"), 0o755))
				must(t, os.MkdirAll(filepath.Join(root, "bin"), 0o755))
				must(t, os.Symlink(v.Python(), filepath.Join(root, "bin", "python")))
			}
			t.Setenv(k, root)
			out, stderr, code := g.cli(t, "doctor", "--json")
			var rep struct{ Venv string }
			if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.Venv != root {
				t.Fatalf("%s=%s: exit %d, the report is of %q (%v)\n%s\nstderr: %s", k, root, code, rep.Venv, err, out, stderr)
			}
		})
	}
}

// An install whose build fails verification (the GPU's answers are wrong) is not protected: gpuwiz's
// lines from an earlier build leave the venv's pip configuration, and the summary says what to do
// instead of claiming the venv keeps the build.
func TestInstallThatFailsVerifyIsNotKept(t *testing.T) {
	useConfigDir(t)
	dir := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	t.Setenv("HOME", dir)
	t.Setenv("GPUWIZ_VERIFY_MATRIX_N", "8")
	isolatePip(t)
	spec := pyindex.StubSpec{Version: "2.6.0+cu126", CUDA: "12.6", CudaAvailable: true, CuDNN: 90100, ArchList: []string{"sm_80", "sm_90"}, WrongResult: true}
	ix := pyindex.Serve(t, map[string][]string{"cu126": pyindex.TorchFamily(t, filepath.Join(dir, "wheels"), spec, 0)})

	// The venv was protected by an earlier install.
	v := pyindex.NewVenv(t, filepath.Join(dir, "my venv"))
	must(t, os.WriteFile(filepath.Join(v.Root, "constraints.txt"), []byte("torch==2.5.1+cu124\n"), 0o644))
	if _, err := keep.Protect(v.Root, filepath.Join(v.Root, "constraints.txt"), runtime.GOOS); err != nil {
		t.Fatal(err)
	}

	out, stderr, code := runCLI(t, withRig(t, "install", "--framework", "torch", "--framework-version", "2.6.0", "--channel", "cu126",
		"--venv", v.Root, "--python", pyindex.Python(t), "--index-url", ix.ChannelURL("cu126"), "--no-pip-upgrade", "--yes")...)
	if code != ExitVerifyFailed {
		t.Fatalf("exit %d, want %d\n%s\nstderr: %s", code, ExitVerifyFailed, out, stderr)
	}
	if strings.Contains(out, "keeps the build by itself") || !strings.Contains(out, "This build failed verification, so gpuwiz did not set the venv to keep it") ||
		!strings.Contains(out, "gpuwiz doctor --venv "+shellquote.Posix(v.Root)) {
		t.Errorf("the summary should say the venv does not keep the failed build, and what to do:\n%s", out)
	}
	if st := keep.Read(v.Root, runtime.GOOS); st.Protected {
		t.Errorf("the venv still names constraints for the failed build: %+v", st)
	}
	if c, _ := os.ReadFile(filepath.Join(v.Root, "constraints.txt")); !strings.Contains(string(c), "torch==2.6.0+cu126") || strings.Contains(string(c), "keeps the build") {
		t.Errorf("constraints.txt should pin the installed build without claiming it is kept:\n%s", c)
	}
}

// install --dry-run of a channel change: the summary names the builds with their local labels (what
// goes, what comes), and shows no pip uninstall or pip install command for the steps gpuwiz's own
// uninstaller and installer do; GPUWIZ_INSTALLER=pip shows them again, as pip then runs them.
func TestChannelChangeDryRunShowsLabelsAndWhatRuns(t *testing.T) {
	useConfigDir(t)
	dir := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	t.Setenv("HOME", dir)
	t.Setenv("GPUWIZ_VERIFY_MATRIX_N", "8")
	isolatePip(t)
	family := func(channel, cuda string) []string {
		return pyindex.TorchFamily(t, filepath.Join(dir, "wheels", channel), pyindex.StubSpec{Version: "2.6.0+" + channel, CUDA: cuda,
			CudaAvailable: true, CuDNN: 90100, ArchList: []string{"sm_80", "sm_90"}}, 0)
	}
	ix := pyindex.Serve(t, map[string][]string{"cu126": family("cu126", "12.6"), "cu118": family("cu118", "11.8")})
	venv := filepath.Join(dir, "my venv")
	install := func(channel string, extra ...string) (string, string, int) {
		return runCLI(t, withRig(t, append([]string{"install", "--framework", "torch", "--framework-version", "2.6.0", "--channel", channel,
			"--venv", venv, "--python", pyindex.Python(t), "--index-url", ix.ChannelURL(channel), "--no-pip-upgrade", "--yes"}, extra...)...)...)
	}
	if out, stderr, code := install("cu126"); code != 0 {
		t.Fatalf("install cu126: exit %d\n%s\n%s", code, out, stderr)
	}
	out, stderr, code := install("cu118", "--dry-run")
	if code != 0 {
		t.Fatalf("dry run: exit %d\n%s\n%s", code, out, stderr)
	}
	for _, want := range []string{
		"uninstall: torch==2.6.0+cu126 torchaudio==2.6.0+cu126 torchvision==0.21.0+cu126\n",
		"install: torch==2.6.0+cu118 torchvision==0.21.0+cu118 torchaudio==2.6.0+cu118\n",
		"gpuwiz itself removes the old packages",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the plan lacks %q:\n%s", want, out)
		}
	}
	// The closing tip says how the venv keeps the build (its own pip configuration names the
	// constraints once the build passes), not the -c way of keeping it by hand.
	if tip := strings.Join(strings.Fields(out), " "); !strings.Contains(tip, keep.ConfigFile(venv, runtime.GOOS)+" names "+filepath.Join(venv, "constraints.txt")) ||
		strings.Contains(tip, "requirements.txt -c") {
		t.Errorf("the plan's closing tip should say the venv's pip configuration keeps the build:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, " -m pip uninstall ") || strings.Contains(l, " -m pip install ") {
			t.Errorf("the plan shows a pip command gpuwiz's own installer replaces: %q\n%s", l, out)
		}
	}
	t.Setenv("GPUWIZ_INSTALLER", "pip")
	out, _, _ = install("cu118", "--dry-run")
	if !strings.Contains(out, " -m pip uninstall --no-input --disable-pip-version-check -y torch torchaudio torchvision") || !strings.Contains(out, " -m pip install ") ||
		strings.Contains(out, "gpuwiz itself removes") {
		t.Errorf("with GPUWIZ_INSTALLER=pip the plan should show pip's commands:\n%s", out)
	}
}

// --cache-dir's help names the real default folder, not a root-looking "/gpuwiz/wheels".
func TestCacheDirHelpNamesTheDefaultFolder(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "xdg cache")
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv(install.CacheDirEnv, "")
	wheels := filepath.Join(cache, "gpuwiz", "wheels")
	for _, c := range []string{"install", "add", "doctor"} {
		out, _, code := runCLI(t, c, "--help")
		if code != 0 || !strings.Contains(strings.Join(strings.Fields(out), " "), "(default: "+wheels+")") {
			t.Errorf("%s --help: exit %d, --cache-dir should name %s:\n%s", c, code, wheels, out)
		}
	}
	out, _, _ := runCLI(t, "install", "--help")
	if !strings.Contains(strings.Join(strings.Fields(out), " "), "(default: a new file in "+filepath.Join(cache, "gpuwiz", "logs")+")") {
		t.Errorf("install --help: --log should name the logs folder:\n%s", out)
	}
}
