package install

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"gpuwiz/matrix"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
)

// planVariants are plans of every shape MakePlan builds: a channel's index with an optional
// package and a build to remove; a find-links page with a mirror, an old pip and a new venv; Paddle
// from its index with a mirror for the dependencies, and from a find-links page with one.
func planVariants(t *testing.T) map[string]Plan {
	t.Helper()
	torch := planTarget()
	torch.Packages = append(torch.Packages, matrix.Package{Name: "torchaudio", Version: "2.6.0", LocalLabel: "+cu126", Optional: true})
	paddle := Target{Framework: "paddle", FrameworkVersion: "3.0.0", Channel: "cu126", IndexURL: "https://www.paddlepaddle.org.cn/packages/stable/cu126/",
		Packages: []matrix.Package{{Name: "paddlepaddle-gpu", Version: "3.0.0"}}}
	venv := pyenv.Venv{Root: "/v", GOOS: "linux"}
	mirror := "https://mirrors.example.cn/pypi/simple"
	links := "https://mirror.example/whl/torch_stable.html"
	out := map[string]Plan{}
	for name, c := range map[string]struct {
		o Options
		i pyenv.Installed
	}{
		"index":        {Options{Venv: venv, Target: torch, CacheDir: "/c", Environ: []string{}}, existing("25.2", pyenv.Dist{Name: "torch", Version: "2.6.0+cpu", LocalLabel: "+cpu"})},
		"links":        {Options{Venv: venv, Python: "/usr/bin/python3", Target: torch, CacheDir: "/c", Environ: []string{}, Mirror: mirror, FindLinks: links}, pyenv.Installed{PipVersion: "21.3.1"}},
		"paddle":       {Options{Venv: venv, Target: paddle, CacheDir: "/c", Environ: []string{}, Mirror: mirror}, existing("24.0")},
		"paddle-links": {Options{Venv: venv, Target: paddle, CacheDir: "/c", Environ: []string{}, Mirror: mirror, FindLinks: links}, existing("24.0")},
	} {
		p, err := MakePlan(c.o, c.i)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = p
	}
	return out
}

// The commands a plan shows (and --json lists) are what they were before the steps were typed,
// argument for argument.
func TestPlanCommandsAreUnchangedByTyping(t *testing.T) {
	for name, p := range planVariants(t) {
		var got []string
		for _, c := range p.Commands {
			got = append(got, strings.Join(c, " "))
		}
		if g, w := strings.Join(got, "\n"), wantCommands[name]; g != w {
			t.Errorf("%s:\ngot\n%s\nwant\n%s", name, g, w)
		}
	}
}

