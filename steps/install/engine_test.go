package install

import (
	"context"
	"errors"
	"gpuwiz/steps/envroot"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gpuwiz/matrix"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/testkit/pyindex"
)

// One venv at a path with a space, &, ; and Chinese: created by the install, reinstalled from the
// cache with zero bytes fetched, then switched from cu126 to cu118.
func TestFreshInstallReinstallAndChannelSwitch(t *testing.T) {
	ix := serve(t)
	cache := filepath.Join(t.TempDir(), "cache")
	v := pyenv.Venv{Root: filepath.Join(t.TempDir(), "my env & co; 张三", "venv")}
	ctx := context.Background()

	plan, out, events := install(t, ctx, options(t, v, torchTarget(ix, "cu126"), cache), nil)
	if out.Result != ResultInstalled || out.Err != nil || !out.OK() {
		t.Fatalf("fresh install: %+v (verify %+v)", out, out.Verify)
	}
	if !plan.NewVenv || !v.Exists() {
		t.Fatalf("the venv was not created at %s", v.Root)
	}
	f := freeze(t, v)
	for _, want := range []string{"torch==2.6.0+cu126", "torchvision==0.21.0+cu126", "torchaudio==2.6.0+cu126", "gpuwiz-dep==1.0"} {
		if !strings.Contains(f, want) {
			t.Errorf("freeze lacks %s:\n%s", want, f)
		}
	}
	if out.BytesDownloaded < 24<<20 || ix.BytesServed() < 24<<20 {
		t.Errorf("fresh install downloaded %d bytes (server %d)", out.BytesDownloaded, ix.BytesServed())
	}
	cons, _ := os.ReadFile(out.ConstraintsFile)
	lock, _ := os.ReadFile(out.LockFile)
	if !strings.Contains(string(cons), "\ntorch==2.6.0+cu126\n") || !strings.Contains(string(cons), "-c ") || !strings.Contains(string(lock), "torch==2.6.0+cu126") {
		t.Errorf("constraints:\n%s\nlock:\n%s", cons, lock)
	}
	if !hasState(events, StepInstall, StateDone) || !hasState(events, StepVerify, StateDone) {
		t.Errorf("events lack install/verify done: %+v", events)
	}
	// The offline try's expected miss is no pip ERROR on the screen; one plain line says what follows.
	for _, e := range events {
		if strings.Contains(e.Line, "ERROR") {
			t.Errorf("a first install shows pip's error of the expected cache miss: %q", e.Line)
		}
	}
	if !slices.ContainsFunc(events, func(e Event) bool { return strings.Contains(e.Line, "does not hold the whole build yet") }) {
		t.Errorf("no line says the download follows the cache miss")
	}

	served := ix.BytesServed()
	_, out, events = install(t, ctx, options(t, v, torchTarget(ix, "cu126"), cache), nil)
	if out.Result != ResultInstalled || !out.OK() {
		t.Fatalf("reinstall: %+v", out)
	}
	if ix.BytesServed() != served || out.BytesDownloaded != 0 || ix.TotalRequests() != 4 {
		t.Errorf("reinstall fetched %d wheel bytes (outcome %d, %d wheel requests in all)", ix.BytesServed()-served, out.BytesDownloaded, ix.TotalRequests())
	}
	if !hasMessage(events, StepStage, "already in the cache") {
		t.Errorf("stage did not report the cache hit: %+v", events)
	}
	// The download step's ✓ says what it did: nothing came from the index.
	if !slices.ContainsFunc(events, func(e Event) bool {
		return e.StepID == StepStage && e.State == StateDone && strings.Contains(e.Did, "taken from the wheel cache")
	}) {
		t.Errorf("the cached stage step ended as a download: %+v", events)
	}

	plan, out, events = install(t, ctx, options(t, v, torchTarget(ix, "cu118"), cache), nil)
	if strings.Join(plan.Uninstall, " ") != "torch torchaudio torchvision" {
		t.Errorf("switch uninstalls %v", plan.Uninstall)
	}
	// gpuwiz's installer removed the old build itself, from RECORD, not pip uninstall.
	if !slices.ContainsFunc(events, func(e Event) bool {
		return e.StepID == StepUninstall && strings.Contains(e.Line, "gpuwiz removed torch, torchaudio, torchvision as pip uninstall does")
	}) {
		t.Errorf("the uninstall step did not say gpuwiz removed the old build: %+v", events)
	}
	if old, _ := filepath.Glob(filepath.Join(v.Root, "lib", "python3*", "site-packages", "*cu126*")); len(old) > 0 {
		t.Errorf("left of the cu126 build: %v", old)
	}
	if out.Result != ResultInstalled || !out.OK() {
		t.Fatalf("switch: %+v %+v", out, out.Verify)
	}
	f = freeze(t, v)
	if !strings.Contains(f, "torch==2.6.0+cu118") || strings.Contains(f, "cu126") {
		t.Errorf("after the switch:\n%s", f)
	}
	if got := importVersion(t, v, "torch"); got != "2.6.0+cu118" {
		t.Errorf("import torch: %s", got)
	}
}

