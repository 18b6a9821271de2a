package sources

import (
	"context"
	"fmt"
	"gpuwiz/steps/netproxy"
	"gpuwiz/steps/testkit/pyindex"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// serveFake is the test kit's loopback index (steps/testkit/pyindex) listing files by name: PEP 503
// project pages under /whl/<channel>/<project>/, a flat page of every wheel at /flat/<channel>/, a
// PyPI-style /simple/pip/ for dependencies, and delay before every answer (a slow mirror).
func serveFake(t *testing.T, delay time.Duration, files map[string][]string) *pyindex.Index {
	channels := map[string][]string{"simple": {"pip-25.3-py3-none-any.whl"}}
	for ch, names := range files {
		channels[ch] = names
	}
	return pyindex.ServeNamesWith(t, channels, pyindex.Network{Latency: delay})
}

// proxyRules are the proxy rules of pip's setting pip and the variables environ, and no others.
func proxyRules(pip string, environ ...string) *netproxy.Resolver {
	return netproxy.New(netproxy.Settings{Pip: pip, Environ: append([]string{}, environ...)})
}

var build126 = Build{Project: "torch", Version: "2.6.0+cu126", Python: "3.12", GOOS: "linux", GOARCH: "amd64"}

const goodWheel = "torch-2.6.0+cu126-cp312-cp312-manylinux_2_28_x86_64.whl"

// The three loopback indexes of the wizard's package-source step: one slow (answers after the
// timeout), one missing the build, one good; the good one is proposed.
func TestProbeSlowMissingGoodProposesGood(t *testing.T) {
	timeout := 300 * time.Millisecond
	slow := serveFake(t, 20*timeout, map[string][]string{"cu126": {goodWheel}})
	missing := serveFake(t, 0, map[string][]string{"cu126": {"torch-2.6.0+cu118-cp312-cp312-manylinux_2_28_x86_64.whl", "torch-2.5.1+cu126-cp312-cp312-manylinux_2_28_x86_64.whl"}})
	good := serveFake(t, 0, map[string][]string{"cu126": {"torch-2.6.0+cu126-cp311-cp311-manylinux_2_28_x86_64.whl", goodWheel, "torchvision-0.21.0+cu126-cp312-cp312-manylinux_2_28_x86_64.whl"}})
	cands := []Candidate{
		{ID: "official", Kind: KindOfficial, IndexURL: missing.URL + "/whl/cu126"},
		{ID: "slow", Kind: KindIndex, IndexURL: slow.URL + "/whl/cu126"},
		{ID: "good", Kind: KindFlat, FindLinks: good.URL + "/flat/cu126/", Mirror: good.URL + "/simple"},
	}
	res := Probe(context.Background(), cands, build126, Options{Timeout: timeout, Net: proxyRules("")})
	if len(res) != 3 {
		t.Fatalf("got %d results", len(res))
	}
	off, sl, gd := res[0], res[1], res[2]
	if !off.Answers || off.HasBuild || !strings.Contains(off.Why, "has torch but not 2.6.0+cu126") {
		t.Errorf("missing-build index: %+v", off)
	}
	if sl.Answers || sl.HasBuild || !strings.Contains(sl.Why, "no answer within 300ms") || !strings.Contains(sl.Why, "no proxy is set") {
		t.Errorf("slow index: %+v", sl)
	}
	if !gd.Usable() || gd.File != goodWheel || gd.Why != "" {
		t.Errorf("good flat page: %+v", gd)
	}
	if got := Propose(res); got != 2 {
		t.Fatalf("proposed %d, want the good one (2): %+v", got, res)
	}
	if good.Hits("/simple/pip/") != 1 {
		t.Errorf("the flat page's dependency index was asked %d times", good.Hits("/simple/pip/"))
	}
}

// Every probe starts at once: the server answers nobody until all three requests have arrived, so
// probes made one after another would all time out.
func TestProbeRunsAllAtOnce(t *testing.T) {
	const n = 3
	var arrived sync.WaitGroup
	arrived.Add(n)
	all := make(chan struct{})
	go func() { arrived.Wait(); close(all) }()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived.Done()
		select {
		case <-all:
		case <-r.Context().Done():
			return
		}
		fmt.Fprintf(w, `<a href="/x/%s">x</a>`, strings.ReplaceAll(goodWheel, "+", "%2B"))
	}))
	defer srv.Close()
	var cands []Candidate
	for i := range n {
		cands = append(cands, Candidate{ID: fmt.Sprint(i), Kind: KindIndex, IndexURL: fmt.Sprintf("%s/i%d", srv.URL, i)})
	}
	for i, r := range Probe(context.Background(), cands, build126, Options{Timeout: 5 * time.Second, Net: proxyRules("")}) {
		if !r.Usable() {
			t.Errorf("candidate %d: %+v", i, r)
		}
	}
}

