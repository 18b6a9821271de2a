package fetch

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A flat find-links page without metadata files or hashes (the shape of several mirrors of
// PyTorch's wheels): the shim stands in for it, marks every wheel as having metadata, and reads
// that metadata out of the remote wheel with a few Range requests instead of downloading it.
func TestShimReadsMetadataOutOfTheRemoteWheel(t *testing.T) {
	wheel := zipBlob(t, "big", 3<<20, 7)
	name := "big-1.0-py3-none-any.whl"
	s := newServer(t, map[string][]byte{name: wheel})
	s.noHead = true
	mux := http.NewServeMux()
	mux.HandleFunc("/flat/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<html><body><a href="../files/`+name+`">`+name+`</a></body></html>`)
	})
	mux.Handle("/files/", s.Config.Handler)
	s.Config.Handler = mux

	keep := t.TempDir()
	sh, err := StartShim(Network{}, nil, ShimOptions{FindLinks: []string{s.URL + "/flat/"}, Keep: keep})
	if err != nil {
		t.Fatal(err)
	}
	defer sh.Close()
	page := httpGet(t, sh.FindLinksURL(0))
	base := sh.FindLinksURL(0)[:strings.Index(sh.FindLinksURL(0), "/l/")]
	stubURL := base + "/f/0/" + name
	if !strings.Contains(page, `href="`+stubURL+`" data-dist-info-metadata="true"`) {
		t.Fatalf("page:\n%s", page)
	}
	meta := httpGet(t, stubURL+".metadata")
	if !strings.HasPrefix(meta, "Metadata-Version: 2.1\nName: big\n") {
		t.Fatalf("metadata %q", meta)
	}
	if served := s.served.Load(); served > 200<<10 || s.ranged.Load() > 3 {
		t.Errorf("%d bytes in %d ranged requests for the metadata of a %d-byte wheel", served, s.ranged.Load(), len(wheel))
	}
	stub := httpGet(t, stubURL) // pip before 25.3 downloads the wheel of a dry run: the stub
	if zr, err := zip.NewReader(bytes.NewReader([]byte(stub)), int64(len(stub))); err != nil || len(zr.File) != 3 {
		t.Errorf("stub: %v", err)
	}
	f, kept, ok := sh.File(stubURL)
	if !ok || kept || f.URL != s.URL+"/files/"+name || f.SHA256 != "" || f.Size != int64(len(wheel)) || !f.Ranges {
		t.Errorf("File: %+v kept %v ok %v", f, kept, ok)
	}
	if sh.Lazy() != 1 {
		t.Errorf("%d lazy reads", sh.Lazy())
	}
}

// A server that answers Range with the whole file: the shim downloads the wheel once into the
// keep folder, checked, and reads the metadata from it.
func TestShimKeepsAWheelFromAServerWithoutRanges(t *testing.T) {
	wheel := zipBlob(t, "big", 1<<20, 9)
	name := "big-1.0-py3-none-any.whl"
	s := newServer(t, map[string][]byte{name: wheel})
	s.noRanges = true
	mux := http.NewServeMux()
	mux.HandleFunc("/simple/big/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<a href="/files/`+name+`">`+name+`</a>`)
	})
	mux.Handle("/files/", s.Config.Handler)
	s.Config.Handler = mux
	keep := t.TempDir()
	c := &Counters{}
	sh, err := StartShim(Network{}, []string{s.URL + "/simple"}, ShimOptions{Keep: keep, Progress: c})
	if err != nil {
		t.Fatal(err)
	}
	defer sh.Close()
	httpGet(t, sh.IndexURL(0)+"/big/")
	base := sh.IndexURL(0)[:strings.Index(sh.IndexURL(0), "/i/")]
	if meta := httpGet(t, base+"/f/0/"+name+".metadata"); !strings.Contains(meta, "Name: big") {
		t.Fatalf("metadata %q", meta)
	}
	f, kept, ok := sh.File(base + "/f/0/" + name)
	if !ok || !kept || f.SHA256 != sum(wheel) {
		t.Errorf("File: %+v kept %v", f, kept)
	}
	if b, err := os.ReadFile(filepath.Join(keep, name)); err != nil || !bytes.Equal(b, wheel) {
		t.Errorf("kept file: %v", err)
	}
	if st := c.Stats(); st.Done != int64(len(wheel)) || st.FilesDone != 1 {
		t.Errorf("counters %+v", st)
	}
	if s.served.Load() != int64(len(wheel)) {
		t.Errorf("served %d for a %d-byte wheel", s.served.Load(), len(wheel))
	}
}

func httpGet(t *testing.T, u string) string {
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

// A wheel whose central directory is longer than the first request's tail (thousands of members,
// like torch's): the directory and the METADATA written before it come in one more request.
func TestShimReadsALongDirectoryInOneMoreRequest(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := 0; i < 3000; i++ {
		w, _ := zw.Create("big/pkg/module_with_a_long_name_" + strings.Repeat("x", 20) + "_" + string(rune('a'+i%26)) + "/" + strings.Repeat("y", i%7) + ".py")
		_, _ = w.Write(blob(100, uint64(i)))
	}
	w, _ := zw.Create("big-1.0.dist-info/METADATA")
	_, _ = w.Write([]byte("Metadata-Version: 2.1\nName: big\nVersion: 1.0\n"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	name := "big-1.0-py3-none-any.whl"
	s := newServer(t, map[string][]byte{name: buf.Bytes()})
	sh, err := StartShim(Network{}, nil, ShimOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer sh.Close()
	res, err := sh.lazyMetadata(context.Background(), shimLink{real: s.URL + "/files/" + name, name: name})
	if err != nil || !strings.Contains(string(res.metadata), "Name: big") {
		t.Fatalf("%v %q", err, res.metadata)
	}
	if res.reqs != 2 || s.ranged.Load() != 2 {
		t.Errorf("%d requests (%d ranged at the server) for a %d-byte wheel with a long directory", res.reqs, s.ranged.Load(), buf.Len())
	}
}
