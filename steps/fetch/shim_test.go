package fetch

import (
	"archive/zip"
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestShimRewritesWheelLinksAndServesStubs(t *testing.T) {
	meta := "Metadata-Version: 2.1\nName: torch\nVersion: 2.6.0+cu126\nRequires-Dist: filelock\n"
	sha := strings.Repeat("ab", 32)
	var sawAuth bool
	prefetched := make(chan string, 4)
	idx := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); ok && u == "me" && p == "tok" {
			sawAuth = true
		} else {
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		switch r.URL.Path {
		case "/whl/cu126/torch/":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, `<html><body>
<a href="../torch-2.6.0%2Bcu126-cp311-cp311-linux_x86_64.whl#sha256=`+sha+`" data-requires-python="&gt;=3.9" data-dist-info-metadata="sha256=x" data-core-metadata="sha256=x">torch-2.6.0+cu126-cp311-cp311-linux_x86_64.whl</a><br/>
<a href="/whl/torch-2.5.0-cp311-cp311-linux_x86_64.whl#sha256=`+sha+`">torch-2.5.0-cp311-cp311-linux_x86_64.whl</a>
<a href="../torch-2.6.0.tar.gz">torch-2.6.0.tar.gz</a>
</body></html>`)
		case "/whl/cu126/torch-2.6.0+cu126-cp311-cp311-linux_x86_64.whl.metadata":
			io.WriteString(w, meta)
		case "/whl/cu126/filelock/":
			prefetched <- r.URL.Path
			io.WriteString(w, "<html></html>")
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(idx.Close)
	index := strings.Replace(idx.URL, "http://", "http://me:tok@", 1) + "/whl/cu126"
	s, err := StartShim(Network{}, []string{index}, ShimOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	get := func(u string) string { return getOK(t, u) }
	page := get(s.IndexURL(0) + "/torch/")
	if !sawAuth || strings.Contains(page, "tok") {
		t.Fatalf("credentials: used %v; page shows them: %s", sawAuth, page)
	}
	base := s.IndexURL(0)[:strings.Index(s.IndexURL(0), "/i/")]
	stubURL := base + "/f/0/torch-2.6.0+cu126-cp311-cp311-linux_x86_64.whl"
	if !strings.Contains(page, `href="`+stubURL+`"`) || !strings.Contains(page, `data-requires-python="&gt;=3.9"`) || !strings.Contains(page, "data-core-metadata") {
		t.Errorf("the wheel with metadata is not the shim's, or lost its attributes:\n%s", page)
	}
	if !strings.Contains(page, `href="`+base+`/f/1/torch-2.5.0-cp311-cp311-linux_x86_64.whl" data-dist-info-metadata="true" data-core-metadata="true"`) || !strings.Contains(page, `href="`+idx.URL+"/whl/cu126/torch-2.6.0.tar.gz") {
		t.Errorf("a wheel without metadata is the shim's, marked as having it (read out of the wheel), an sdist stays real:\n%s", page)
	}
	if got := get(stubURL + ".metadata"); got != meta {
		t.Errorf("metadata %q", got)
	}
	stub := get(stubURL)
	zr, err := zip.NewReader(bytes.NewReader([]byte(stub)), int64(len(stub)))
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]string{}
	for _, f := range zr.File {
		rc, _ := f.Open()
		b, _ := io.ReadAll(rc)
		rc.Close()
		found[f.Name] = string(b)
	}
	if found["torch-2.6.0+cu126.dist-info/METADATA"] != meta || !strings.Contains(found["torch-2.6.0+cu126.dist-info/WHEEL"], "Tag: cp311-cp311-linux_x86_64") || len(stub) > 4096 {
		t.Errorf("stub (%d bytes): %v", len(stub), found)
	}
	real, gotSHA, ok := s.Lookup(stubURL)
	if !ok || gotSHA != sha || real != idx.URL+"/whl/cu126/torch-2.6.0%2Bcu126-cp311-cp311-linux_x86_64.whl" {
		t.Errorf("Lookup: %q %q %v", real, gotSHA, ok)
	}
	if _, _, ok := s.Lookup("https://elsewhere/x.whl"); ok {
		t.Errorf("Lookup took a URL that is not the shim's")
	}
	select { // the metadata names filelock: its page is fetched before pip asks
	case <-prefetched:
	case <-time.After(5 * time.Second):
		t.Errorf("filelock's page was not prefetched")
	}
	if s.Stubs() != 1 {
		t.Errorf("%d stubs served", s.Stubs())
	}
}

// getOK is u's body; the test fails on an error or a status other than 200.
func getOK(t *testing.T, u string) string {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("%s: %s %s", u, resp.Status, b)
	}
	return string(b)
}
