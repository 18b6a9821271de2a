package indexpage_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"

	"gpuwiz/steps/indexpage"
	"gpuwiz/steps/testkit/pyindex"
)

var names = []string{"torch-2.6.0+cu126-cp312-cp312-win_amd64.whl", "torch-2.6.0+cu126-cp312-cp312-manylinux_2_28_x86_64.whl", "paddlepaddle_gpu-3.2.0-cp312-cp312-win_amd64.whl"}

func get(t *testing.T, r *indexpage.Reader, u string) []indexpage.Link {
	t.Helper()
	p := r.Get(context.Background(), u)
	if p.Err != nil || p.Status != 200 {
		t.Fatalf("%s: %d %v", u, p.Status, p.Err)
	}
	links, err := p.Links()
	if err != nil {
		t.Fatalf("%s: %v", u, err)
	}
	return links
}

// A PEP 503 project page, a flat find-links page and a PEP 691 JSON page of the test kit's index
// give the same files, each link absolute with its sha256; the HTML page's file names are the
// links' last segments unescaped ('+' written %2B).
func TestRealPages(t *testing.T) {
	ix := pyindex.ServeNames(t, map[string][]string{"cu126": names})
	zeros := strings.Repeat("0", 64)
	var r indexpage.Reader
	for _, c := range []struct{ url, project string }{
		{ix.ChannelURL("cu126") + "/torch/", "torch"},
		{ix.FlatURL("cu126"), ""},
		{ix.URL + "/paddle/cu126/paddlepaddle-gpu/", "paddlepaddle_gpu"}, // answers JSON to pip's Accept
	} {
		links := get(t, &r, c.url)
		var files []string
		for _, l := range links {
			files = append(files, l.File)
			if l.Hashes["sha256"] != zeros || l.URL.Host != strings.TrimPrefix(ix.URL, "http://") || !strings.HasSuffix(l.URL.Path, "/whl/cu126/"+l.File) {
				t.Errorf("%s: %+v", c.url, l)
			}
		}
		var want []string
		for _, n := range names {
			if c.project == "" || strings.HasPrefix(n, c.project+"-") {
				want = append(want, n)
			}
		}
		if strings.Join(files, " ") != strings.Join(want, " ") && !(c.project == "" && len(files) == len(want)) {
			t.Errorf("%s: files %q, want %q", c.url, files, want)
		}
		if p := r.Get(context.Background(), c.url); strings.Join(p.Files(), " ") != strings.Join(files, " ") {
			t.Errorf("%s: Files %q", c.url, p.Files())
		}
	}
	if p := r.Get(context.Background(), ix.URL+"/paddle/cu126/paddlepaddle-gpu/"); p.Type != "application/vnd.pypi.simple.v1+json" {
		t.Errorf("the paddle page came as %q, not PEP 691 JSON", p.Type)
	}
}