var wantCommands = map[string]string{
	"index": `/v/bin/python -m pip freeze --no-input --disable-pip-version-check --all
/v/bin/python -m pip download --no-input --disable-pip-version-check --no-index --find-links /c/torch-2.6.0-cu126 -d /c/torch-2.6.0-cu126 torch==2.6.0+cu126 torchvision==0.21.0+cu126
/v/bin/python -m pip download --no-input --disable-pip-version-check --progress-bar raw --index-url https://download.pytorch.org/whl/cu126 -d /c/torch-2.6.0-cu126 torch==2.6.0+cu126 torchvision==0.21.0+cu126
/v/bin/python -m pip download --no-input --disable-pip-version-check --no-index --find-links /c/torch-2.6.0-cu126 -d /c/torch-2.6.0-cu126 torchaudio==2.6.0+cu126
/v/bin/python -m pip download --no-input --disable-pip-version-check --progress-bar raw --index-url https://download.pytorch.org/whl/cu126 -d /c/torch-2.6.0-cu126 torchaudio==2.6.0+cu126
/v/bin/python -m pip uninstall --no-input --disable-pip-version-check -y torch
/v/bin/python -m pip install --no-input --disable-pip-version-check --progress-bar raw --no-compile --no-index --find-links /c/torch-2.6.0-cu126 torch==2.6.0+cu126 torchvision==0.21.0+cu126 torchaudio==2.6.0+cu126
/v/bin/python -m pip freeze --no-input --disable-pip-version-check`,
	"links": `/usr/bin/python3 -m venv /v
/v/bin/python -m pip install --no-input --disable-pip-version-check --upgrade pip --retries 1 --timeout 30 --progress-bar off --index-url https://mirrors.example.cn/pypi/simple
/v/bin/python -m pip freeze --no-input --disable-pip-version-check --all
/v/bin/python -m pip download --no-input --disable-pip-version-check --no-index --find-links /c/torch-2.6.0-cu126 -d /c/torch-2.6.0-cu126 torch==2.6.0+cu126 torchvision==0.21.0+cu126
/v/bin/python -m pip download --no-input --disable-pip-version-check --progress-bar off --find-links https://mirror.example/whl/torch_stable.html --index-url https://mirrors.example.cn/pypi/simple -d /c/torch-2.6.0-cu126 torch==2.6.0+cu126 torchvision==0.21.0+cu126
/v/bin/python -m pip download --no-input --disable-pip-version-check --no-index --find-links /c/torch-2.6.0-cu126 -d /c/torch-2.6.0-cu126 torchaudio==2.6.0+cu126
/v/bin/python -m pip download --no-input --disable-pip-version-check --progress-bar off --find-links https://mirror.example/whl/torch_stable.html --index-url https://mirrors.example.cn/pypi/simple -d /c/torch-2.6.0-cu126 torchaudio==2.6.0+cu126
/v/bin/python -m pip install --no-input --disable-pip-version-check --progress-bar off --no-compile --no-index --find-links /c/torch-2.6.0-cu126 torch==2.6.0+cu126 torchvision==0.21.0+cu126 torchaudio==2.6.0+cu126
/v/bin/python -m pip freeze --no-input --disable-pip-version-check`,
	"paddle": `/v/bin/python -m pip freeze --no-input --disable-pip-version-check --all
/v/bin/python -m pip download --no-input --disable-pip-version-check --no-index --find-links /c/paddle-3.0.0-cu126 -d /c/paddle-3.0.0-cu126 paddlepaddle-gpu==3.0.0
/v/bin/python -m pip download --no-input --disable-pip-version-check --progress-bar off --no-deps --index-url https://www.paddlepaddle.org.cn/packages/stable/cu126/ -d /c/paddle-3.0.0-cu126 paddlepaddle-gpu==3.0.0
/v/bin/python -m pip download --no-input --disable-pip-version-check --progress-bar off --index-url https://mirrors.example.cn/pypi/simple -d /c/paddle-3.0.0-cu126 -r /c/paddle-3.0.0-cu126/gpuwiz-deps-paddlepaddle-gpu-3.0.0.txt
/v/bin/python -m pip install --no-input --disable-pip-version-check --progress-bar off --no-compile --no-index --find-links /c/paddle-3.0.0-cu126 paddlepaddle-gpu==3.0.0
/v/bin/python -m pip freeze --no-input --disable-pip-version-check`,
	"paddle-links": `/v/bin/python -m pip freeze --no-input --disable-pip-version-check --all
/v/bin/python -m pip download --no-input --disable-pip-version-check --no-index --find-links /c/paddle-3.0.0-cu126 -d /c/paddle-3.0.0-cu126 paddlepaddle-gpu==3.0.0
/v/bin/python -m pip download --no-input --disable-pip-version-check --progress-bar off --no-deps --no-index --find-links https://mirror.example/whl/torch_stable.html -d /c/paddle-3.0.0-cu126 paddlepaddle-gpu==3.0.0
/v/bin/python -m pip download --no-input --disable-pip-version-check --progress-bar off --index-url https://mirrors.example.cn/pypi/simple -d /c/paddle-3.0.0-cu126 -r /c/paddle-3.0.0-cu126/gpuwiz-deps-paddlepaddle-gpu-3.0.0.txt
/v/bin/python -m pip install --no-input --disable-pip-version-check --progress-bar off --no-compile --no-index --find-links /c/paddle-3.0.0-cu126 paddlepaddle-gpu==3.0.0
/v/bin/python -m pip freeze --no-input --disable-pip-version-check`,
}

// The resolve's stand-ins follow each URL's role in the typed step, not its text: a mirror that
// serves the same URL as a flat page and as the dependencies' index gets the shim's find-links page
// for the one and its index for the other (reading the argv back, the first match by text gave
// both the index's stand-in).
func TestReportArgsMapsEachURLByItsRole(t *testing.T) {
	same := "https://mirror.example/whl/cu126/"
	a := PipArgs{Sub: "download", FindLinks: []string{same}, IndexURL: same, ExtraIndexURLs: []string{"https://extra.example/simple"}, Dest: "/c", Pins: []string{"torch==2.6.0+cu126"}}
	got, err := reportArgs(a, "r", func(i int) string { return fmt.Sprintf("http://127.0.0.1:1/i/%d", i) }, func(i int) string { return fmt.Sprintf("http://127.0.0.1:1/l/%d/", i) })
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.FindLinks, []string{"http://127.0.0.1:1/l/0/"}) || got.IndexURL != "http://127.0.0.1:1/i/0" || !slices.Equal(got.ExtraIndexURLs, []string{"http://127.0.0.1:1/i/1"}) {
		t.Errorf("stand-ins by role: %+v", got)
	}
	if a.IndexURL != same || a.FindLinks[0] != same || a.ExtraIndexURLs[0] != "https://extra.example/simple" {
		t.Errorf("the step's own command changed: %+v", a)
	}
}

