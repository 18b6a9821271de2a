package fetch

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// The wheels whose metadata pip reads through the shim are downloaded while the resolve goes on;
// Finish keeps what the answer holds (checked, so not read again) and removes what it began for a
// wheel the answer does not hold.
func TestEarlyFetchDownloadsWhatPipLooksAt(t *testing.T) {
	body := func(name string) []byte { return []byte(strings.Repeat(name, 50000)) }
	sum := func(b []byte) string { h := sha256.Sum256(b); return hex.EncodeToString(h[:]) }
	a, b := "a-1.0-py3-none-any.whl", "b-1.0-py3-none-any.whl"
	var aServed atomic.Bool
	bStarted := make(chan struct{}, 1)
	idx := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/simple/a/", "/simple/b/":
			n := a
			if r.URL.Path == "/simple/b/" {
				n = b
			}
			io.WriteString(w, `<html><body><a href="/files/`+n+`#sha256=`+sum(body(n))+`" data-core-metadata="true">`+n+`</a></body></html>`)
		case "/files/" + a + ".metadata", "/files/" + b + ".metadata":
			io.WriteString(w, "Metadata-Version: 2.1\nName: x\nVersion: 1.0\n")
		case "/files/" + a:
			http.ServeContent(w, r, a, time.Time{}, strings.NewReader(string(body(a))))
			if r.Header.Get("Range") == "" || r.Method == http.MethodGet {
				aServed.Store(true)
			}
		case "/files/" + b: // never ends: the fetch is cut in the middle by Finish
			if r.Method == http.MethodHead {
				w.Header().Set("Content-Length", "250000")
				w.Header().Set("Accept-Ranges", "bytes")
				return
			}
			select {
			case bStarted <- struct{}{}:
			default:
			}
			w.Header().Set("Content-Length", "250000")
			w.WriteHeader(http.StatusOK)
			w.Write(body(b)[:1000])
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(idx.Close)
	dir := t.TempDir()
	early := StartEarly(t.Context(), Options{Dir: dir})
	s, err := StartShim(Network{}, []string{idx.URL + "/simple"}, ShimOptions{Early: early})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	get := func(u string) string { return getOK(t, u) }
	base := s.IndexURL(0)[:strings.Index(s.IndexURL(0), "/i/")]
	get(s.IndexURL(0) + "/a/")
	get(s.IndexURL(0) + "/b/")
	get(base + "/f/0/" + a + ".metadata") // pip looks at a, then at b
	get(base + "/f/1/" + b + ".metadata")
	deadline := time.Now().Add(10 * time.Second)
	for !aServed.Load() {
		if time.Now().After(deadline) {
			t.Fatal("a was not downloaded after pip read its metadata")
		}
		time.Sleep(20 * time.Millisecond)
	}
	select { // then b's download began (a first: the order pip asked)
	case <-bStarted:
	case <-time.After(10 * time.Second):
		t.Fatal("b was not begun after pip read its metadata")
	}
	_, checked := early.Finish([]File{{Name: a, SHA256: sum(body(a))}})
	got, err := os.ReadFile(filepath.Join(dir, a))
	if err != nil || string(got) != string(body(a)) {
		t.Fatalf("a is not in place whole: %v", err)
	}
	if !checked(a, sum(body(a))) || checked(a, strings.Repeat("0", 64)) || checked(b, sum(body(b))) {
		t.Errorf("checked: a with its sha256 must be, a with another or b must not be")
	}
	left, _ := filepath.Glob(filepath.Join(dir, "b-*"))
	if len(left) > 0 {
		t.Errorf("what was begun for b, which the answer does not hold, is still there: %v", left)
	}
	early.Add(File{Name: "c-1.0-py3-none-any.whl", URL: idx.URL + "/files/c"}) // after Finish: nothing starts
}
