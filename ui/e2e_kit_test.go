package ui

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

// The tmux tests need wheels and a loopback index. steps/internal/pyindex has both but Go's
// internal rule keeps ui/ from importing it, so this is the same kit in small: it reuses pyindex's
// stub modules (read from its stubs/ directory) and serves the same download.pytorch.org layout.

type stubSpec struct {
	Version       string   `json:"version"`
	CUDA          string   `json:"cuda"`
	ArchList      []string `json:"arch_list"`
	DeviceName    string   `json:"device_name"`
	CudaAvailable bool     `json:"cuda_available"`
	CuDNN         int      `json:"cudnn"`
	Capability    string   `json:"capability"`
	DeviceCount   int      `json:"device_count"`
	WrongResult   bool     `json:"wrong_result"`
}

func stubFiles(t *testing.T, module string, spec stubSpec) map[string]string {
	t.Helper()
	dir := filepath.Join("..", "steps", "internal", "pyindex", "stubs")
	init, err := os.ReadFile(filepath.Join(dir, module+"_init.py"))
	if err != nil {
		t.Fatalf("the stub modules of steps/internal/pyindex: %v", err)
	}
	tensor, err := os.ReadFile(filepath.Join(dir, "tensor.py"))
	if err != nil {
		t.Fatal(err)
	}
	if spec.ArchList == nil {
		spec.ArchList = []string{}
	}
	js, _ := json.Marshal(spec)
	return map[string]string{
		module + "/__init__.py": strings.Replace(string(init), "@SPEC@", string(js), 1),
		module + "/_tensor.py":  string(tensor),
	}
}

var wheelUnsafe = regexp.MustCompile(`[^A-Za-z0-9.+]+`)

// buildWheel writes dist-version-py3-none-any.whl with files and padBytes of stored random data.
func buildWheel(t *testing.T, dir, dist, version string, files map[string]string, padBytes int) string {
	t.Helper()
	esc := wheelUnsafe.ReplaceAllString(dist, "_")
	info := esc + "-" + version + ".dist-info"
	entries := map[string][]byte{}
	for n, b := range files {
		entries[n] = []byte(b)
	}
	if padBytes > 0 {
		pad := make([]byte, padBytes)
		_, _ = rand.NewChaCha8(sha256.Sum256([]byte(dist + version))).Read(pad)
		entries[esc+"_gpuwiz_pad/blob.bin"] = pad
	}
	entries[info+"/METADATA"] = []byte(fmt.Sprintf("Metadata-Version: 2.1\nName: %s\nVersion: %s\n", dist, version))
	entries[info+"/WHEEL"] = []byte("Wheel-Version: 1.0\nGenerator: gpuwiz-ui-e2e\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
	names := make([]string, 0, len(entries))
	for n := range entries {
		names = append(names, n)
	}
	sort.Strings(names)
	var buf bytes.Buffer
	var record strings.Builder
	zw := zip.NewWriter(&buf)
	for _, n := range names {
		method := zip.Deflate
		if strings.HasSuffix(n, "blob.bin") {
			method = zip.Store
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: n, Method: method})
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write(entries[n])
		sum := sha256.Sum256(entries[n])
		fmt.Fprintf(&record, "%s,sha256=%s,%d\n", n, base64.RawURLEncoding.EncodeToString(sum[:]), len(entries[n]))
	}
	record.WriteString(info + "/RECORD,,\n")
	w, _ := zw.Create(info + "/RECORD")
	_, _ = w.Write([]byte(record.String()))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, esc+"-"+version+"-py3-none-any.whl")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// serveIndex serves channel → wheel paths as PEP 503 simple indexes at URL/whl/<channel>/.
