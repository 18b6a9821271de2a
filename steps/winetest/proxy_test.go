package winetest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"gpuwiz/steps/testkit/gobuild"
)

const internetSettings = `HKCU\Software\Microsoft\Windows\CurrentVersion\Internet Settings`

// recordingProxy is a loopback HTTP proxy that writes down every request it receives: the host of
// each plain request (which it answers itself, as the index) and of each CONNECT (which it refuses
// with 502, so nothing leaves this machine).
type recordingProxy struct {
	addr  string
	mu    sync.Mutex
	seen  []string // "GET wheels.proxied.test", "CONNECT torch.proxied.test:443"
	pages map[string][]byte
}

func startRecordingProxy(t *testing.T, pages map[string][]byte) *recordingProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &recordingProxy{addr: ln.Addr().String(), pages: pages}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.seen = append(p.seen, r.Method+" "+r.Host)
		p.mu.Unlock()
		if r.Method == http.MethodConnect {
			http.Error(w, "the test proxy does not tunnel", http.StatusBadGateway)
			return
		}
		body, ok := p.pages[r.Host+r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if strings.HasSuffix(r.URL.Path, "/") {
			w.Header().Set("Content-Type", "text/html")
		}
		w.Write(body)
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return p
}

func (p *recordingProxy) saw(what string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, s := range p.seen {
		if s == what {
			return true
		}
	}
	return false
}

func (p *recordingProxy) log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.seen, "\n")
}

// TestSystemProxyUnderWine sets the Windows system proxy in Wine's registry the way Clash and v2rayN
// do (ProxyEnable, ProxyServer in the per-scheme form, ProxyOverride with <local>) and checks that
// gpuwiz's downloader, index check and source probe go through it with no proxy variable set, that
// an overridden host goes direct, and that gpuwiz.exe's own index check before an install uses it.
func TestSystemProxyUnderWine(t *testing.T) {
	w := windows(t)
	wheel := []byte("not really a wheel, but its sha256 is checked")
	sum := sha256.Sum256(wheel)
	pages := map[string][]byte{
		"wheels.proxied.test/files/p-1.0-py3-none-any.whl": wheel,
		"index.proxied.test/simple/torch/":                 []byte(`<a href="torch-2.8.0+cu126-cp312-cp312-win_amd64.whl">torch-2.8.0+cu126-cp312-cp312-win_amd64.whl</a>`),
	}
	px := startRecordingProxy(t, pages)
	w.regAdd(t, internetSettings, "ProxyEnable", "REG_DWORD", "1")
	w.regAdd(t, internetSettings, "ProxyServer", "REG_SZ", "http="+px.addr+";https="+px.addr)
	w.regAdd(t, internetSettings, "ProxyOverride", "REG_SZ", "localhost;127.*;*.direct.test;<local>")
	t.Cleanup(func() { w.regAdd(t, internetSettings, "ProxyEnable", "REG_DWORD", "0") })

	exe := filepath.Join(w.dir, "netstandin.exe")
	if _, err := os.Stat(exe); err != nil {
		if err := gobuild.BuildErr(gobuild.Options{Package: "./testdata/netstandin", Out: exe, Env: windowsBuild}); err != nil {
			t.Fatal(err)
		}
	}
	r := w.wine(t, nil, exe, "http://wheels.proxied.test/files/p-1.0-py3-none-any.whl", hex.EncodeToString(sum[:]),
		"http://index.proxied.test/simple/torch/", "https://mirror.proxied.test/whl/cu126")
	var rep struct {
		SystemProxy struct{ Enable bool } `json:"system_proxy"`
		FetchErr    string                `json:"fetch_err"`
		FetchBytes  int64                 `json:"fetch_bytes"`
		FetchProxy  string                `json:"fetch_proxy"`
		IndexFiles  []string              `json:"index_files"`
		IndexErr    string                `json:"index_err"`
		ProbeProxy  string                `json:"probe_proxy"`
		ProbeWhy    string                `json:"probe_why"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || r.code != 0 {
		t.Fatalf("netstandin exit %d: %v\n%s\n%s", r.code, err, r.stdout, r.stderr)
	}
	if !rep.SystemProxy.Enable {
		t.Fatalf("the system proxy was not read from the registry: %s", r.stdout)
	}
	if rep.FetchErr != "" || rep.FetchBytes != int64(len(wheel)) || rep.FetchProxy != "http://"+px.addr || !px.saw("GET wheels.proxied.test") {
		t.Errorf("downloader: %+v\nproxy saw:\n%s", rep, px.log())
	}
	if rep.IndexErr != "" || len(rep.IndexFiles) != 1 || !px.saw("GET index.proxied.test") {
		t.Errorf("index check: files %q err %q\nproxy saw:\n%s", rep.IndexFiles, rep.IndexErr, px.log())
	}
	if !px.saw("CONNECT mirror.proxied.test:443") || !strings.Contains(rep.ProbeProxy, px.addr) || !strings.Contains(rep.ProbeProxy, "Windows system proxy") {
		t.Errorf("source probe: proxy %q why %q\nproxy saw:\n%s", rep.ProbeProxy, rep.ProbeWhy, px.log())
	}

	// A host in ProxyOverride goes direct (and, being made up, does not resolve): the proxy sees nothing of it.
	r = w.wine(t, nil, exe, "http://wheels.direct.test/p.whl", hex.EncodeToString(sum[:]), "http://intranet/simple/torch/", "https://mirror.direct.test/whl/cu126")
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("netstandin exit %d: %v\n%s\n%s", r.code, err, r.stdout, r.stderr)
	}
	if strings.Contains(px.log(), "direct.test") || strings.Contains(px.log(), "intranet") || rep.FetchProxy != "" || rep.ProbeProxy != "" || rep.FetchErr == "" {
		t.Errorf("ProxyOverride: %+v\nproxy saw:\n%s", rep, px.log())
	}

	// gpuwiz.exe itself: the index check before an install asks the index through the system proxy.
	w.installStandin(t, `Python312\python.exe`, `{"version": "3.12.4", "bits": 64}`)
	res := w.gpuwiz(t, nil, "--simulate", w.rig(t), "install", "--dry-run", "--json", "--framework", "torch", "--channel", "cu126",
		"--index-url", "https://torch.proxied.test/whl/cu126", "--venv", `C:\venvs\proxied`, "--python", `C:\Python312\python.exe`)
	if !px.saw("CONNECT torch.proxied.test:443") {
		t.Errorf("gpuwiz.exe install --dry-run did not ask the index through the system proxy (exit %d)\nstdout:\n%s\nstderr:\n%s\nproxy saw:\n%s", res.code, res.stdout, res.stderr, px.log())
	}
}
