package fetch

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"gpuwiz/steps/netproxy"
)

// server serves blobs by name with Range support (http.ServeContent), and counts what it sends.
type server struct {
	*httptest.Server
	blobs    map[string][]byte
	noRanges bool  // ignore Range and never say Accept-Ranges
	noHead   bool  // answer HEAD with 405
	tooMany  int64 // answer 429 to a request beyond this many at once (0: never)
	heads    atomic.Int64
	refused  atomic.Int64          // 429s sent
	corrupt  map[string]bool       // flip one byte in the middle of this blob
	dropOnce map[string]*sync.Once // cut the first response of each range of the blob after half of it
	delay    time.Duration         // before each response
	rate     atomic.Int64          // bytes per second per response (0: unlimited)
	wantAuth string                // "user:pass" required
	served   atomic.Int64
	ranged   atomic.Int64
	inFlight atomic.Int64
	maxIn    atomic.Int64
	mu       sync.Mutex
	drops    map[string]bool
}

func blob(n int, seed uint64) []byte {
	b := make([]byte, n)
	_, _ = rand.NewChaCha8([32]byte{byte(seed), byte(seed >> 8)}).Read(b)
	return b
}

func sum(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

func newServer(t *testing.T, blobs map[string][]byte) *server {
	s := &server{blobs: blobs, corrupt: map[string]bool{}, drops: map[string]bool{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.handle))
	t.Cleanup(s.Close)
	return s
}

func (s *server) handle(w http.ResponseWriter, r *http.Request) {
	n := s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
	if s.tooMany > 0 && n > s.tooMany {
		s.refused.Add(1)
		w.Header().Set("Retry-After", "0")
		http.Error(w, "slow down", http.StatusTooManyRequests)
		return
	}
	for m := s.maxIn.Load(); n > m && !s.maxIn.CompareAndSwap(m, n); m = s.maxIn.Load() {
	}
	if r.Method == http.MethodHead {
		s.heads.Add(1)
		if s.noHead {
			http.Error(w, "no HEAD here", http.StatusMethodNotAllowed)
			return
		}
	}
	if s.wantAuth != "" {
		u, p, ok := r.BasicAuth()
		if !ok || u+":"+p != s.wantAuth {
			http.Error(w, "who are you", http.StatusUnauthorized)
			return
		}
	}
	name := strings.TrimPrefix(r.URL.Path, "/files/")
	b, ok := s.blobs[name]
	if !ok {
		http.NotFound(w, r)
		return
	}
	s.mu.Lock()
	bad := s.corrupt[name]
	s.mu.Unlock()
	if bad {
		b = append([]byte(nil), b...)
		b[len(b)/2] ^= 0xff
	}
	time.Sleep(s.delay)
	if r.Header.Get("Range") != "" && r.Method == http.MethodGet {
		s.ranged.Add(1)
	}
	var out http.ResponseWriter = &countingWriter{w, s, 0, -1}
	if s.dropOnce != nil && r.Method == http.MethodGet {
		s.mu.Lock()
		_, end, _ := strings.Cut(r.Header.Get("Range"), "-") // a part is known by where it ends
		key := name + end
		first := !s.drops[key]
		s.drops[key] = true
		s.mu.Unlock()
		if first {
			out.(*countingWriter).cutAfter = int64(len(b) / 16)
		}
	}
	if s.noRanges {
		r.Header.Del("Range")
		w.Header().Set("Content-Length", fmt.Sprint(len(b)))
		if r.Method == http.MethodHead {
			return
		}
		_, _ = out.Write(b)
		return
	}
	http.ServeContent(out, r, name, time.Time{}, strings.NewReader(string(b)))
}

type countingWriter struct {
	http.ResponseWriter
	s        *server
	n        int64
	cutAfter int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	total := 0
	for len(p) > 0 {
		chunk := p[:min(len(p), 32<<10)]
		if c.cutAfter >= 0 && c.n+int64(len(chunk)) > c.cutAfter {
			chunk = chunk[:c.cutAfter-c.n]
			k, _ := c.ResponseWriter.Write(chunk)
			c.s.served.Add(int64(k))
			c.ResponseWriter.(http.Flusher).Flush()
			panic(http.ErrAbortHandler) // the connection drops mid-body
		}
		k, err := c.ResponseWriter.Write(chunk)
		c.n += int64(k)
		c.s.served.Add(int64(k))
		total += k
		if err != nil {
			return total, err
		}
		p = p[len(chunk):]
		if rate := c.s.rate.Load(); rate > 0 {
			time.Sleep(time.Duration(float64(len(chunk)) / float64(rate) * float64(time.Second)))
		}
	}
	return total, nil
}

func files(s *server, names ...string) []File {
	var out []File
	for _, n := range names {
		out = append(out, File{URL: s.URL + "/files/" + n, Name: n, SHA256: sum(s.blobs[n])})
	}
	return out
}

func checkDir(t *testing.T, dir string, blobs map[string][]byte) {
	t.Helper()
	for n, b := range blobs {
		got, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil || sum(got) != sum(b) {
			t.Errorf("%s: %v (sha %s want %s)", n, err, sum(got), sum(b))
		}
		for _, suf := range []string{PartSuffix, StateSuffix} {
			if _, err := os.Stat(filepath.Join(dir, n+suf)); err == nil {
				t.Errorf("%s%s left behind", n, suf)
			}
		}
	}
}

func family() map[string][]byte {
	m := map[string][]byte{"torch-2.6.0+cu126-py3-none-any.whl": blob(6<<20+12345, 1)}
	for i := 0; i < 6; i++ {
		m[fmt.Sprintf("dep%d-1.0-py3-none-any.whl", i)] = blob(100<<10+i*777, uint64(10+i))
	}
	return m
}

func names(m map[string][]byte) []string {
	var out []string
	for n := range m {
		out = append(out, n)
	}
	return out
}

func TestFetchParallelInRangePartsAndChecked(t *testing.T) {
	fam := family()
	s := newServer(t, fam)
	s.delay = 20 * time.Millisecond
	dir := t.TempDir()
	c := &Counters{}
	res, err := Fetch(context.Background(), files(s, names(fam)...), Options{Dir: dir, PartSize: 1 << 20, Connections: 6, Progress: c})
	if err != nil {
		t.Fatal(err)
	}
	checkDir(t, dir, fam)
	var total int64
	for _, b := range fam {
		total += int64(len(b))
	}
	// One byte of each file more: the ranged GET that finds the size and the range support.
	if res.Fetched != total || res.Reused != 0 || s.served.Load() != total+int64(len(fam)) || s.heads.Load() != 0 {
		t.Errorf("fetched %d reused %d served %d (%d HEAD), want %d", res.Fetched, res.Reused, s.served.Load(), s.heads.Load(), total)
	}
	st := c.Stats()
	if st.Done != total || st.Total != total || !st.SizeKnown || st.FilesDone != len(fam) || st.Files != len(fam) {
		t.Errorf("counters %+v, total %d", st, total)
	}
	for _, f := range res.Files {
		if strings.HasPrefix(f.Name, "torch") && (f.Parts != 6 || !f.Ranges) {
			t.Errorf("torch was fetched in %d parts (ranges %v), want 6", f.Parts, f.Ranges)
		}
	}
	if s.maxIn.Load() < 2 || s.ranged.Load() < 6 {
		t.Errorf("at most %d requests at once, %d ranged: not parallel", s.maxIn.Load(), s.ranged.Load())
	}

	// A second run finds every file in place and fetches nothing.
	served := s.served.Load()
	res, err = Fetch(context.Background(), files(s, names(fam)...), Options{Dir: dir})
	if err != nil || res.Fetched != 0 || res.Reused != total || s.served.Load() != served {
		t.Errorf("second run: %v, fetched %d reused %d, served %d more", err, res.Fetched, res.Reused, s.served.Load()-served)
	}
}

// Cancelled at about 60 %, the next run fetches only the missing bytes.
func TestFetchCancelledThenContinued(t *testing.T) {
	fam := family()
	s := newServer(t, fam)
	s.rate.Store(4 << 20)
	dir := t.TempDir()
	var total int64
	for _, b := range fam {
		total += int64(len(b))
	}
	ctx, cancel := context.WithCancel(context.Background())
	c := &Counters{}
	go func() {
		for c.Stats().Done < total*6/10 {
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
	}()
	res1, err := Fetch(ctx, files(s, names(fam)...), Options{Dir: dir, PartSize: 1 << 20, Connections: 4, Progress: c})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run: %v", err)
	}
	torch := "torch-2.6.0+cu126-py3-none-any.whl"
	b, err := os.ReadFile(filepath.Join(dir, torch+StateSuffix))
	if err != nil {
		t.Fatalf("no progress record after the cancel: %v", err)
	}
	var st state
	if err := json.Unmarshal(b, &st); err != nil || len(st.Parts) != 4 {
		t.Fatalf("progress record %s: %v", b, err)
	}
	s.rate.Store(0)
	res2, err := Fetch(context.Background(), files(s, names(fam)...), Options{Dir: dir, PartSize: 1 << 20, Connections: 4})
	if err != nil {
		t.Fatal(err)
	}
	checkDir(t, dir, fam)
	twice := s.served.Load() - total
	if res2.Reused+res2.Fetched != total || res2.Reused < res1.Fetched || twice > total/20 {
		t.Errorf("first run fetched %d, second reused %d and fetched %d of %d; %d bytes came twice", res1.Fetched, res2.Reused, res2.Fetched, total, twice)
	}
	t.Logf("cancelled at %d of %d bytes; the second run fetched %d; bytes fetched twice: %d", res1.Fetched, total, res2.Fetched, twice)
}

// Every part's first response is cut short: the part is asked again from where it stopped.
func TestFetchDroppedConnectionsAreContinued(t *testing.T) {
	fam := family()
	s := newServer(t, fam)
	s.dropOnce = map[string]*sync.Once{}
	dir := t.TempDir()
	var logs []string
	var mu sync.Mutex
	t0 := time.Now()
	res, err := Fetch(context.Background(), files(s, names(fam)...), Options{Dir: dir, PartSize: 1 << 20, Log: func(l string) { mu.Lock(); logs = append(logs, time.Since(t0).String()+" "+l); mu.Unlock() }})
	t.Log(strings.Join(logs, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	checkDir(t, dir, fam)
	var total int64
	for _, b := range fam {
		total += int64(len(b))
	}
	if s.served.Load() > total*11/10 || res.Fetched != total {
		t.Errorf("served %d for %d bytes (fetched %d): the retries started over", s.served.Load(), total, res.Fetched)
	}
	if len(logs) == 0 || !strings.Contains(strings.Join(logs, "\n"), "continuing from byte") {
		t.Errorf("no retry was reported: %q", logs)
	}
}

func TestFetchCorruptFileIsRefusedAndDeleted(t *testing.T) {
	fam := family()
	s := newServer(t, fam)
	bad := "dep3-1.0-py3-none-any.whl"
	s.corrupt[bad] = true
	dir := t.TempDir()
	_, err := Fetch(context.Background(), files(s, names(fam)...), Options{Dir: dir, PartSize: 1 << 20})
	if !errors.Is(err, ErrHashMismatch) || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), s.Listener.Addr().String()) {
		t.Fatalf("error %v: want a sha256 mismatch naming %s and the host", err, bad)
	}
	for _, p := range []string{bad, bad + PartSuffix, bad + StateSuffix} {
		if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
			t.Errorf("%s is still there", p)
		}
	}
	// A file in place that does not match is not trusted either: it is fetched again.
	s.mu.Lock()
	delete(s.corrupt, bad)
	s.mu.Unlock()
	if err := os.WriteFile(filepath.Join(dir, bad), []byte("not a wheel"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Fetch(context.Background(), files(s, names(fam)...), Options{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	checkDir(t, dir, fam)
}

func TestFetchWithoutRangesInOnePart(t *testing.T) {
	fam := family()
	s := newServer(t, fam)
	s.noRanges = true
	dir := t.TempDir()
	res, err := Fetch(context.Background(), files(s, names(fam)...), Options{Dir: dir, PartSize: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	checkDir(t, dir, fam)
	for _, f := range res.Files {
		if f.Ranges || f.Parts != 1 {
			t.Errorf("%s: ranges %v parts %d from a server without ranges", f.Name, f.Ranges, f.Parts)
		}
	}
}

func TestFetchNotFoundNamesFileAndHost(t *testing.T) {
	s := newServer(t, map[string][]byte{})
	_, err := Fetch(context.Background(), []File{{URL: s.URL + "/files/x-1.0-py3-none-any.whl", Name: "x-1.0-py3-none-any.whl", SHA256: strings.Repeat("a", 64)}}, Options{Dir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "x-1.0-py3-none-any.whl") || !strings.Contains(err.Error(), s.Listener.Addr().String()) || !strings.Contains(err.Error(), "404") {
		t.Fatalf("error %v", err)
	}
}

// The index URL's credentials go as basic auth, to files on the same host too, and never show.
func TestFetchCredentialsAndCertificate(t *testing.T) {
	fam := map[string][]byte{"a-1.0-py3-none-any.whl": blob(300<<10, 7)}
	s := &server{blobs: fam, corrupt: map[string]bool{}, wantAuth: "alice:s3cr3t"}
	s.Server = httptest.NewTLSServer(http.HandlerFunc(s.handle))
	t.Cleanup(s.Close)
	pemFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(pemFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: s.Certificate().Raw}), 0o644); err != nil {
		t.Fatal(err)
	}
	withCreds := strings.Replace(s.URL, "https://", "https://alice:s3cr3t@", 1)
	f := files(s, "a-1.0-py3-none-any.whl")

	// Without the certificate: refused, and the message names the host.
	_, err := Fetch(context.Background(), f, Options{Dir: t.TempDir(), Retries: -1})
	if err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("no cert: %v", err)
	}
	// Credentials from the index URL apply to its files.
	dir := t.TempDir()
	if _, err := Fetch(context.Background(), f, Options{Dir: dir, Network: Network{Cert: pemFile, Credentials: []string{withCreds + "/simple"}}}); err != nil {
		t.Fatal(err)
	}
	checkDir(t, dir, fam)
	// In the file URL itself, and a failure never shows the password.
	f[0].URL = withCreds + "/files/missing-1.0-py3-none-any.whl"
	f[0].Name = "missing-1.0-py3-none-any.whl"
	var logs []string
	_, err = Fetch(context.Background(), f, Options{Dir: t.TempDir(), Network: Network{Cert: pemFile}, Log: func(l string) { logs = append(logs, l) }})
	if err == nil || strings.Contains(err.Error(), "s3cr3t") || strings.Contains(strings.Join(logs, " "), "s3cr3t") || !strings.Contains(err.Error(), "404") {
		t.Fatalf("error %v, logs %q", err, logs)
	}
	// Wrong credentials: a 401, which pip might still get through (keyring, .netrc).
	f = files(s, "a-1.0-py3-none-any.whl")
	f[0].URL = strings.Replace(f[0].URL, "https://", "https://alice:wrong@", 1)
	_, err = Fetch(context.Background(), f, Options{Dir: t.TempDir(), Network: Network{Cert: pemFile}})
	if !errors.Is(err, ErrUnsupported) || strings.Contains(err.Error(), "wrong") || !strings.Contains(err.Error(), "401") {
		t.Fatalf("wrong password: %v", err)
	}
}

// pip's proxy setting takes every request; NO_PROXY hosts go direct.
func TestFetchThroughProxy(t *testing.T) {
	body := blob(200<<10, 9)
	var proxied atomic.Int64
	var hosts sync.Map
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		proxied.Add(1)
		hosts.Store(r.Host, true)
		if u, p, _ := strings.Cut(r.Header.Get("Proxy-Authorization"), " "); u != "Basic" || p == "" {
			http.Error(w, "proxy auth", http.StatusProxyAuthRequired)
			return
		}
		http.ServeContent(w, r, "x", time.Time{}, strings.NewReader(string(body)))
	}))
	t.Cleanup(proxy.Close)
	proxyURL := strings.Replace(proxy.URL, "http://", "http://bob:pw@", 1)
	f := []File{{URL: "http://wheels.invalid/files/p-1.0-py3-none-any.whl", Name: "p-1.0-py3-none-any.whl", SHA256: sum(body)}}
	dir := t.TempDir()
	if _, err := Fetch(context.Background(), f, Options{Dir: dir, Network: Network{Proxy: netproxy.New(netproxy.Settings{Pip: proxyURL, Environ: []string{}})}}); err != nil {
		t.Fatal(err)
	}
	if _, ok := hosts.Load("wheels.invalid"); !ok || proxied.Load() < 2 {
		t.Errorf("the proxy saw %d requests", proxied.Load())
	}
	// HTTP_PROXY from the environment, when pip has no proxy setting.
	n := proxied.Load()
	if _, err := Fetch(context.Background(), f, Options{Dir: t.TempDir(), Network: Network{Proxy: netproxy.New(netproxy.Settings{Environ: []string{"HTTP_PROXY=" + proxyURL}})}}); err != nil || proxied.Load() == n {
		t.Fatalf("HTTP_PROXY: %v (%d requests)", err, proxied.Load()-n)
	}
	// pip's proxy setting ignores NO_PROXY (pip sets trust_env = False with --proxy: pypa/pip
	// src/pip/_internal/cli/index_command.py); with the environment's proxy, NO_PROXY sends the host
	// straight on, and it does not resolve: the error says which.
	n = proxied.Load()
	if _, err := Fetch(context.Background(), f, Options{Dir: t.TempDir(), Network: Network{Proxy: netproxy.New(netproxy.Settings{Pip: proxyURL, Environ: []string{"NO_PROXY=wheels.invalid"}})}}); err != nil || proxied.Load() == n {
		t.Fatalf("pip's proxy with NO_PROXY: %v (%d proxied)", err, proxied.Load()-n)
	}
	n = proxied.Load()
	_, err := Fetch(context.Background(), f, Options{Dir: t.TempDir(), Retries: -1, Network: Network{Proxy: netproxy.New(netproxy.Settings{Environ: []string{"HTTP_PROXY=" + proxyURL, "NO_PROXY=wheels.invalid"}})}})
	if err == nil || proxied.Load() != n || !strings.Contains(err.Error(), "wheels.invalid") || strings.Contains(err.Error(), ":pw@") {
		t.Fatalf("NO_PROXY: %v (%d proxied)", err, proxied.Load()-n)
	}
	// No variable at all: the Windows system proxy (read from the registry there; given here).
	n = proxied.Load()
	sys := &netproxy.System{Enable: true, Server: "https=127.0.0.1:1;http=" + strings.TrimPrefix(proxyURL, "http://"), Override: "<local>;*.example.com"}
	if _, err := Fetch(context.Background(), f, Options{Dir: t.TempDir(), Network: Network{Proxy: netproxy.New(netproxy.Settings{Environ: []string{}, System: sys})}}); err != nil || proxied.Load() == n {
		t.Fatalf("system proxy: %v (%d requests)", err, proxied.Load()-n)
	}
	if got := (Network{Proxy: netproxy.New(netproxy.Settings{Pip: proxyURL})}).ProxyInUse(f[0].URL); !strings.Contains(got, "***@") {
		t.Errorf("ProxyInUse %q", got)
	}
}

func TestFetchRefusesBadInput(t *testing.T) {
	for _, f := range []File{
		{URL: "http://127.0.0.1/x.whl", Name: "../x.whl", SHA256: strings.Repeat("a", 64)},
		{URL: "http://127.0.0.1/x.whl", Name: "x.whl", SHA256: "abc"},
		{URL: "file:///tmp/x.whl", Name: "x.whl", SHA256: strings.Repeat("a", 64)},
	} {
		if _, err := Fetch(context.Background(), []File{f}, Options{Dir: t.TempDir()}); err == nil {
			t.Errorf("%+v accepted", f)
		}
	}
	_, err := Fetch(context.Background(), []File{{URL: "file:///tmp/x.whl", Name: "x.whl", SHA256: strings.Repeat("a", 64)}}, Options{Dir: t.TempDir()})
	if !errors.Is(err, ErrUnsupported) {
		t.Errorf("file URL: %v, want ErrUnsupported", err)
	}
}
