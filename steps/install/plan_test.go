package install

import (
	"slices"
	"strings"
	"testing"

	"gpuwiz/matrix"
	"gpuwiz/steps/pipconf"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/urls"
)

func planTarget() Target {
	return Target{Framework: "torch", FrameworkVersion: "2.6.0", Channel: "cu126", IndexURL: "https://download.pytorch.org/whl/cu126",
		Packages: []matrix.Package{{Name: "torch", Version: "2.6.0", LocalLabel: "+cu126"}, {Name: "torchvision", Version: "0.21.0", LocalLabel: "+cu126"}}}
}

func existing(pip string, dists ...pyenv.Dist) pyenv.Installed {
	return pyenv.Installed{Python: pyenv.Interpreter{Path: "/v/bin/python"}, PipVersion: pip, Dists: dists}
}

func TestPlanCPUBuildOfTheSameVersionIsUninstalledAndPinsCarryTheLabel(t *testing.T) {
	o := Options{Venv: pyenv.Venv{Root: "/v", GOOS: "linux"}, Target: planTarget(), CacheDir: "/c",
		Environ: []string{"PIP_EXTRA_INDEX_URL=https://pypi.org/simple", "PIP_FIND_LINKS=/opt/wheels", "HOME=/root"}}
	p, err := MakePlan(o, existing("25.2", pyenv.Dist{Name: "torch", Version: "2.6.0+cpu", LocalLabel: "+cpu"}, pyenv.Dist{Name: "numpy", Version: "2.0"}))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(p.Uninstall, " ") != "torch" || strings.Join(p.Install, " ") != "torch==2.6.0 torchvision==0.21.0" {
		t.Fatalf("uninstall %v install %v", p.Uninstall, p.Install)
	}
	if _, ok := p.Step(StepPipUpgrade); ok {
		t.Error("pip 25.2 needs no upgrade")
	}
	inst, _ := p.Step(StepInstall)
	if !slices.Contains(inst.Argv, "torch==2.6.0+cu126") || !slices.Contains(inst.Argv, "--no-index") || !slices.Contains(inst.Argv, "raw") {
		t.Errorf("install argv %v", inst.Argv)
	}
	for _, c := range p.Commands {
		if slices.Contains(c, "--extra-index-url") {
			t.Errorf("extra index: %v", c)
		}
		if !slices.Contains(c, "--no-input") || !slices.Contains(c, "--disable-pip-version-check") {
			t.Errorf("missing --no-input/--disable-pip-version-check: %v", c)
		}
	}
	env := strings.Join(p.env, "\n")
	for _, want := range []string{"PIP_EXTRA_INDEX_URL=\n", "PIP_FIND_LINKS=\n", "PIP_INDEX_URL=https://download.pytorch.org/whl/cu126"} {
		if !strings.Contains(env+"\n", want) {
			t.Errorf("child env lacks %q", want)
		}
	}
	if strings.Contains(env, "/opt/wheels") || strings.Contains(env, "pypi.org") {
		t.Errorf("the user's index settings leak into the child env:\n%s", env)
	}
	if len(p.Warnings) != 2 {
		t.Errorf("want a warning per interfering variable, got %v", p.Warnings)
	}
	order := []string{}
	for _, s := range p.Steps {
		order = append(order, s.ID)
	}
	if strings.Join(order, " ") != "snapshot stage backup uninstall install verify lock" {
		t.Errorf("steps %v", order)
	}
}

func TestPlanOldPipAndNewVenv(t *testing.T) {
	o := Options{Venv: pyenv.Venv{Root: "/v", GOOS: "linux"}, Python: "/usr/bin/python3", Target: planTarget(), CacheDir: "/c", Environ: []string{}}
	p, err := MakePlan(o, pyenv.Installed{PipVersion: "23.2.1"})
	if err != nil {
		t.Fatal(err)
	}
	// pip 23.2 resolves with a report: no upgrade (by design since gpuwiz downloads and installs itself).
	if p.Steps[0].ID != StepVenv || p.Steps[1].ID != StepSnapshot {
		t.Fatalf("steps %+v", p.Steps[:2])
	}
	// A pip too old for the dry run's report is upgraded from the chosen mirror only, never pypi.org.
	old := o
	if p, _ = MakePlan(old, pyenv.Installed{PipVersion: "21.3.1"}); slices.ContainsFunc(p.Steps, func(s Step) bool { return s.ID == StepPipUpgrade }) {
		t.Errorf("pip 21.3 without a mirror: upgraded from pypi.org: %+v", p.Steps)
	}
	old.Mirror = "https://mirrors.example.cn/pypi/simple"
	p, _ = MakePlan(old, pyenv.Installed{PipVersion: "21.3.1"})
	if up, ok := p.Step(StepPipUpgrade); !ok || !up.BestEffort || !slices.Contains(up.Argv, old.Mirror) {
		t.Errorf("pip 21.3 with a mirror: %+v", p.Steps)
	}
	st, _ := p.Step(StepStage)
	if !slices.Contains(st.Argv, "off") || slices.Contains(st.Argv, "raw") {
		t.Errorf("pip 23.2 has no raw progress: %v", st.Argv)
	}
	if _, err := MakePlan(Options{Venv: o.Venv, Target: planTarget(), Environ: []string{}}, pyenv.Installed{}); err == nil {
		t.Error("a new venv without --python must be refused")
	}
	bad := o
	bad.IndexURLOverride = "http://mirror.example/whl/cu126"
	if _, err := MakePlan(bad, pyenv.Installed{}); err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("plain http off loopback: %v", err)
	}
}

func TestConfigInterference(t *testing.T) {
	got := configInterference(pipconf.Config{Settings: []pipconf.Setting{
		{Kind: pipconf.KindUser, File: "/home/u/.config/pip/pip.conf", Section: "global", Name: "extra-index-url", Value: "https://user:tok@corp.example/simple"},
		{Kind: pipconf.KindUser, File: "/home/u/.config/pip/pip.conf", Section: "global", Name: "cert", Value: "/etc/ca.pem"},
		{Kind: pipconf.KindSite, File: "/venv/pip.conf", Section: "site", Name: "index-url", Value: "https://x"},
		{Kind: pipconf.KindEnvVar, Var: "PIP_FIND_LINKS", Section: pipconf.EnvSection, Name: "find-links", Value: "/opt/wheels"},
	}})
	if len(got) != 2 || !strings.Contains(got[0], "extra-index-url") || strings.Contains(got[0], "tok") || !strings.Contains(got[1], "site") {
		t.Fatalf("%q", got)
	}
}

func TestCheckIndexURLAllowsPlainHTTPOnlyForLoopback(t *testing.T) {
	for url, ok := range map[string]bool{
		"https://download.pytorch.org/whl/cu126": true,
		"http://127.0.0.1:8080/simple":           true,
		"http://127.9.9.9/simple":                true,
		"http://localhost:3141/root/pypi":        true,
		"http://[::1]:8080/simple":               true,
		"http://127.example.com/whl/cu126":       false, // a public name that merely starts with 127.
		"http://localhost.example.com/whl":       false,
		"http://download.pytorch.org/whl/cu126":  false,
		"ftp://127.0.0.1/whl":                    false,
		"download.pytorch.org/whl/cu126":         false,
	} {
		if _, err := urls.Check(url); (err == nil) != ok {
			t.Errorf("urls.Check(%q) = %v, want ok=%v", url, err, ok)
		}
	}
}
