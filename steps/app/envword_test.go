package app

import (
	"os"
	"path/filepath"
	"testing"

	"gpuwiz/steps/install"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/testkit/pyindex"
	"gpuwiz/steps/testkit/pylayout"
)

// A portable bundle's embedded Python typed as the path is an environment, not a venv: the path's
// check says which kind it is; a venv's and a conda env's say nothing more. An install into it
// ends with an outcome the screens call an environment.
func TestCheckVenvNamesAnEnvironmentThatIsNoVenv(t *testing.T) {
	w := NewWizard(&Env{})
	root, _ := pylayout.Embedded(t, true)
	if pc := w.CheckVenv(root); !pc.Exists || pc.Conda || pc.Env != "embedded Python" {
		t.Errorf("an embedded Python: %+v", pc)
	}
	v := pyindex.NewVenv(t, filepath.Join(t.TempDir(), "venv"))
	if pc := w.CheckVenv(v.Root); !pc.Exists || pc.Env != "" || pc.NotEnv {
		t.Errorf("a venv: %+v", pc)
	}
	if pc := w.CheckVenv(filepath.Dir(v.Root)); pc.Exists || !pc.NotEnv || len(pc.Errors) == 0 {
		t.Errorf("a folder with a venv in it, itself no environment: %+v", pc)
	}
	for kind, notVenv := range map[string]bool{pyenv.EnvEmbedded: true, pyenv.EnvConda: true, pyenv.EnvPrefix: true, pyenv.EnvVenv: false, "": false} {
		if o := outcomeOf(InstallResult{Outcome: install.Outcome{Result: install.ResultInstalled, EnvKind: kind}}); o.NotVenv != notVenv {
			t.Errorf("%q: NotVenv %v, want %v", kind, o.NotVenv, notVenv)
		}
	}
}

// The wizard takes an environment's interpreter as the commands' --venv does: the check is of the
// environment it belongs to, whose folder is the check's Path (the screen shows it back); a file
// that is no interpreter of an environment is a file, said so.
func TestCheckVenvTakesAnInterpretersPathAsItsEnvironment(t *testing.T) {
	w := NewWizard(&Env{})
	v := pyindex.NewVenv(t, filepath.Join(t.TempDir(), "venv"))
	if pc := w.CheckVenv(v.Python()); !pc.Exists || pc.Path != v.Root || len(pc.Errors) > 0 || pc.File {
		t.Errorf("the venv's python %s: %+v, want the venv %s", v.Python(), pc, v.Root)
	}
	root, exe := pylayout.Embedded(t, true)
	if pc := w.CheckVenv(exe); !pc.Exists || pc.Path != root || pc.Env != "embedded Python" {
		t.Errorf("the embedded python %s: %+v, want the bundle's folder %s", exe, pc, root)
	}
	other := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(other, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if pc := w.CheckVenv(other); pc.Exists || !pc.File || pc.Path != other || len(pc.Errors) == 0 {
		t.Errorf("a file that is no interpreter: %+v", pc)
	}
}