// corruptShown replaces every command a plan shows with one that cannot run and names an index
// that does not answer: the engine must start pip from the typed steps alone.
func corruptShown(p *Plan, dead string) {
	for i := range p.Steps {
		if p.Steps[i].Pip == nil {
			continue
		}
		p.Steps[i].Argv = []string{"/nonexistent/shown-argv", "--index-url", dead, "nosuchdist==0"}
		if p.Steps[i].Offline != nil {
			p.Steps[i].Offline = []string{"/nonexistent/shown-offline", "--index-url", dead}
		}
	}
}

// The engine starts every pip from the steps' typed fields, never from the argv the plan shows:
// with every shown command replaced by one that cannot run, the install still stages from the
// plan's index (pip's resolve through the shim and gpuwiz's downloader; then pip download, as
// GPUWIZ_DOWNLOADER=pip asks) and installs (gpuwiz's installer; then pip, as GPUWIZ_INSTALLER=pip
// asks), and the log names the index, never the shown commands.
func TestTheEngineStartsPipFromTheTypedStepsNotTheShownArgv(t *testing.T) {
	ix := serve(t)
	for _, pipAsked := range []bool{false, true} {
		t.Run(fmt.Sprintf("pip=%v", pipAsked), func(t *testing.T) {
			v := userVenv(t)
			o := options(t, v, torchTarget(ix, "cu126"), t.TempDir())
			if pipAsked {
				t.Setenv(InstallerEnv, "pip")
				o.Environ = append(o.Environ, "GPUWIZ_DOWNLOADER=pip")
			}
			log, err := os.Create(o.LogPath)
			if err != nil {
				t.Fatal(err)
			}
			defer log.Close()
			r := runner.New(log)
			plan, err := Prepare(context.Background(), r, o)
			if err != nil {
				t.Fatal(err)
			}
			corruptShown(&plan, "http://127.0.0.1:1/dead")
			out := Run(context.Background(), r, plan, nil)
			if !out.OK() {
				t.Fatalf("the install did not run from the typed steps: %+v", out)
			}
			if got := importVersion(t, v, "torch"); got != "2.6.0+cu126" {
				t.Errorf("import torch: %s", got)
			}
			want := map[bool]string{false: "gpuwiz", true: "pip"}[pipAsked]
			if out.Installer != want {
				t.Errorf("installer %q, want %q", out.Installer, want)
			}
			b, _ := os.ReadFile(o.LogPath)
			if strings.Contains(string(b), "/nonexistent/") || strings.Contains(string(b), "127.0.0.1:1/dead") {
				t.Errorf("a shown command ran:\n%s", b)
			}
			downloaded := slices.ContainsFunc(strings.Split(string(b), "\n"), func(l string) bool {
				return strings.Contains(l, "$ ") && strings.Contains(l, " -m pip download ") && strings.Contains(l, " --index-url "+ix.ChannelURL("cu126")+" ")
			})
			if downloaded != pipAsked { // else pip resolves through the shim and gpuwiz downloads
				t.Errorf("pip download from the plan's index: %v, want %v:\n%s", downloaded, pipAsked, b)
			}
		})
	}
}

// When pip's download fails, the index gpuwiz asks whether it answers is the step's typed index:
// here it does not answer, while the shown command names one that does.
func TestProbeAsksTheTypedIndex(t *testing.T) {
	ix := serve(t)
	v := userVenv(t)
	dead := "http://127.0.0.1:1/simple"
	o := options(t, v, torchTarget(ix, "cu126"), t.TempDir())
	o.IndexURLOverride = dead
	o.Environ = append(o.Environ, "GPUWIZ_DOWNLOADER=pip", "PIP_RETRIES=0")
	live := o
	live.IndexURLOverride = ""
	r := runner.New(nil)
	plan, err := Prepare(context.Background(), r, o)
	if err != nil {
		t.Fatal(err)
	}
	shown, err := Prepare(context.Background(), r, live)
	if err != nil {
		t.Fatal(err)
	}
	for i := range plan.Steps {
		plan.Steps[i].Argv, plan.Steps[i].Offline = shown.Steps[i].Argv, shown.Steps[i].Offline
	}
	out := Run(context.Background(), r, plan, nil)
	if out.Result != ResultUnchanged || out.FailedStep != StepStage || !errors.As(out.Err, new(indexUnreachable)) || !strings.Contains(out.Error, dead) {
		t.Fatalf("want the stage to fail with %s unreachable, got %+v", dead, out)
	}
}