// Paddle's mirror candidates all take paddlepaddle-gpu from the official index: its page is
// fetched once, and each mirror is asked for a small project page.
func TestProbeDepsMirrorsShareTheOfficialPage(t *testing.T) {
	off := serveFake(t, 0, map[string][]string{"paddle-cu126": {"paddlepaddle_gpu-3.0.0-cp312-cp312-manylinux1_x86_64.whl"}})
	m1 := serveFake(t, 0, nil)
	m2 := serveFake(t, 0, nil)
	l := &List{Sources: []Entry{
		{ID: "m1", Name: "one", Frameworks: []string{"paddle"}, Layout: KindDeps, URL: m1.URL + "/simple"},
		{ID: "m2", Name: "two", Frameworks: []string{"paddle"}, Layout: KindDeps, URL: m2.URL + "/simple/"},
		{ID: "t", Name: "torch only", Frameworks: []string{"torch"}, Layout: KindIndex, URL: "https://example.invalid/{channel}"},
	}}
	cands := l.For("paddle", "cu126", off.URL+"/whl/paddle-cu126/")
	if len(cands) != 3 || cands[0].Kind != KindOfficial || cands[1].Mirror != m1.URL+"/simple" {
		t.Fatalf("candidates: %+v", cands)
	}
	b := Build{Project: "paddlepaddle-gpu", Version: "3.0.0", Python: "3.12", GOOS: "linux", GOARCH: "amd64"}
	res := Probe(context.Background(), cands, b, Options{Net: proxyRules("")})
	for i, r := range res {
		if !r.Usable() {
			t.Errorf("candidate %d: %+v", i, r)
		}
	}
	if got := off.Hits("/whl/paddle-cu126/paddlepaddle-gpu/"); got != 1 {
		t.Errorf("the official project page was fetched %d times, want once", got)
	}
	if m1.Hits("/simple/pip/") != 1 || m2.Hits("/simple/pip/") != 1 {
		t.Errorf("mirrors asked %d and %d times", m1.Hits("/simple/pip/"), m2.Hits("/simple/pip/"))
	}
}

func TestProbeWrongPythonOrOSSaysWhatIsThere(t *testing.T) {
	ix := serveFake(t, 0, map[string][]string{"cu126": {"torch-2.6.0+cu126-cp310-cp310-win_amd64.whl", "torch-2.6.0+cu126-cp312-cp312-win_amd64.whl"}})
	c := []Candidate{{ID: "x", Kind: KindIndex, IndexURL: ix.URL + "/whl/cu126"}}
	r := Probe(context.Background(), c, build126, Options{Net: proxyRules("")})[0]
	if r.HasBuild || !strings.Contains(r.Why, "no wheel for Python 3.12 on Linux/amd64") || !strings.Contains(r.Why, "cp312-win_amd64") {
		t.Fatalf("%+v", r)
	}
	win := build126
	win.GOOS = "windows"
	if r := Probe(context.Background(), c, win, Options{Net: proxyRules("")})[0]; !r.Usable() || r.File != "torch-2.6.0+cu126-cp312-cp312-win_amd64.whl" {
		t.Fatalf("windows: %+v", r)
	}
}

func TestProbeCustomURLFindsItsLayout(t *testing.T) {
	ix := serveFake(t, 0, map[string][]string{"cu126": {goodWheel}})
	flat, _ := Custom(ix.URL + "/flat/cu126/")
	index, _ := Custom(ix.URL + "/whl/cu126")
	empty, _ := Custom(ix.URL + "/whl/cu999")
	res := Probe(context.Background(), []Candidate{flat, index, empty}, build126, Options{Net: proxyRules("")})
	if r := res[0]; !r.Usable() || r.Candidate.FindLinks != flat.URL || r.Candidate.IndexURL != "" {
		t.Errorf("flat page: %+v", r)
	}
	if r := res[1]; !r.Usable() || r.Candidate.IndexURL != index.URL || r.Candidate.FindLinks != "" {
		t.Errorf("index: %+v", r)
	}
	if r := res[2]; r.Usable() || !r.Answers || r.Why == "" {
		t.Errorf("empty: %+v", r)
	}
	if _, err := Custom("http://mirror.example.org/simple"); err == nil || !strings.Contains(err.Error(), "use https") {
		t.Errorf("plain http to a remote host: %v", err)
	}
	if _, err := Custom("not a url"); err == nil {
		t.Error("accepted 'not a url'")
	}
}