func hasState(evs []Event, step, state string) bool {
	for _, e := range evs {
		if e.StepID == step && e.State == state {
			return true
		}
	}
	return false
}

func hasMessage(evs []Event, step, sub string) bool {
	for _, e := range evs {
		if e.StepID == step && strings.Contains(e.Message, sub) {
			return true
		}
	}
	return false
}

// userVenv is a venv holding torch cu118 installed by hand.
func userVenv(t *testing.T) pyenv.Venv {
	v := pyindex.NewVenv(t, "")
	pipInstall(t, v, "--no-index", "--find-links", filepath.Dir(buildWheels(t)["cu118"][0]), "torch==2.6.0+cu118", "torchvision==0.21.0+cu118")
	return v
}

func TestIndexDownBeforeUninstallLeavesTheVenvAsItWas(t *testing.T) {
	ix := serve(t)
	v := userVenv(t)
	before := freeze(t, v)
	ix.Down()
	o := options(t, v, torchTarget(ix, "cu126"), t.TempDir())
	o.Environ = append(o.Environ, "PIP_RETRIES=0") // the user's own setting survives: no 503 retries
	_, out, _ := install(t, context.Background(), o, nil)
	if out.Result != ResultUnchanged || out.Err == nil || out.FailedStep != StepStage || out.Restored {
		t.Fatalf("want unchanged after a failed stage, got %+v", out)
	}
	if after := freeze(t, v); after != before {
		t.Fatalf("pip freeze changed:\nbefore\n%s\nafter\n%s", before, after)
	}
}

// The install step is killed while it writes the padded torch wheel: the old cu118 set comes back,
// whether gpuwiz's installer or pip (GPUWIZ_INSTALLER=pip) is writing.
func TestKilledInstallRestoresTheOldSet(t *testing.T) {
	for _, installer := range []string{"gpuwiz", "pip"} {
		t.Run(installer, func(t *testing.T) {
			t.Setenv(InstallerEnv, installer)
			ix := serve(t)
			v := userVenv(t)
			before := freeze(t, v)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			_, out, events := install(t, ctx, options(t, v, torchTarget(ix, "cu126"), t.TempDir()), func(ev Event) {
				if writing(ev) {
					cancel()
				}
			})
			if out.Result != ResultRestored || !out.Restored || out.FailedStep != StepInstall ||
				!errors.Is(out.Err, context.Canceled) || out.Error != "you cancelled while it was trying to install the new build" {
				t.Fatalf("want restored after the kill, got %+v", out)
			}
			if !hasState(events, StepUninstall, StateDone) || !hasState(events, "restore", StateDone) {
				t.Fatalf("the uninstall must have run before the kill: %+v", events)
			}
			if after := freeze(t, v); after != before {
				t.Fatalf("pip freeze differs:\nbefore\n%s\nafter\n%s", before, after)
			}
			if got := importVersion(t, v, "torch"); got != "2.6.0+cu118" {
				t.Fatalf("import torch after restore: %s", got)
			}
		})
	}
}

// The uninstall step cannot remove a file (on Windows, a DLL a running Python has loaded): it
// fails after removing the rest, says what to do, and the old set comes back from the backup.
func TestFailedUninstallStepPutsTheOldSetBack(t *testing.T) {
	ix := serve(t)
	v := userVenv(t)
	before := freeze(t, v)
	was := uninstallDist
	defer func() { uninstallDist = was }()
	uninstallDist = func(dir string, roots envroot.Roots) ([]string, []string, error) {
		removed, outside, err := was(dir, roots) // every file goes, as far as Windows lets it
		if err == nil && strings.Contains(filepath.Base(dir), "torchvision") {
			err = &fs.PathError{Op: "remove", Path: filepath.Join(filepath.Dir(dir), "torchvision", "_C.pyd"), Err: fs.ErrPermission}
		}
		return removed, outside, err
	}
	_, out, _ := install(t, context.Background(), options(t, v, torchTarget(ix, "cu126"), t.TempDir()), nil)
	if out.Result != ResultRestored || !out.Restored || out.FailedStep != StepUninstall || !strings.Contains(out.Error, "close it and run gpuwiz again") {
		t.Fatalf("want the old set restored after the failed uninstall, got %+v", out)
	}
	if after := freeze(t, v); after != before {
		t.Fatalf("pip freeze differs:\nbefore\n%s\nafter\n%s", before, after)
	}
	if got := importVersion(t, v, "torch"); got != "2.6.0+cu118" {
		t.Fatalf("import torch after restore: %s", got)
	}
}