func serveIndex(t *testing.T, channels map[string][]string) string {
	t.Helper()
	type file struct{ name, path, sha string }
	byChannel := map[string]map[string][]file{}
	for ch, paths := range channels {
		byChannel[ch] = map[string][]file{}
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(b)
			name := filepath.Base(p)
			project := strings.ToLower(strings.ReplaceAll(strings.SplitN(name, "-", 2)[0], "_", "-"))
			byChannel[ch][project] = append(byChannel[ch][project], file{name, p, hex.EncodeToString(sum[:])})
		}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
		if len(parts) < 2 || parts[0] != "whl" || byChannel[parts[1]] == nil {
			http.NotFound(w, r)
			return
		}
		projects := byChannel[parts[1]]
		switch {
		case len(parts) == 2:
			for p := range projects {
				fmt.Fprintf(w, "<a href=\"%s/\">%s</a><br/>\n", p, p)
			}
		case len(parts) == 3 && strings.HasSuffix(parts[2], ".whl"):
			for _, fs := range projects {
				for _, f := range fs {
					if f.name == parts[2] {
						http.ServeFile(w, r, f.path)
						return
					}
				}
			}
			http.NotFound(w, r)
		case len(parts) == 3:
			project := strings.ToLower(strings.ReplaceAll(parts[2], "_", "-"))
			fmt.Fprintf(w, "<html><body>\n")
			for _, f := range projects[project] {
				fmt.Fprintf(w, "<a href=\"../%s#sha256=%s\">%s</a><br/>\n", strings.ReplaceAll(f.name, "+", "%2B"), f.sha, html.EscapeString(f.name))
			}
			fmt.Fprintf(w, "</body></html>\n")
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// tmuxSession is the real binary running in a private tmux server at 80x24, inside a shell.
type tmuxSession struct {
	t      *testing.T
	socket string
	name   string
}

func needTmux(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("tmux is required in CI (.ci/run installs it)")
		}
		t.Skip("tmux is not installed: the end-to-end wizard tests need it (apt-get install tmux)")
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3: the end-to-end tests create real venvs")
	}
}

// buildBinary builds gpuwiz from the module root once per test binary.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "gpuwiz")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// startShell starts bash in a private tmux server with env, in dir.
func startShell(t *testing.T, dir string, env []string) *tmuxSession {
	t.Helper()
	s := &tmuxSession{t: t, socket: fmt.Sprintf("gpuwiz-e2e-%d-%d", os.Getpid(), time.Now().UnixNano()), name: "w"}
	// env -i: the tmux server would otherwise hand the shell this process's whole environment
	// (a PIP_FIND_LINKS set on the machine, for one).
	shell := []string{"env", "-i"}
	for _, kv := range env {
		shell = append(shell, shellQuote(kv))
	}
	args := []string{"new-session", "-d", "-x", "80", "-y", "24", "-s", s.name, "-c", dir,
		strings.Join(append(shell, "bash", "--norc", "--noprofile"), " ")}
	s.tmux(args...)
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", s.socket, "kill-server").Run() })
	s.tmux("set-option", "-t", s.name, "status", "off")
	s.send(`PS1='READY$ '`, "Enter")
	s.waitFor("READY$", 10*time.Second)
	return s
}

func (s *tmuxSession) tmux(args ...string) string {
	s.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", s.socket}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (s *tmuxSession) send(keys ...string) {
	s.t.Helper()
	s.tmux(append([]string{"send-keys", "-t", s.name}, keys...)...)
}

// sendText types text literally (no key names).
func (s *tmuxSession) sendText(text string) {
	s.t.Helper()
	s.tmux("send-keys", "-t", s.name, "-l", text)
}

func (s *tmuxSession) screen() string {
	s.t.Helper()
	return s.tmux("capture-pane", "-p", "-J", "-t", s.name)
}

// waitFor polls the screen until it shows text; it fails with the last screen after limit, or at
// once when the screen shows one of failures.
func (s *tmuxSession) waitFor(text string, limit time.Duration, failures ...string) string {
	s.t.Helper()
	deadline := time.Now().Add(limit)
	for {
		scr := s.screen()
		if strings.Contains(scr, text) {
			return scr
		}
		for _, f := range failures {
			if strings.Contains(scr, f) {
				s.t.Fatalf("waiting for %q the screen shows %q:\n%s", text, f, scr)
			}
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("waited %s for %q; the screen shows:\n%s", limit, text, scr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// pipEnv is the environment for pip run by the tests themselves: no user config, no PyPI.
func pipEnv(t *testing.T) []string {
	var env []string
	for _, kv := range os.Environ() {
		k := strings.ToUpper(strings.SplitN(kv, "=", 2)[0])
		if strings.HasPrefix(k, "PIP_") || k == "VIRTUAL_ENV" || strings.HasPrefix(k, "PYTHON") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "PIP_CONFIG_FILE="+os.DevNull, "PIP_DISABLE_PIP_VERSION_CHECK=1", "PIP_NO_INPUT=1",
		"PIP_CACHE_DIR="+filepath.Join(t.TempDir(), "pip-cache"))
}

func run(t *testing.T, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
	return string(out)
}

// writeMatrix writes the test matrix with its index URLs on the loopback index.
func writeMatrix(t *testing.T, dir, indexURL string) string {
	t.Helper()
	tmpl, err := os.ReadFile(filepath.Join("testdata", "e2e", "matrix.toml.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "matrix.toml")
	if err := os.WriteFile(p, bytes.ReplaceAll(tmpl, []byte("@INDEX@"), []byte(indexURL)), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
