package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A conda env (conda-meta/ and its own python, no pyvenv.cfg) is checked like a venv: by --venv
// (or --env) PATH, or as the activated env (CONDA_PREFIX); a folder that is neither is refused.
func TestResolvePythonTakesACondaEnv(t *testing.T) {
	root := t.TempDir()
	py := filepath.Join(root, "bin", "python")
	must(t, os.MkdirAll(filepath.Join(root, "conda-meta"), 0o755))
	must(t, os.MkdirAll(filepath.Dir(py), 0o755))
	must(t, os.WriteFile(py, []byte("#!/bin/sh\n"), 0o755))
	python, venv, err := ResolvePython(Options{Venv: root}, OSFS{}, "linux", MapEnviron{})
	if err != nil || python != py || venv != root {
		t.Fatalf("--venv conda env: %q %q %v", python, venv, err)
	}
	python, venv, err = ResolvePython(Options{}, OSFS{}, "linux", MapEnviron{"CONDA_PREFIX": root, "PATH": ""})
	if err != nil || python != py || venv != root {
		t.Fatalf("CONDA_PREFIX: %q %q %v", python, venv, err)
	}
	must(t, os.Remove(py))
	if _, _, err := ResolvePython(Options{Venv: root}, OSFS{}, "linux", MapEnviron{}); err == nil || !strings.Contains(err.Error(), "conda env without") {
		t.Fatalf("a conda env without python: %v", err)
	}
	plain := t.TempDir()
	if _, _, err := ResolvePython(Options{Venv: plain}, OSFS{}, "linux", MapEnviron{}); err == nil || !strings.Contains(err.Error(), "no conda-meta") {
		t.Fatalf("a plain folder: %v", err)
	}
}