// writing says whether ev is the install step starting to write files: pip's "Installing collected
// packages", or gpuwiz's installer's first line.
func writing(ev Event) bool {
	return ev.StepID == StepInstall && (strings.Contains(ev.Line, "Installing collected packages") || strings.Contains(ev.Line, "gpuwiz installs "))
}

// Both Paddle dists in one venv (the CPU one shadowing the GPU one): both go, the orphan paddle/
// dir goes, and paddlepaddle-gpu comes from the official index while the mirror serves only its
// dependency, even though the mirror has a paddlepaddle-gpu of the same version.
func TestPaddleRepairWithMirror(t *testing.T) {
	ix := serve(t)
	v := pyindex.NewVenv(t, "")
	dir := filepath.Dir(buildWheels(t)["paddle-cu126"][0])
	pipInstall(t, v, "--no-index", "--find-links", dir, "--no-deps", "paddlepaddle-gpu==3.0.0")
	pipInstall(t, v, "--no-index", "--find-links", dir, "paddlepaddle==3.0.0")
	o := options(t, v, Target{Framework: "paddle", FrameworkVersion: "3.0.0", Channel: "cu126", IndexURL: ix.ChannelURL("paddle-cu126"),
		Packages: []matrix.Package{{Name: "paddlepaddle-gpu", Version: "3.0.0"}}}, t.TempDir())
	o.Mirror = ix.ChannelURL("mirror")
	plan, out, _ := install(t, context.Background(), o, nil)
	if strings.Join(plan.Uninstall, " ") != "paddlepaddle paddlepaddle-gpu" {
		t.Errorf("uninstall %v", plan.Uninstall)
	}
	if out.Result != ResultInstalled || !out.OK() {
		t.Fatalf("paddle repair: %+v %+v", out, out.Verify)
	}
	f := freeze(t, v)
	if !strings.Contains(f, "paddlepaddle-gpu==3.0.0") || strings.Contains(f, "paddlepaddle==") || !strings.Contains(f, "gpuwiz-dep==1.0") {
		t.Errorf("freeze:\n%s", f)
	}
	if n := ix.Requests(pyindex.WheelName("paddlepaddle-gpu", "3.0.0")); n != 1 {
		t.Errorf("paddlepaddle-gpu fetched %d times in all (official once, mirror never)", n)
	}
	for _, s := range plan.Steps {
		if s.ID == StepStage && !strings.Contains(strings.Join(s.Argv, " "), "--no-deps --index-url "+ix.ChannelURL("paddle-cu126")) {
			t.Errorf("paddlepaddle-gpu must be staged alone from the official index: %v", s.Argv)
		}
	}
}

func TestBadVenvPathsCreateNothing(t *testing.T) {
	ix := serve(t)
	file := filepath.Join(t.TempDir(), "a-file")
	_ = os.WriteFile(file, []byte("x"), 0o644)
	for _, root := range []string{file, filepath.Join(file, "venv"), "/proc/gpuwiz-venv"} {
		o := options(t, pyenv.Venv{Root: root}, torchTarget(ix, "cu126"), t.TempDir())
		_, err := Prepare(context.Background(), nil, o)
		if err == nil || !strings.Contains(err.Error(), ErrBadInput.Error()) {
			t.Errorf("%s: want a bad-input error, got %v", root, err)
		}
	}
	if b, _ := os.ReadFile(file); string(b) != "x" {
		t.Error("the file was changed")
	}
	if _, err := os.Stat("/proc/gpuwiz-venv"); err == nil {
		t.Error("created under /proc")
	}
}

// A new venv whose index cannot be reached: the run fails before anything is installed, removes the
// venv it had created (before it there was none), and says pip could not reach the index.
func TestUnreachableIndexLeavesNoNewVenvBehind(t *testing.T) {
	ix := serve(t)
	target := torchTarget(ix, "cu126")
	ix.Close() // nothing listens on the port any more: connection refused
	v := pyenv.Venv{Root: filepath.Join(t.TempDir(), "new venv")}
	o := options(t, v, target, t.TempDir())
	o.Environ = append(o.Environ, "PIP_RETRIES=0")
	plan, out, events := install(t, context.Background(), o, nil)
	if !plan.NewVenv || out.Result != ResultUnchanged || out.FailedStep != StepStage || !out.VenvRemoved {
		t.Fatalf("want an unchanged failure at the stage that removed the new venv, got %+v", out)
	}
	if _, err := os.Stat(v.Root); !os.IsNotExist(err) {
		t.Fatalf("the venv the run created is still there (%v)", err)
	}
	if !strings.Contains(out.Error, "pip could not reach the package index") ||
		!strings.Contains(out.Error, "HTTPS_PROXY") {
		t.Fatalf("the error does not say the index was unreachable and what to do: %s", out.Error)
	}
	if !hasMessage(events, StepStage, "removed the venv this run had created") {
		t.Fatal("no event says the new venv was removed")
	}
}

