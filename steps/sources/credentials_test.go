package sources

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"
	"time"
)

// The package-source check uses the credentials a source's URL carries (the index wants them) and
// shows them nowhere: not in the result's words, the candidate's Where line, or the
// refusal of a URL typed into the wizard's custom-source field.
func TestProbeUsesCredentialsButNeverShowsThem(t *testing.T) {
	idx := serveFake(t, 0, map[string][]string{"cu126": {goodWheel}})
	target, _ := url.Parse(idx.URL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	var refused int
	auth := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); !ok || u != "user" || p != "SECRET" {
			refused++
			http.Error(w, "credentials, please", http.StatusUnauthorized)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(auth.Close)
	withCreds := strings.Replace(auth.URL, "http://", "http://user:SECRET@", 1)
	good, err := Custom(withCreds + "/whl/cu126")
	if err != nil {
		t.Fatal(err)
	}
	missing, _ := Custom(withCreds + "/whl/cu999")
	wrong, _ := Custom(strings.Replace(withCreds, "SECRET", "WRONG-SECRET", 1) + "/whl/cu126")
	res := Probe(context.Background(), []Candidate{good, missing, wrong}, build126, Options{Timeout: 5 * time.Second, Net: proxyRules("")})
	if !res[0].Usable() || res[1].Usable() || res[2].Usable() {
		t.Fatalf("with the credentials the index has the build, without it refuses: %+v", res)
	}
	for _, r := range res {
		if strings.Contains(r.Why, "SECRET") || strings.Contains(r.Candidate.Where(), "SECRET") || strings.Contains(r.Proxy, "SECRET") {
			t.Errorf("a result shows the secret: %+v (%s)", r, r.Candidate.Where())
		}
		if !strings.Contains(r.Candidate.IndexURL+r.Candidate.URL, "SECRET") {
			t.Errorf("the candidate lost the credentials it needs for pip: %+v", r.Candidate)
		}
	}
	if !strings.Contains(res[0].Candidate.Where(), "***@127.0.0.1") {
		t.Errorf("Where: %q", res[0].Candidate.Where())
	}
	for _, typed := range []string{"http://user:SECRET@mirror.example/whl", "ftp://user:SECRET@mirror.example/whl", "user:SECRET@mirror.example/whl"} {
		if _, err := Custom(typed); err == nil || strings.Contains(err.Error(), "SECRET") || !strings.Contains(err.Error(), "***@mirror.example") {
			t.Errorf("Custom(%q): %v", typed, err)
		}
	}
}