// A page of real wheels with PEP 658 metadata: the link says so with the metadata file's hash.
func TestMetadataAttribute(t *testing.T) {
	dir := t.TempDir()
	w, err := pyindex.BuildWheel(dir, "demo", "1.0", map[string]string{"demo/__init__.py": ""}, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	ix := pyindex.Serve(t, map[string][]string{"simple": {w}})
	links := get(t, &indexpage.Reader{}, ix.URL+"/simple/demo/")
	if len(links) != 1 || !strings.HasPrefix(links[0].Metadata, "sha256=") || links[0].File != "demo-1.0-py3-none-any.whl" {
		t.Fatalf("%+v", links)
	}
	b, _ := os.ReadFile(w)
	sum := sha256.Sum256(b)
	if links[0].Hashes["sha256"] != hex.EncodeToString(sum[:]) {
		t.Errorf("hash %q", links[0].Hashes)
	}
}

// pip's attributes, escaped as pages write them, and a JSON page's equivalents.
func TestAttributes(t *testing.T) {
	base, _ := url.Parse("https://mirror.example/simple/torch/")
	links, err := indexpage.Parse([]byte(`<html><body>
<a href="../../files/torch-2.6.0-cp312-cp312-win_amd64.whl#sha256=ABCD" data-requires-python="&gt;=3.9" data-yanked="broken &amp; gone" data-dist-info-metadata="sha256=ef">x</a>
<a href="https://cdn.example/torch-2.5.0.tar.gz" data-core-metadata="false">y</a>
<a href="sub/">folder</a><a>no href</a>
</body></html>`), "text/html", base)
	if err != nil || len(links) != 3 {
		t.Fatalf("%+v %v", links, err)
	}
	w := links[0]
	if w.URL.String() != "https://mirror.example/files/torch-2.6.0-cp312-cp312-win_amd64.whl#sha256=ABCD" || w.File != "torch-2.6.0-cp312-cp312-win_amd64.whl" ||
		w.RequiresPython != ">=3.9" || w.Yanked == nil || *w.Yanked != "broken & gone" || w.Metadata != "sha256=ef" || w.Hashes["sha256"] != "abcd" {
		t.Errorf("wheel: %+v", w)
	}
	if s := links[1]; s.URL.Host != "cdn.example" || s.Metadata != "" || s.Yanked != nil || s.Hashes != nil {
		t.Errorf("sdist: %+v", s)
	}
	if links[2].File != "" {
		t.Errorf("a folder names a file: %+v", links[2])
	}
	links, err = indexpage.Parse([]byte(`{"meta": {"api-version": "1.1"}, "files": [
{"filename": "a-1-py3-none-any.whl", "url": "a-1-py3-none-any.whl", "hashes": {"sha256": "aa"}, "requires-python": ">=3.8", "yanked": "bad", "core-metadata": {"sha256": "mm"}},
{"filename": "b-1-py3-none-any.whl", "url": "/b/b-1-py3-none-any.whl", "yanked": false, "dist-info-metadata": true}]}`), "application/vnd.pypi.simple.v1+json", base)
	if err != nil || len(links) != 2 {
		t.Fatalf("%+v %v", links, err)
	}
	if a := links[0]; a.URL.String() != "https://mirror.example/simple/torch/a-1-py3-none-any.whl" || a.Hashes["sha256"] != "aa" || a.RequiresPython != ">=3.8" || a.Yanked == nil || *a.Yanked != "bad" || a.Metadata != "sha256=mm" {
		t.Errorf("json a: %+v", a)
	}
	if b := links[1]; b.URL.Path != "/b/b-1-py3-none-any.whl" || b.Yanked != nil || b.Metadata != "true" {
		t.Errorf("json b: %+v", b)
	}
}

// Each URL is fetched once however many ask at once; a broken page says what it is.
func TestOneFetchPerURLAndBrokenPages(t *testing.T) {
	ix := pyindex.ServeNames(t, map[string][]string{"cu126": names, "bad": names})
	var r indexpage.Reader
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.Get(context.Background(), ix.ChannelURL("cu126")+"/torch/")
		}()
	}
	wg.Wait()
	if n := ix.Hits("/whl/cu126/torch/"); n != 1 {
		t.Errorf("%d requests for one page", n)
	}
	if p := r.Get(context.Background(), ix.ChannelURL("cu126")+"/nothing/"); p.Status != 404 || p.Err != nil {
		t.Errorf("missing page: %d %v", p.Status, p.Err)
	}
	for how, want := range map[string]string{"garbage": "not HTML", "json": "JSON page cannot be read", "empty": "lists no links"} {
		ix.Break("bad", how)
		links, err := (&indexpage.Reader{}).Get(context.Background(), ix.ChannelURL("bad")+"/torch/").Links()
		if err == nil || !strings.Contains(err.Error(), want) || len(links) != 0 {
			t.Errorf("%s: %v %v", how, links, err)
		}
		if how == "empty" && !errors.Is(err, indexpage.ErrNoLinks) {
			t.Errorf("an empty page is not ErrNoLinks: %v", err)
		}
	}
}