// An existing venv is never removed, whatever fails.
func TestUnreachableIndexKeepsAnExistingVenv(t *testing.T) {
	ix := serve(t)
	target := torchTarget(ix, "cu126")
	ix.Close()
	v := userVenv(t)
	before := freeze(t, v)
	o := options(t, v, target, t.TempDir())
	o.Environ = append(o.Environ, "PIP_RETRIES=0")
	_, out, _ := install(t, context.Background(), o, nil)
	if out.Result != ResultUnchanged || out.VenvRemoved || !v.Exists() {
		t.Fatalf("want the existing venv kept unchanged, got %+v (exists %v)", out, v.Exists())
	}
	if after := freeze(t, v); after != before {
		t.Fatalf("pip freeze changed:\nbefore\n%s\nafter\n%s", before, after)
	}
}

// pip's own words for an unreachable index (recorded: DNS failure on Linux, getaddrinfo on Windows,
// an intercepting proxy) become one plain cause; other failures get no network note.
func TestNetworkNoteNamesTheCause(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{`WARNING: Retrying (Retry(total=0, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7fc3d475fd50>: Failed to establish a new connection: [Errno -2] Name or service not known')': /whl/cu130/torch/`, "host name does not resolve"},
		{`WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x000001C2>: Failed to establish a new connection: [Errno 11001] getaddrinfo failed')': /whl/cu126/torch/`, "host name does not resolve"},
		{`Could not fetch URL https://download.pytorch.org/whl/cu126/torch/: There was a problem confirming the ssl certificate: HTTPSConnectionPool(host='download.pytorch.org', port=443): Max retries exceeded with url: /whl/cu126/torch/ (Caused by SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: self-signed certificate in certificate chain (_ssl.c:1006)')))`, "TLS certificate did not verify"},
		{`ERROR: No matching distribution found for torch==2.6.0+cu126`, ""},
	} {
		got := networkNote([]string{"Looking in indexes: https://download.pytorch.org/whl/cu126", c.line})
		if c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Errorf("networkNote(%.60q) = %q, want %q", c.line, got, c.want)
		}
	}
}

// "As it was" includes the folders around the venv: parents the run made are removed with it, and an
// empty folder the user chose stays, empty.
func TestUnreachableIndexLeavesTheFoldersAsTheyWere(t *testing.T) {
	ix := serve(t)
	target := torchTarget(ix, "cu126")
	ix.Close()
	t.Run("missing parents", func(t *testing.T) {
		base := t.TempDir()
		v := pyenv.Venv{Root: filepath.Join(base, "projects", "gpu", "venv")}
		o := options(t, v, target, t.TempDir())
		o.Environ = append(o.Environ, "PIP_RETRIES=0")
		_, out, _ := install(t, context.Background(), o, nil)
		if out.Result != ResultUnchanged || !out.VenvRemoved {
			t.Fatalf("%+v", out)
		}
		if _, err := os.Stat(filepath.Join(base, "projects")); !os.IsNotExist(err) {
			t.Fatalf("the parent folders the run made are still there (%v)", err)
		}
	})
	t.Run("existing empty folder", func(t *testing.T) {
		v := pyenv.Venv{Root: filepath.Join(t.TempDir(), "chosen")}
		if err := os.Mkdir(v.Root, 0o755); err != nil {
			t.Fatal(err)
		}
		o := options(t, v, target, t.TempDir())
		o.Environ = append(o.Environ, "PIP_RETRIES=0")
		_, out, _ := install(t, context.Background(), o, nil)
		entries, err := os.ReadDir(v.Root)
		if out.Result != ResultUnchanged || !out.VenvRemoved || err != nil || len(entries) != 0 {
			t.Fatalf("want the folder kept and empty: %+v, entries %v, err %v", out, entries, err)
		}
	})
}

