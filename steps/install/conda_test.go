package install

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/testkit/pylayout"
)

// A conda-style env (its own interpreter and site-packages, conda-meta/ with a conda cudatoolkit)
// holding torch cu118 from pip: the engine installs cu126 into it with the env's pip, the plan says
// it is a conda env and warns about conda's cudatoolkit; a killed switch back to cu118 restores
// cu126. No venv is made and conda's records are left alone.
func TestCondaEnvInstallSwitchAndRestore(t *testing.T) {
	ix := serve(t)
	root, py := pylayout.CondaEnv(t, "cudatoolkit=11.8")
	v := pyenv.Venv{Root: root}
	if !v.IsConda() || !v.Exists() || v.Python() != py || v.Kind() != "conda env" {
		t.Fatalf("not seen as a conda env: conda %v exists %v python %s", v.IsConda(), v.Exists(), v.Python())
	}
	metaBefore, _ := filepath.Glob(filepath.Join(root, "conda-meta", "*"))
	pipInstall(t, v, "--no-index", "--find-links", filepath.Dir(buildWheels(t)["cu118"][0]), "torch==2.6.0+cu118", "torchvision==0.21.0+cu118")
	cache := t.TempDir()

	plan, out, _ := install(t, context.Background(), options(t, v, torchTarget(ix, "cu126"), cache), nil)
	if !plan.Conda || plan.NewVenv || !strings.Contains(strings.Join(plan.Notes, "\n"), "this is a conda env") {
		t.Fatalf("plan: conda %v new %v notes %q", plan.Conda, plan.NewVenv, plan.Notes)
	}
	if w := strings.Join(plan.Warnings, "\n"); !strings.Contains(w, "conda manages cudatoolkit 11.8") || !strings.Contains(w, "conda remove -p") {
		t.Fatalf("no warning about conda's cudatoolkit: %q", plan.Warnings)
	}
	for _, c := range plan.Commands {
		if c[0] != py {
			t.Fatalf("a step does not use the env's python: %v", c)
		}
	}
	if out.Result != ResultInstalled || !out.OK() {
		t.Fatalf("install into the conda env: %+v (verify %+v)", out, out.Verify)
	}
	if got := importVersion(t, v, "torch"); got != "2.6.0+cu126" {
		t.Fatalf("import torch in the conda env: %s", got)
	}
	if _, err := os.Stat(v.Config()); !os.IsNotExist(err) {
		t.Fatalf("a pyvenv.cfg appeared in the conda env: %v", err)
	}

	before := freeze(t, v)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, out, _ = install(t, ctx, options(t, v, torchTarget(ix, "cu118"), cache), func(ev Event) {
		if writing(ev) {
			cancel()
		}
	})
	if out.Result != ResultRestored || !out.Restored {
		t.Fatalf("want the killed switch restored, got %+v", out)
	}
	if after := freeze(t, v); after != before {
		t.Fatalf("pip freeze differs after the restore:\nbefore\n%s\nafter\n%s", before, after)
	}
	if got := importVersion(t, v, "torch"); got != "2.6.0+cu126" {
		t.Fatalf("import torch after the restore: %s", got)
	}
	metaAfter, _ := filepath.Glob(filepath.Join(root, "conda-meta", "*"))
	if strings.Join(metaAfter, "\n") != strings.Join(metaBefore, "\n") {
		t.Fatalf("conda-meta changed:\n%v\n%v", metaBefore, metaAfter)
	}
}

// A venv made from a conda env's Python is an ordinary venv with that Python as its base.
func TestVenvFromACondaPython(t *testing.T) {
	_, py := pylayout.CondaPrefix(t, false)
	root := filepath.Join(t.TempDir(), "venv")
	if err := pyenv.Create(context.Background(), runner.New(nil), py, root); err != nil {
		t.Fatal(err)
	}
	v := pyenv.Venv{Root: root}
	if v.IsConda() || !v.Exists() {
		t.Fatalf("conda %v exists %v", v.IsConda(), v.Exists())
	}
	in, err := pyenv.Describe(context.Background(), v.Python())
	if err != nil || in.Kind != "venv" || in.Base == "" {
		t.Fatalf("described %+v, %v", in, err)
	}
	if base, _ := filepath.EvalSymlinks(in.Base); !strings.HasPrefix(base, filepath.Dir(filepath.Dir(py))) {
		t.Fatalf("the venv's base %s is not the conda env's python %s", in.Base, py)
	}
}
