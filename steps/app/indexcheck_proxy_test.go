package app

import (
	"context"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"gpuwiz/matrix"
	"gpuwiz/steps/indexcheck"
)

// proxiedMatrix is a matrix of one build whose index (torch.proxied.test) only a proxy can reach.
const proxiedMatrix = `schema = 1
[[cuda]]
version = "12.6"
minor_compat_linux = "525.60.13"
minor_compat_windows = "528.33"
max_compute_cap = "9.0"
[[torch]]
version = "2.6.0"
python_min = "3.8"
python_max = "3.14"
os = ["linux", "windows"]
torchvision = "0.21.0"
torchaudio = "2.6.0"
  [[torch.build]]
  channel = "cu126"
  cuda = "12.6"
  index_url = "https://torch.proxied.test/whl/cu126"
`

// recordingProxy is a loopback HTTP proxy that writes down what it is asked ("CONNECT
// torch.proxied.test:443") and tunnels nothing: nothing leaves this machine.
func recordingProxy(t *testing.T) (addr string, seen func() []string) {
	var mu sync.Mutex
	var log []string
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		log = append(log, r.Method+" "+r.Host)
		mu.Unlock()
		http.Error(w, "no tunnels here", http.StatusBadGateway)
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String(), func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(log)
	}
}

// proxiedEnv is an Env whose matrix is proxiedMatrix.
func proxiedEnv(t *testing.T) (*Env, *matrix.Matrix) {
	file := filepath.Join(t.TempDir(), "m.toml")
	if err := os.WriteFile(file, []byte(proxiedMatrix), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := matrix.Parse([]byte(proxiedMatrix), file)
	if err != nil {
		t.Fatal(err)
	}
	return &Env{G: &Globals{MatrixFile: file}}, m
}

// The index check before an install goes through the proxy pip will use: here pip's own setting
// (PIP_PROXY, as `pip config list` shows it, read with the real pip), which wins over HTTPS_PROXY.
func TestIndexCheckUsesPipsProxy(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	addr, seen := recordingProxy(t)
	t.Setenv("PIP_PROXY", "http://"+addr)
	t.Setenv("HTTPS_PROXY", "http://127.0.0.1:9") // pip's setting wins; this one is never asked
	env, m := proxiedEnv(t)
	c, _ := m.Lookup("torch", "2.6.0", "cu126")
	res, err := env.CheckServed(context.Background(), IndexQuery{Candidate: c, Python: python})
	if err != nil {
		t.Fatal(err)
	}
	if s := seen(); len(s) == 0 || s[0] != "CONNECT torch.proxied.test:443" {
		t.Fatalf("the proxy saw %q", s)
	}
	if !res.Asked || res.Verdict.Status != indexcheck.CouldNotLook {
		t.Errorf("%+v", res)
	}
}

// `matrix check` asks the index through the proxy pip's configuration file names (PIP_CONFIG_FILE's
// proxy =), with no Python of its own and no proxy variable set.
func TestMatrixCheckUsesPipsConfiguredProxy(t *testing.T) {
	addr, seen := recordingProxy(t)
	conf := filepath.Join(t.TempDir(), "pip.conf")
	if err := os.WriteFile(conf, []byte("[global]\nproxy = http://"+addr+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PIP_CONFIG_FILE", conf)
	for _, v := range []string{"PIP_PROXY", "HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY", "https_proxy", "http_proxy", "all_proxy"} {
		t.Setenv(v, "")
	}
	env, _ := proxiedEnv(t)
	rep, err := env.CheckMatrix(context.Background(), MatrixCheckRequest{Timeout: 5 * time.Second, Parallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	if s := seen(); !slices.Contains(s, "CONNECT torch.proxied.test:443") {
		t.Fatalf("the proxy saw %q; the report: %+v", s, rep)
	}
}