// The install step takes the stage's own choice of wheels: no second resolve over the stage folder
// (pip's dry run there hashes every wheel), and gpuwiz's installer writes them, whether the stage
// downloaded them or took them all from the wheel cache (the offline try's own lines).
func TestInstallStepTakesTheStagesChoice(t *testing.T) {
	ix := serve(t)
	cache := t.TempDir()
	for _, run := range []string{"downloaded", "from the cache"} {
		v := pyindex.NewVenv(t, "")
		o := options(t, v, torchTarget(ix, "cu126"), cache)
		_, out, _ := install(t, context.Background(), o, nil)
		if !out.OK() || out.Installer != "gpuwiz" {
			t.Fatalf("%s: install: %+v", run, out)
		}
		if run == "from the cache" && out.Source != "cache" {
			t.Fatalf("the second install should come from the cache: %+v", out)
		}
		if _, ok := out.InstallerSeconds["write"]; !ok || len(out.InstallerSeconds) != 6 {
			t.Fatalf("%s: the installer's parts are not reported: %v", run, out.InstallerSeconds)
		}
		log, err := os.ReadFile(o.LogPath)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(log), ".gpuwiz-install-report.json") {
			t.Fatalf("%s: the install step resolved again with pip:\n%s", run, log)
		}
		// The venv's install paths were asked while the wheels came (not logged), not in the install step.
		if regexp.MustCompile(`(?m)^\$ .* paths$`).Match(log) {
			t.Fatalf("%s: the install step asked the venv's paths itself:\n%s", run, log)
		}
		if got := importVersion(t, v, "torch"); got != "2.6.0+cu126" {
			t.Fatalf("%s: torch: %s", run, got)
		}
	}
}

// A reinstall keeps the bytecode Python wrote for the modules it writes unchanged: the verify step's
// import after a repair need not compile them again. A module whose source changes (a switch to
// another channel) does not get its old bytecode back.
func TestReinstallKeepsTheBytecodeOfUnchangedModules(t *testing.T) {
	ix := serve(t)
	cache := filepath.Join(t.TempDir(), "cache")
	v := pyenv.Venv{Root: filepath.Join(t.TempDir(), "venv")}
	ctx := context.Background()
	if _, out, _ := install(t, ctx, options(t, v, torchTarget(ix, "cu126"), cache), nil); !out.OK() {
		t.Fatalf("fresh install: %+v", out)
	}
	// The verify step imported torch: Python wrote the bytecode of torch/__init__.py and _tensor.py.
	pycs := func() map[string]os.FileInfo {
		got := map[string]os.FileInfo{}
		files, _ := filepath.Glob(filepath.Join(v.Root, "lib", "python3*", "site-packages", "torch", "__pycache__", "*.pyc"))
		for _, f := range files {
			if st, err := os.Stat(f); err == nil {
				got[strings.SplitN(filepath.Base(f), ".", 2)[0]] = st
			}
		}
		return got
	}
	before := pycs()
	if before["__init__"] == nil || before["_tensor"] == nil {
		t.Fatalf("no bytecode after the first import: %v", before)
	}
	putBack := regexp.MustCompile(`(?m)^# bytecode of ([0-9]+) unchanged modules put back, of ([0-9]+) set aside`)

	o := options(t, v, torchTarget(ix, "cu126"), cache)
	if _, out, events := install(t, ctx, o, nil); !out.OK() || !hasState(events, StepUninstall, StateDone) {
		t.Fatalf("reinstall: %+v", out)
	}
	log, _ := os.ReadFile(o.LogPath)
	m := putBack.FindSubmatch(log)
	if m == nil || string(m[1]) != string(m[2]) || string(m[1]) == "0" {
		t.Fatalf("the reinstall of the same build did not put every module's bytecode back: %q\n%s", m, log)
	}
	// The very files: Python found them matching their sources and wrote none anew.
	after := pycs()
	for _, mod := range []string{"__init__", "_tensor"} {
		if after[mod] == nil || !os.SameFile(before[mod], after[mod]) {
			t.Errorf("torch/%s.py's bytecode was compiled again after the reinstall", mod)
		}
	}

	// torch/__init__.py differs between the channels (its version), _tensor.py does not.
	o = options(t, v, torchTarget(ix, "cu118"), cache)
	if _, out, _ := install(t, ctx, o, nil); !out.OK() {
		t.Fatalf("switch: %+v", out)
	}
	log, _ = os.ReadFile(o.LogPath)
	if m = putBack.FindSubmatch(log); m == nil || string(m[1]) == string(m[2]) {
		t.Errorf("the switch put back the bytecode of a changed module (or said nothing): %q\n%s", m, log)
	}
	if got := importVersion(t, v, "torch"); got != "2.6.0+cu118" {
		t.Errorf("import torch after the switch: %s", got)
	}
}
