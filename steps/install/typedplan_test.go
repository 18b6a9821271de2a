package install

import (
	"strings"
	"testing"

	"gpuwiz/matrix"
	"gpuwiz/steps/pyenv"
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