func closedPort(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// An unreachable source says whether a proxy is in the way, naming it without its password.
func TestProbeUnreachableNamesTheProxyRedacted(t *testing.T) {
	proxy := "http://alice:s3cret@" + closedPort(t)
	c := []Candidate{{ID: "m", Kind: KindIndex, IndexURL: "https://mirror.example.invalid/whl/cu126"}}
	r := Probe(context.Background(), c, build126, Options{Net: proxyRules("", "HTTPS_PROXY="+proxy)})[0]
	if r.Answers || !strings.Contains(r.Why, "through the proxy http://***@127.0.0.1:") || !strings.Contains(r.Why, "from HTTPS_PROXY") ||
		!strings.Contains(r.Why, "the proxy cannot be reached") {
		t.Fatalf("%+v", r)
	}
	if strings.Contains(r.Why+r.Proxy, "s3cret") || strings.Contains(r.Why+r.Proxy, "alice") {
		t.Fatalf("the proxy's credentials leak: %+v", r)
	}
	// pip's own setting wins over the environment.
	r = Probe(context.Background(), c, build126, Options{Net: proxyRules(proxy, "HTTPS_PROXY=http://other:1")})[0]
	if !strings.Contains(r.Proxy, "pip's proxy setting") || !strings.Contains(r.Why, "127.0.0.1") {
		t.Fatalf("pip proxy: %+v", r)
	}
	// NO_PROXY takes the host off the proxy; the message says so.
	r = Probe(context.Background(), c, build126, Options{Net: proxyRules("", "HTTPS_PROXY="+proxy, "NO_PROXY=.example.invalid")})[0]
	if r.Proxy != "" || !strings.Contains(r.Why, "not through the proxy") {
		t.Fatalf("NO_PROXY: %+v", r)
	}
}

func TestProbeUnreachableWithoutProxySaysNoneIsSet(t *testing.T) {
	c := []Candidate{{ID: "m", Kind: KindIndex, IndexURL: "http://" + closedPort(t) + "/whl/cu126"}}
	r := Probe(context.Background(), c, build126, Options{Net: proxyRules("")})[0]
	if r.Answers || !strings.Contains(r.Why, "refused the connection") || !strings.Contains(r.Why, "no proxy is set") {
		t.Fatalf("%+v", r)
	}
	// The places a proxy is looked for are this system's: the system proxy only on Windows.
	if strings.Contains(r.Why, "Windows") != (runtime.GOOS == "windows") {
		t.Errorf("on %s the message names the Windows system proxy or lacks it: %s", runtime.GOOS, r.Why)
	}
}

// A proxy that refuses CONNECT is named as the place it failed.
func TestProbeProxyRefusingConnect(t *testing.T) {
	px := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Proxy-Authenticate", `Basic realm="corp"`)
		http.Error(w, "auth", http.StatusProxyAuthRequired)
	}))
	defer px.Close()
	c := []Candidate{{ID: "m", Kind: KindIndex, IndexURL: "https://mirror.example.invalid/whl/cu126"}}
	r := Probe(context.Background(), c, build126, Options{Net: proxyRules("", "https_proxy="+px.URL)})[0]
	if r.Answers || !strings.Contains(r.Why, "through the proxy "+px.URL) || !strings.Contains(r.Why, "Proxy Authentication Required") {
		t.Fatalf("%+v", r)
	}
}

func TestCredentialsInSourceURLsAreRedacted(t *testing.T) {
	ix := serveFake(t, 0, nil)
	u := strings.Replace(ix.URL, "http://", "http://bob:tok3n@", 1) + "/whl/cu126"
	c := []Candidate{{ID: "m", Kind: KindIndex, IndexURL: u}, {ID: "f", Kind: KindFlat, FindLinks: u + "/", Mirror: u + "?token=abc"}}
	for _, r := range Probe(context.Background(), c, build126, Options{Net: proxyRules("")}) {
		text := r.Why + r.Candidate.Where()
		if r.Why == "" || strings.Contains(text, "tok3n") || strings.Contains(text, "bob") || strings.Contains(text, "abc") {
			t.Errorf("%q", text)
		}
	}
}

