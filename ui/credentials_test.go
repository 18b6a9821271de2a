package ui

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"gpuwiz/matrix"
	"gpuwiz/steps/app"
	"gpuwiz/steps/testkit/pyindex"
)

// credBackend is the fake journey up to the package-source screen, and the real steps backend for
// the sources check and the plan, for one real build on real loopback indexes and the real Python.
type credBackend struct {
	*fakeBackend
	real         App
	cand         matrix.Candidate
	python, venv string
}

func (b credBackend) Sources(ctx context.Context, req app.SourcesRequest) (app.SourcesReport, error) {
	req.Candidate, req.Python, req.Venv = b.cand, b.python, b.venv
	return b.real.Sources(ctx, req)
}

func (b credBackend) Plan(ctx context.Context, req app.PlanRequest) (app.Plan, error) {
	req.Candidate, req.Python, req.Venv = b.cand, b.python, b.venv
	return b.real.Plan(ctx, req)
}

// The wizard's custom-source field takes a URL with user:SECRET@: the check uses the credentials
// (the index refuses requests without them, and the URL comes back usable), and no screen shows
// them: the sources screen after the check, the --sources list's entry with credentials, and the
// plan made from the choice (its build line, source and commands).
func TestCustomSourceWithCredentialsIsUsedButNeverShown(t *testing.T) {
	dir := t.TempDir()
	good := pyindex.Serve(t, map[string][]string{"cu126": {buildWheel(t, dir, "torch", "2.6.0+cu126", nil, 0)}})
	missing := pyindex.Serve(t, map[string][]string{"cu126": {buildWheel(t, filepath.Join(dir, "old"), "torch", "2.5.1+cu126", nil, 0)}})
	var authorized atomic.Int64
	auth := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); !ok || u != "user" || p != "SECRET" {
			http.Error(w, "credentials, please", http.StatusUnauthorized)
			return
		}
		authorized.Add(1)
		r2 := r.Clone(r.Context())
		r2.URL.Scheme, r2.URL.Host, r2.RequestURI = "http", strings.TrimPrefix(good.URL, "http://"), ""
		resp, err := http.DefaultTransport.RoundTrip(r2)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		_, _ = io.Copy(w, resp.Body)
	}))
	t.Cleanup(auth.Close)
	withCreds := strings.Replace(auth.URL, "http://", "http://user:SECRET@", 1)
	list := filepath.Join(dir, "sources.toml")
	writeFileT(t, list, "schema = 1\n[[source]]\nid = \"listed\"\nname = \"listed mirror with a password\"\nframeworks = [\"torch\"]\nlayout = \"index\"\nurl = \""+withCreds+"/whl/{channel}\"\nseen = \"a test\"\n")
	b := credBackend{fakeBackend: newFakeBackend(), real: app.NewWizard(&app.Env{G: &app.Globals{SourcesFile: list}}), python: pyindex.Python(t), venv: filepath.Join(dir, "venv"),
		cand: matrix.Candidate{Framework: "torch", FrameworkVersion: "2.6.0", Channel: "cu126", IndexURL: missing.ChannelURL("cu126"), Compatible: true,
			Packages: []matrix.Package{{Name: "torch", Version: "2.6.0", LocalLabel: "+cu126"}}}}
	m := newTestRoot(b)
	press(t, m, "enter", "enter", "enter", "enter")
	clearInput(t, m, 20)
	typeText(t, m, "/work/new")
	press(t, m, "enter")
	s := topIs[*sourcesScreen](t, m)
	noSecret := func(where string) {
		t.Helper()
		if v := m.View(); strings.Contains(v, "SECRET") {
			t.Fatalf("%s shows the secret:\n%s", where, v)
		}
	}
	noSecret("the sources screen")
	if s.report == nil || len(s.report.Sources) != 2 || !s.report.Sources[1].Usable() {
		t.Fatalf("the listed source with credentials: %+v", s.report)
	}
	for !s.onInput() {
		press(t, m, "down")
	}
	typeText(t, m, withCreds+"/whl/cu126")
	press(t, m, "enter")
	noSecret("the sources screen after the typed URL's check")
	if s.custom == nil || !s.custom.Usable() || authorized.Load() == 0 {
		t.Fatalf("the typed URL with credentials: %+v (%d authorized requests)", s.custom, authorized.Load())
	}
	mustContain(t, m.View(), "***@127.0.0.1")
	press(t, m, "enter")
	ps := topIs[*planScreen](t, m)
	if ps.req.IndexURL != withCreds+"/whl/cu126" {
		t.Fatalf("the plan is not made from the typed URL with its credentials: %+v", ps.req)
	}
	noSecret("the plan screen")
	body := ps.body()
	if strings.Contains(body, "SECRET") || !strings.Contains(body, "--index-url http://***@127.0.0.1") {
		t.Fatalf("the plan's whole text (all its commands):\n%s", body)
	}
	if !strings.Contains(strings.Join(commandLines(*ps.plan), "\n"), "--index-url "+withCreds) {
		t.Fatalf("the plan's commands do not carry the credentials pip needs:\n%s", strings.Join(commandLines(*ps.plan), "\n"))
	}
	for i := 0; i < 40; i++ {
		press(t, m, "down")
		noSecret("the plan screen, scrolled")
	}
}
