package app

import (
	"context"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"gpuwiz/matrix"
	"gpuwiz/steps/indexcheck"
)

// The index check before an install goes through the proxy pip will use: here pip's own setting
// (PIP_PROXY, as `pip config list` shows it, read with the real pip), which wins over HTTPS_PROXY.
func TestIndexCheckUsesPipsProxy(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	var mu sync.Mutex
	var seen []string
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Method+" "+r.Host)
		mu.Unlock()
		http.Error(w, "no tunnels here", http.StatusBadGateway)
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	t.Setenv("PIP_PROXY", "http://"+ln.Addr().String())
	t.Setenv("HTTPS_PROXY", "http://127.0.0.1:9") // pip's setting wins; this one is never asked
	toml := `schema = 1
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
	file := filepath.Join(t.TempDir(), "m.toml")
	if err := os.WriteFile(file, []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := matrix.Parse([]byte(toml), file)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := m.Lookup("torch", "2.6.0", "cu126")
	env := &Env{G: &Globals{MatrixFile: file}}
	res, err := env.CheckServed(context.Background(), IndexQuery{Candidate: c, Python: python})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) == 0 || seen[0] != "CONNECT torch.proxied.test:443" {
		t.Fatalf("the proxy saw %q", seen)
	}
	if !res.Asked || res.Verdict.Status != indexcheck.CouldNotLook {
		t.Errorf("%+v", res)
	}
}