func TestProposeFastestUsableFirstOnTies(t *testing.T) {
	ms := time.Millisecond
	res := []Result{
		{Answers: true, HasBuild: true, Elapsed: 90 * ms},
		{Answers: true, HasBuild: false, Elapsed: 5 * ms},
		{Answers: true, HasBuild: true, Elapsed: 40 * ms},
		{Answers: true, HasBuild: true, Elapsed: 40 * ms},
	}
	if got := Propose(res); got != 2 {
		t.Fatalf("proposed %d, want 2", got)
	}
	if got := Propose([]Result{{Answers: false}, {Answers: true}}); got != -1 {
		t.Fatalf("proposed %d with nothing usable", got)
	}
}

// A mirror that sends the request on to another host (as some mirrors send pip back to the
// official one) is named with the host that answered.
func TestProbeNamesTheHostARedirectLeadsTo(t *testing.T) {
	good := serveFake(t, 0, map[string][]string{"cu126": {goodWheel}})
	mirror := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, good.URL+r.URL.Path, http.StatusFound)
	}))
	defer mirror.Close()
	c := []Candidate{{ID: "m", Kind: KindIndex, IndexURL: mirror.URL + "/whl/cu126"}, {ID: "g", Kind: KindIndex, IndexURL: good.URL + "/whl/cu126"}}
	res := Probe(context.Background(), c, build126, Options{Net: proxyRules("")})
	if !res[0].Usable() || res[0].Redirected != strings.TrimPrefix(good.URL, "http://") {
		t.Fatalf("redirected: %+v", res[0])
	}
	if res[1].Redirected != "" {
		t.Fatalf("not redirected: %+v", res[1])
	}
}

// A plain directory listing (what several mirrors of PyTorch's wheels serve) works as a flat page;
// a dependency index that refuses (403) makes the source unusable.
func TestProbeDirectoryListingAsFlatPage(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{goodWheel, "torch-2.6.0+cu126-cp312-cp312-win_amd64.whl", "torchvision-0.21.0+cu126-cp312-cp312-manylinux_2_28_x86_64.whl"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files := httptest.NewServer(http.StripPrefix("/pytorch-wheels/cu126/", http.FileServer(http.Dir(dir))))
	defer files.Close()
	pypi := serveFake(t, 0, nil)
	refusing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no", http.StatusForbidden) }))
	defer refusing.Close()
	c := []Candidate{
		{ID: "ok", Kind: KindFlat, FindLinks: files.URL + "/pytorch-wheels/cu126/", Mirror: pypi.URL + "/simple/"},
		{ID: "deps404", Kind: KindFlat, FindLinks: files.URL + "/pytorch-wheels/cu126/", Mirror: pypi.URL + "/other/"},
		{ID: "deps403", Kind: KindFlat, FindLinks: files.URL + "/pytorch-wheels/cu126/", Mirror: refusing.URL + "/simple/"},
	}
	res := Probe(context.Background(), c, build126, Options{Net: proxyRules("")})
	if !res[0].Usable() || res[0].File != goodWheel {
		t.Errorf("directory listing: %+v", res[0])
	}
	if !res[1].Usable() {
		t.Errorf("a dependency index without pip still answers: %+v", res[1])
	}
	if res[2].Usable() || !strings.Contains(res[2].Why, "the dependency index answers 403 Forbidden") {
		t.Errorf("refusing dependency index: %+v", res[2])
	}
}

// A mirror whose page links the wheels on another host (mirrored index pages often point at
// download-r2.pytorch.org): it is named, and a source that serves its own wheels is proposed first
// even when the mirror's page answers faster.
func TestProbeNamesTheHostTheWheelsAreLinkedOn(t *testing.T) {
	good := serveFake(t, 150*time.Millisecond, map[string][]string{"cu126": {goodWheel}})
	mirror := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<html><body><a href="%s/whl/%s#sha256=00">%s</a></body></html>`, good.URL, strings.ReplaceAll(goodWheel, "+", "%2B"), goodWheel)
	}))
	defer mirror.Close()
	c := []Candidate{{ID: "m", Kind: KindIndex, IndexURL: mirror.URL + "/whl/cu126"}, {ID: "g", Kind: KindIndex, IndexURL: good.URL + "/whl/cu126"}}
	res := Probe(context.Background(), c, build126, Options{Net: proxyRules("")})
	if !res[0].Usable() || res[0].WheelsFrom != strings.TrimPrefix(good.URL, "http://") {
		t.Fatalf("the mirror: %+v", res[0])
	}
	if res[1].WheelsFrom != "" {
		t.Fatalf("the source itself: %+v", res[1])
	}
	if p := Propose(res); p != 1 {
		t.Errorf("proposed %d, want the source that serves its own wheels", p)
	}
}
