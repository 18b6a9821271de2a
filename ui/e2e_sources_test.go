package ui

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"gpuwiz/steps/testkit/pyindex"
)

// slowIndex answers like ix, but only after delay: a mirror that carries the build and is too slow
// to use. A request given up before then is not passed on.
func slowIndex(t *testing.T, ix *pyindex.Index, delay time.Duration) string {
	t.Helper()
	target, _ := url.Parse(ix.URL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(delay):
			proxy.ServeHTTP(w, r)
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// The package-source step against three loopback indexes: the channel's official index (the
// matrix's) lacks the build, one mirror carries it but answers after the probe's timeout, one
// carries it and answers at once. The wizard proposes the good one, the install takes every wheel
// from it, and the other two serve none.
func TestE2EPackageSourcePicksTheGoodMirrorInTmux(t *testing.T) {
	needTmux(t)
	dir := t.TempDir()
	wheels := filepath.Join(dir, "wheels")
	missing := pyindex.Serve(t, map[string][]string{ // "cu126" holds only the cu118 build
		"cu126": torchWheels(t, filepath.Join(wheels, "cu118"), "cu118", "11.8", 0)})
	good126 := torchWheels(t, filepath.Join(wheels, "cu126"), "cu126", "12.6", 0)
	good := pyindex.Serve(t, map[string][]string{"cu126": good126})
	slowBehind := pyindex.Serve(t, map[string][]string{"cu126": good126})
	slow := slowIndex(t, slowBehind, 20*time.Second)

	rig, _ := filepath.Abs(filepath.Join("testdata", "e2e", "rig-rtx3060.json"))
	r := &e2eRig{dir: dir, bin: buildBinary(t), matrix: writeMatrix(t, dir, missing.URL), rig: rig, env: append(pipEnv(t), "TERM=xterm-256color", "XDG_CACHE_HOME="+filepath.Join(dir, "cache")),
		sources: filepath.Join(dir, "sources.toml")}
	list := "schema = 1\n" +
		"[[source]]\nid = \"slow\"\nname = \"slow mirror\"\nframeworks = [\"torch\"]\nlayout = \"index\"\nurl = \"" + slow + "/whl/{channel}\"\nseen = \"a test\"\n" +
		"[[source]]\nid = \"good\"\nname = \"good mirror\"\nframeworks = [\"torch\"]\nlayout = \"index\"\nurl = \"" + good.URL + "/whl/{channel}\"\nseen = \"a test\"\n"
	if err := os.WriteFile(r.sources, []byte(list), 0o644); err != nil {
		t.Fatal(err)
	}
	s := r.start(t)
	venv := filepath.Join(dir, "venvs", "torch")
	newSetupToSources(t, s, venv)
	scr := s.Screen()
	t.Logf("the package-source screen:\n%s", scr)
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`cu126 index on this computer +✗ no such build`),
		regexp.MustCompile(`slow mirror +✗ too slow`),
		regexp.MustCompile(`▸ ★ good mirror +✓ has this build +\d+ ms`),
		regexp.MustCompile(`carries torch-2\.6\.0\+cu126-py3-none-any\.whl`),
	} {
		if !want.MatchString(scr) {
			t.Fatalf("the package-source screen lacks %q:\n%s", want, scr)
		}
	}
	// The official row's reason, shown when it is selected; then back to the proposed one.
	s.Keys("Up")
	s.Keys("Up")
	s.WaitFor("has torch but not 2.6.0+cu126", 15*time.Second)
	s.Keys("Down")
	s.Keys("Down")
	s.WaitFor("carries torch-2.6.0+cu126", 15*time.Second)
	s.Keys("Enter")
	scr = s.WaitFor("Run this plan?", 60*time.Second, "Cannot make a plan")
	if !strings.Contains(scr, "packages from good mirror") {
		t.Fatalf("the plan does not say where packages come from:\n%s", scr)
	}
	s.Keys("y")
	s.WaitFor("Press enter to verify", 180*time.Second, "Install failed", "Cancelled", "damaged")
	finishVerifiedInstall(s)

	got := strings.TrimSpace(run(t, r.env, filepath.Join(venv, "bin", "python"), "-c", "import torch; print(torch.__version__)"))
	if got != "2.6.0+cu126" {
		t.Fatalf("venv holds torch %q, want 2.6.0+cu126", got)
	}
	for _, w := range good126 {
		if n := good.Requests(filepath.Base(w)); n != 1 {
			t.Errorf("the good mirror served %s %d times, want once", filepath.Base(w), n)
		}
	}
	if n := missing.TotalRequests(); n != 0 {
		t.Errorf("the official index (without the build) served %d wheels", n)
	}
	if n := slowBehind.TotalRequests(); n != 0 {
		t.Errorf("the slow mirror served %d wheels", n)
	}
}
