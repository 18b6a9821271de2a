package install

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"gpuwiz/steps/testkit/pyindex"
)

// When pip finds no build on the index, the engine asks the index itself whether it answers at all:
// that request goes through the proxy pip's configuration names (PIP_CONFIG_FILE's proxy =), as
// pip's own requests do, not around it. The index (https://example.com, which pip is told to trust
// with trusted-host =) is reached only through the proxy's tunnel.
func TestIndexProbeGoesThroughPipsConfiguredProxy(t *testing.T) {
	index := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "<!DOCTYPE html><html><body></body></html>") // a project page without files
	}))
	t.Cleanup(index.Close)
	var mu sync.Mutex
	var connects []string // "example.com:443 Go-http-client/1.1": the target and who asked
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		connects = append(connects, r.Method+" "+r.Host+" "+r.UserAgent())
		mu.Unlock()
		up, err := net.Dial("tcp", index.Listener.Addr().String())
		if r.Method != http.MethodConnect || r.Host != "example.com:443" || err != nil {
			http.Error(w, "no", http.StatusBadGateway)
			return
		}
		conn, brw, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		io.WriteString(conn, "HTTP/1.1 200 Connection established\r\n\r\n")
		go func() { io.Copy(up, brw); up.Close() }()
		io.Copy(conn, up)
		conn.Close()
	}))
	t.Cleanup(proxy.Close)
	dir := t.TempDir()
	conf := filepath.Join(dir, "pip.conf")
	if err := os.WriteFile(conf, []byte("[global]\nproxy = "+proxy.URL+"\ntrusted-host = example.com\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := options(t, pyindex.NewVenv(t, ""), torchTarget(serve(t), "cu126"), t.TempDir())
	o.IndexURLOverride = "https://example.com/whl/cu126"
	for i, kv := range o.Environ {
		if strings.HasPrefix(kv, "PIP_CONFIG_FILE=") {
			o.Environ[i] = "PIP_CONFIG_FILE=" + conf
		}
	}
	// pip alone resolves (no shim of gpuwiz's own asks the index); no proxy variable is set.
	o.Environ = append(o.Environ, "GPUWIZ_DOWNLOADER=pip", "PIP_RETRIES=0", "HTTP_PROXY=", "HTTPS_PROXY=", "http_proxy=", "https_proxy=", "ALL_PROXY=", "all_proxy=")
	_, out, _ := install(t, context.Background(), o, nil)
	mu.Lock()
	defer mu.Unlock()
	probed := false
	for _, c := range connects {
		probed = probed || strings.HasPrefix(c, "CONNECT example.com:443 Go-http-client")
	}
	if !probed {
		t.Errorf("the index probe did not go through pip's proxy; the proxy saw %q\n%s", connects, out.Error)
	}
	if out.OK() || !strings.Contains(out.Error, "through the proxy "+proxy.URL+" (pip's proxy setting)") {
		t.Errorf("want the probe's answer through pip's proxy, got %+v", out)
	}
}
