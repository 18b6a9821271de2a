package doctor

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"gpuwiz/matrix"
	"gpuwiz/steps/gpu"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/testkit/pyindex"
)

// venvTemplate is one real venv (with pip) made once; each test copies it.
var venvTemplate string

func TestMain(m *testing.M) {
	os.Setenv("GPUWIZ_VERIFY_MATRIX_N", "8") // verify's matmul on the pure-Python stubs
	code := func() int {
		if _, err := exec.LookPath("python3"); err == nil {
			dir, err := os.MkdirTemp("", "doctor-venv-template-")
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			defer os.RemoveAll(dir)
			tmpl := filepath.Join(dir, "venv")
			if out, err := exec.Command("python3", "-m", "venv", tmpl).CombinedOutput(); err != nil {
				fmt.Fprintf(os.Stderr, "python3 -m venv: %v\n%s", err, out)
				return 1
			}
			venvTemplate = tmpl
		}
		return m.Run()
	}()
	os.Exit(code)
}

// newVenv copies the template venv and points its scripts' shebangs at the copy.
func newVenv(t *testing.T) string {
	t.Helper()
	if venvTemplate == "" {
		t.Skip("python3 is not installed: these tests need a real venv")
	}
	dst := filepath.Join(t.TempDir(), "venv")
	if out, err := exec.Command("cp", "-a", venvTemplate, dst).CombinedOutput(); err != nil {
		t.Fatalf("copy venv: %v\n%s", err, out)
	}
	bins, _ := os.ReadDir(filepath.Join(dst, "bin"))
	for _, b := range bins {
		p := filepath.Join(dst, "bin", b.Name())
		if b.Type()&fs.ModeSymlink != 0 {
			continue
		}
		data, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(data), venvTemplate) {
			if err := os.WriteFile(p, []byte(strings.ReplaceAll(string(data), venvTemplate, dst)), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dst
}

func sitePackages(t *testing.T, venv string) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(venv, "lib", "python3*", "site-packages"))
	if len(m) != 1 {
		t.Fatalf("site-packages of %s: %v", venv, m)
	}
	return m[0]
}

// writeDist fakes an installed distribution: a dist-info with METADATA and RECORD, and its files.
func writeDist(t *testing.T, venv, name, version string, files map[string]string) {
	t.Helper()
	sp := sitePackages(t, venv)
	info := filepath.Join(sp, strings.ReplaceAll(name, "-", "_")+"-"+version+".dist-info")
	var record strings.Builder
	for rel, body := range files {
		p := filepath.Join(sp, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&record, "%s,,\n", rel)
	}
	base := filepath.Base(info)
	fmt.Fprintf(&record, "%s/METADATA,,\n%s/RECORD,,\n%s/INSTALLER,,\n", base, base, base)
	must(t, os.MkdirAll(info, 0o755))
	must(t, os.WriteFile(filepath.Join(info, "METADATA"), []byte("Metadata-Version: 2.1\nName: "+name+"\nVersion: "+version+"\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(info, "RECORD"), []byte(record.String()), 0o644))
	must(t, os.WriteFile(filepath.Join(info, "INSTALLER"), []byte("pip\n"), 0o644))
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// torchStub is a stub torch package (pyindex's, made for verify's script) of this build.
func torchStub(version, cuda string, archs []string, available bool) map[string]string {
	spec := pyindex.StubSpec{Version: version, CUDA: cuda, ArchList: archs, CudaAvailable: available}
	if cuda != "" {
		spec.CuDNN = 90100
	}
	return pyindex.TorchStub(spec)
}

func paddleFiles() map[string]string {
	return map[string]string{"paddle/__init__.py": "__version__ = '3.0.0'\n"}
}

func gpuFixture(t *testing.T, name string) func(context.Context) (gpu.Report, error) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	must(t, err)
	var r gpu.Report
	must(t, json.Unmarshal(data, &r))
	return func(context.Context) (gpu.Report, error) { return r, nil }
}

func embeddedMatrix(t *testing.T) *matrix.Matrix {
	t.Helper()
	m, err := matrix.Embedded()
	must(t, err)
	return m
}

// linuxDeps is a hermetic Linux machine: a fixed environment whose HOME and config dirs are empty.
func linuxDeps(t *testing.T, gpuFile string, extraEnv map[string]string) Deps {
	t.Helper()
	home := t.TempDir()
	env := MapEnviron{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config"), "XDG_CONFIG_DIRS": filepath.Join(home, "xdg"), "PATH": "/usr/bin:/bin", "PIP_CONFIG_FILE": ""}
	delete(env, "PIP_CONFIG_FILE")
	for k, v := range extraEnv {
		env[k] = v
	}
	return Deps{Runner: runner.New(nil), GPU: gpuFixture(t, gpuFile), Matrix: embeddedMatrix(t), Env: env, FS: OSFS{}, GOOS: "linux"}
}

func runDoctor(t *testing.T, d Deps, venv string) Report {
	t.Helper()
	rep, err := Run(context.Background(), d, Options{Venv: venv})
	if err != nil {
		t.Fatalf("doctor.Run: %v", err)
	}
	return rep
}

func requireCode(t *testing.T, rep Report, code string, sev Severity) *Finding {
	t.Helper()
	for i, f := range rep.Findings {
		if f.Code == code && (sev == "" || f.Severity == sev) {
			return &rep.Findings[i]
		}
	}
	t.Fatalf("no %s finding %q; findings: %s", sev, code, codes(rep))
	return nil
}

func codes(rep Report) string {
	var s []string
	for _, f := range rep.Findings {
		s = append(s, string(f.Severity)+":"+f.Code)
	}
	return strings.Join(s, ", ")
}

func evidenceContains(t *testing.T, f *Finding, want string) {
	t.Helper()
	if !strings.Contains(strings.Join(f.Evidence, "\n"), want) {
		t.Fatalf("%s evidence lacks %q: %q", f.Code, want, f.Evidence)
	}
}

// MapEnviron is a fixed environment.
type MapEnviron map[string]string

func (m MapEnviron) LookupEnv(key string) (string, bool) {
	v, ok := m[key]
	return v, ok
}

func (m MapEnviron) Environ() []string {
	out := make([]string, 0, len(m))
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// MapRegistry is a registry made of fixed values, keyed `ROOT\path` and `ROOT\path\name`.
type MapRegistry struct {
	Keys    map[string]bool
	DWORDs  map[string]uint32
	Strings map[string]string
}

func (m MapRegistry) KeyExists(root, path string) (bool, error) {
	return m.Keys[root+`\`+path], nil
}

func (m MapRegistry) DWORD(root, path, name string) (uint32, error) {
	v, ok := m.DWORDs[root+`\`+path+`\`+name]
	if !ok {
		return 0, ErrNotExist
	}
	return v, nil
}

func (m MapRegistry) String(root, path, name string) (string, error) {
	v, ok := m.Strings[root+`\`+path+`\`+name]
	if !ok {
		return "", ErrNotExist
	}
	return v, nil
}
