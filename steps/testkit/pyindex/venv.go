package pyindex

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
)

// Python is the interpreter the kit uses: $GPUWIZ_TEST_PYTHON, else python3 on PATH.
func Python(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("GPUWIZ_TEST_PYTHON"); p != "" {
		return p
	}
	p, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 on PATH")
	}
	return p
}

// PipEnv is os.Environ() without any PIP_* or PYTHON* setting, with pip's config files ignored,
// a private cache under the test's temp dir and no version check: pip behaves the same on every machine.
func PipEnv(t testing.TB) []string {
	t.Helper()
	var env []string
	for _, kv := range os.Environ() {
		k := strings.ToUpper(strings.SplitN(kv, "=", 2)[0])
		if strings.HasPrefix(k, "PIP_") || strings.HasPrefix(k, "PYTHON") || k == "VIRTUAL_ENV" {
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		"PIP_CONFIG_FILE="+os.DevNull,
		"PIP_CACHE_DIR="+filepath.Join(t.TempDir(), "pip-cache"),
		"PIP_DISABLE_PIP_VERSION_CHECK=1",
		"PIP_NO_INPUT=1",
	)
}

// NewVenv makes a real venv at dir (a new directory under t.TempDir() when dir is ""), with pip.
// The first call builds a template with `python3 -m venv` and later calls copy it, rewriting the
// template's path in bin/ scripts and pyvenv.cfg (see docs/benchmarks.md for the two timings).
func NewVenv(t testing.TB, dir string) pyenv.Venv {
	t.Helper()
	if dir == "" {
		dir = filepath.Join(t.TempDir(), "venv")
	}
	tpl, err := template(t)
	if err != nil {
		t.Fatalf("pyindex: venv template: %v", err)
	}
	origin, err := os.ReadFile(filepath.Join(tpl, originFile))
	if err != nil {
		t.Fatalf("pyindex: venv template: %v", err)
	}
	if err := copyVenv(tpl, string(origin), dir); err != nil {
		t.Fatalf("pyindex: copy venv: %v", err)
	}
	return pyenv.Venv{Root: dir}
}

// CreateVenvDirect runs `python3 -m venv dir` with no template (for tests of creation itself and the benchmark).
func CreateVenvDirect(t testing.TB, dir string) (pyenv.Venv, error) {
	t.Helper()
	return pyenv.Venv{Root: dir}, createVenv(Python(t), dir, PipEnv(t))
}

func createVenv(python, dir string, env []string) error {
	res := runner.New(io.Discard).Run(context.Background(), runner.Cmd{Argv: []string{python, "-m", "venv", dir}, Env: env}, nil)
	if res.Err != nil {
		return fmt.Errorf("%v: %s", res.Err, strings.Join(res.Tail, "\n"))
	}
	return nil
}

var (
	templateOnce sync.Once
	templateDir  string
	templateErr  error
)

// template is one venv per python build, shared by test processes through os.TempDir(); it is
// built in a scratch dir and renamed into place, so parallel test binaries never see half of one.
func template(t testing.TB) (string, error) {
	python := Python(t)
	env := PipEnv(t)
	templateOnce.Do(func() {
		real, err := filepath.EvalSymlinks(python)
		if err != nil {
			templateErr = err
			return
		}
		st, err := os.Stat(real)
		if err != nil {
			templateErr = err
			return
		}
		sum := sha256.Sum256([]byte(fmt.Sprintf("%s|%d|%d", real, st.Size(), st.ModTime().UnixNano())))
		final := filepath.Join(os.TempDir(), "gpuwiz-venv-template-"+hex.EncodeToString(sum[:6]))
		if (pyenv.Venv{Root: final}).Exists() {
			templateDir = final
			return
		}
		scratch, err := os.MkdirTemp(os.TempDir(), "gpuwiz-venv-build-")
		if err != nil {
			templateErr = err
			return
		}
		build := filepath.Join(scratch, "venv")
		if err := createVenv(python, build, env); err != nil {
			os.RemoveAll(scratch)
			templateErr = err
			return
		}
		if err := os.WriteFile(filepath.Join(build, originFile), []byte(build), 0o644); err != nil {
			templateErr = err
			return
		}
		// a failed rename means another process put its template there first; that one serves
		if err := os.Rename(build, final); err != nil && !(pyenv.Venv{Root: final}).Exists() {
			templateErr = err
		}
		os.RemoveAll(scratch)
		templateDir = final
	})
	return templateDir, templateErr
}

// originFile in a template names the directory it was built in, the path its scripts hold.
const originFile = ".gpuwiz-template-origin"

// copyVenv copies a venv tree and rewrites the root it was built at (origin) to the new one in
// the text files that hold it (bin/ scripts' shebangs and activate scripts, pyvenv.cfg).
func copyVenv(from, origin, to string) error {
	if err := os.MkdirAll(to, 0o755); err != nil {
		return err
	}
	return filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		if rel == originFile {
			return nil
		}
		dst := filepath.Join(to, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(link, dst)
		case d.IsDir():
			return os.MkdirAll(dst, info.Mode().Perm())
		}
		body, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		top := strings.SplitN(rel, string(filepath.Separator), 2)[0]
		if (top == "bin" || top == "Scripts" || rel == "pyvenv.cfg") && bytes.Contains(body, []byte(origin)) {
			body = bytes.ReplaceAll(body, []byte(origin), []byte(to))
		}
		return os.WriteFile(dst, body, info.Mode().Perm())
	})
}
