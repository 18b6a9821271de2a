package fetch

import (
	"archive/zip"
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// metaWheel is a small wheel of dist at version whose METADATA requires requires.
func metaWheel(t *testing.T, dist, version string, requires ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.Create(dist + "-" + version + ".dist-info/METADATA")
	if err != nil {
		t.Fatal(err)
	}
	meta := "Metadata-Version: 2.1\nName: " + dist + "\nVersion: " + version + "\n"
	for _, r := range requires {
		meta += "Requires-Dist: " + r + "\n"
	}
	io.WriteString(w, meta)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// A resolve's wheels from a server without Range requests are read ahead, several at once, each
// wheel that a pin or a metadata read before names exactly and whose marker holds for the target
// Python: before pip asks, and once. A wheel for another system, a range of versions and a
// version pip might choose among several are left to pip.
func TestShimReadsAheadTheWheelsRequirementsPinExactly(t *testing.T) {
	wheels := map[string][]byte{
		"a-1.0-py3-none-any.whl":                      metaWheel(t, "a", "1.0", `b==1.0`, `d==1.0; platform_system == "Windows"`, `e>=1.0`, `f==1.0`, `g==1.0; extra == "more"`),
		"b-1.0-py3-none-any.whl":                      metaWheel(t, "b", "1.0", `c (==1.0)`),
		"b-2.0-py3-none-any.whl":                      metaWheel(t, "b", "2.0"),
		"c-1.0-py3-none-any.whl":                      metaWheel(t, "c", "1.0"),
		"d-1.0-py3-none-any.whl":                      metaWheel(t, "d", "1.0"),
		"e-1.0-py3-none-any.whl":                      metaWheel(t, "e", "1.0"),
		"f-1.0-cp311-cp311-manylinux_2_17_x86_64.whl": metaWheel(t, "f", "1.0"),
		"f-1.0-cp311-cp311-manylinux_2_28_x86_64.whl": metaWheel(t, "f", "1.0"),
		"g-1.0-py3-none-any.whl":                      metaWheel(t, "g", "1.0"),
	}
	var mu sync.Mutex
	got := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if name, ok := strings.CutPrefix(r.URL.Path, "/files/"); ok {
			b, found := wheels[name]
			if !found {
				http.NotFound(w, r)
				return
			}
			mu.Lock()
			got[name]++
			mu.Unlock()
			w.Write(b) // the whole file, whatever Range asked
			return
		}
		project := strings.Trim(strings.TrimPrefix(r.URL.Path, "/simple/"), "/")
		w.Header().Set("Content-Type", "text/html")
		for name := range wheels {
			if strings.HasPrefix(name, project+"-") {
				io.WriteString(w, `<a href="/files/`+name+`">`+name+"</a>\n")
			}
		}
	}))
	t.Cleanup(srv.Close)
	fetched := func() map[string]int {
		mu.Lock()
		defer mu.Unlock()
		out := map[string]int{}
		for k, v := range got {
			out[k] = v
		}
		return out
	}
	want := []string{"a-1.0-py3-none-any.whl", "b-1.0-py3-none-any.whl", "c-1.0-py3-none-any.whl"}

	// Without a target the shim reads only what pip asks for: nothing, here.
	plain, err := StartShim(Network{}, []string{srv.URL + "/simple"}, ShimOptions{Keep: t.TempDir(), Pins: []string{"a==1.0"}})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	plain.Close()
	if n := len(fetched()); n != 0 {
		t.Fatalf("without a target the shim fetched %v", fetched())
	}

	s, err := StartShim(Network{}, []string{srv.URL + "/simple"}, ShimOptions{Keep: t.TempDir(), Pins: []string{"a==1.0"},
		Target: Target{Python: "3.11.7", GOOS: "linux", GOARCH: "amd64"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		f := fetched()
		if f[want[0]] > 0 && f[want[1]] > 0 && f[want[2]] > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not read ahead before pip asked: %v", f)
		}
	}
	// What pip then asks for is answered from what was read: no second download.
	httpGet(t, s.IndexURL(0)+"/b/")
	base := s.IndexURL(0)[:strings.Index(s.IndexURL(0), "/i/")]
	id := func() string {
		s.mu.Lock()
		defer s.mu.Unlock()
		for i, l := range s.links {
			if l.name == "b-1.0-py3-none-any.whl" {
				return strconv.Itoa(i)
			}
		}
		return ""
	}()
	if meta := httpGet(t, base+"/f/"+id+"/b-1.0-py3-none-any.whl.metadata"); !strings.Contains(meta, "Requires-Dist: c (==1.0)") {
		t.Fatalf("b's metadata: %q", meta)
	}
	time.Sleep(300 * time.Millisecond)
	f := fetched()
	for _, name := range want {
		if f[name] != 1 {
			t.Errorf("%s fetched %d times", name, f[name])
		}
	}
	for _, name := range []string{"b-2.0-py3-none-any.whl", "d-1.0-py3-none-any.whl", "e-1.0-py3-none-any.whl",
		"f-1.0-cp311-cp311-manylinux_2_17_x86_64.whl", "f-1.0-cp311-cp311-manylinux_2_28_x86_64.whl", "g-1.0-py3-none-any.whl"} {
		if f[name] != 0 {
			t.Errorf("%s was read ahead: another version, another system, a range, a choice among several or an extra", name)
		}
	}
}
