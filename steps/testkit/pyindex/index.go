package pyindex

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"gpuwiz/steps/pep"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Index is a loopback package index, the one every test of gpuwiz serves its wheels from. One set of
// channels (a channel: "cu126", a list of wheels) under several layouts of the real indexes:
//
//   - URL+"/whl/<channel>/": a PEP 503 simple index like https://download.pytorch.org/whl/cu126 (HTML
//     only, as that index answers), its project pages at /whl/<channel>/<project>/ and its wheels at
//     /whl/<channel>/<file>, with PEP 658 metadata (see Network);
//   - URL+"/paddle/<channel>/<project>/": the same pages from an index that answers PEP 691 JSON when
//     asked for it, as PyPI and paddlepaddle.org.cn's newer mirrors do;
//   - URL+"/flat/<channel>.html" and URL+"/flat/<channel>/": one find-links page of every wheel;
//   - URL+"/simple/<project>/": the channel named "simple", a PyPI-like index for dependencies.
//
// Serve serves real wheel files (pip installs from it); ServeNames only lists file names (the index
// check and the source probe read pages, never files). Break and Down make it answer badly.
type Index struct {
	URL string // http://127.0.0.1:PORT

	srv      *httptest.Server
	channels map[string]map[string][]wheelFile // channel → normalised project → files
	down     atomic.Bool
	bytes    atomic.Int64
	mu       sync.Mutex
	requests map[string]int    // wheel file name → GETs
	hits     map[string]int    // URL path → requests of any kind
	pages    int               // requests for anything but a wheel or its metadata
	broken   map[string]string // channel → how its pages answer (Break)
	net      netState          // metadata, corruption and pacing (netsim.go)
}

type wheelFile struct {
	name, path, sha256 string // path "" for a name-only index: the file is listed, not served
	metadata           []byte // the wheel's .dist-info/METADATA, served as name+".metadata" (PEP 658)
}

// Serve starts an index for channels ("cu126" → wheel paths) and closes it when the test ends.
func Serve(t testing.TB, channels map[string][]string) *Index {
	t.Helper()
	return ServeWith(t, channels, Network{})
}

// ServeWith is Serve over a simulated network (see Network).
func ServeWith(t testing.TB, channels map[string][]string, n Network) *Index {
	t.Helper()
	return serve(t, channels, n, func(p string) wheelFile {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatalf("pyindex: %v", err)
		}
		sum := sha256.Sum256(b)
		return wheelFile{name: filepath.Base(p), path: p, sha256: hex.EncodeToString(sum[:]), metadata: wheelMetadata(p)}
	})
}

// ServeNames starts an index whose channels list wheel file names ("cu126" → names, see Torch and
// Paddle) with a sha256 of zeros; the files themselves are not served.
func ServeNames(t testing.TB, channels map[string][]string) *Index {
	t.Helper()
	return ServeNamesWith(t, channels, Network{})
}

// ServeNamesWith is ServeNames over a simulated network (a Latency makes a slow mirror).
func ServeNamesWith(t testing.TB, channels map[string][]string, n Network) *Index {
	t.Helper()
	return serve(t, channels, n, func(name string) wheelFile {
		return wheelFile{name: name, sha256: strings.Repeat("0", 64)}
	})
}

func serve(t testing.TB, channels map[string][]string, n Network, file func(string) wheelFile) *Index {
	ix := &Index{channels: map[string]map[string][]wheelFile{}, requests: map[string]int{}, hits: map[string]int{}, broken: map[string]string{}}
	for ch, list := range channels {
		projects := map[string][]wheelFile{}
		for _, x := range list {
			f := file(x)
			project := pep.Normalize(strings.SplitN(f.name, "-", 2)[0])
			projects[project] = append(projects[project], f)
		}
		ix.channels[ch] = projects
	}
	ix.srv = httptest.NewUnstartedServer(http.HandlerFunc(ix.serve))
	ix.startNetwork(n)
	ix.URL = ix.srv.URL
	t.Cleanup(ix.Close)
	return ix
}

// ChannelURL is the --index-url for a channel.
func (ix *Index) ChannelURL(channel string) string { return ix.URL + "/whl/" + channel }

// FlatURL is the flat find-links page of every wheel of a channel (the shape of several mirrors of
// PyTorch's wheels: one page, no metadata files with Network.NoMetadata).
func (ix *Index) FlatURL(channel string) string { return ix.URL + "/flat/" + channel + "/" }

// Close stops the server.
func (ix *Index) Close() { ix.srv.Close() }

// Down makes every request fail with 503 until Up.
func (ix *Index) Down() { ix.down.Store(true) }

// Up serves again after Down.
func (ix *Index) Up() { ix.down.Store(false) }

// Break makes every page of channel answer badly: "garbage" (200, not HTML), "json" (200, broken
// JSON), "500" (a server error), "empty" (200, an HTML page without links); "" answers well again.
func (ix *Index) Break(channel, how string) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.broken[channel] = how
}

// BytesServed is the total of wheel bytes written to clients.
func (ix *Index) BytesServed() int64 { return ix.bytes.Load() }

// Requests is how many times the wheel file name was downloaded (GET; a HEAD and a GET of its
// first byte alone, the downloader's question for the size and range support, are not counted).
func (ix *Index) Requests(file string) int {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.requests[file]
}

// TotalRequests is the number of wheel file requests of any name.
func (ix *Index) TotalRequests() int {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	n := 0
	for _, c := range ix.requests {
		n += c
	}
	return n
}

// Pages is the number of requests for pages (anything but a wheel or its metadata).
func (ix *Index) Pages() int {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.pages
}

// Hits is the number of requests for the URL path ("/simple/pip/").
func (ix *Index) Hits(path string) int {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.hits[path]
}

func (ix *Index) serve(w http.ResponseWriter, r *http.Request) {
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	last := parts[len(parts)-1]
	file := strings.HasSuffix(last, ".whl") || strings.HasSuffix(last, ".whl.metadata")
	ix.mu.Lock()
	ix.hits[r.URL.Path]++
	if !file {
		ix.pages++
	}
	ix.mu.Unlock()
	if ix.down.Load() {
		http.Error(w, "index is down (pyindex.Down)", http.StatusServiceUnavailable)
		return
	}
	if !ix.beforeResponse(r) {
		return
	}
	if r.Method == http.MethodHead && ix.net.n.NoHead {
		http.Error(w, "HEAD is not allowed here", http.StatusMethodNotAllowed)
		return
	}
	if len(parts) == 2 && parts[0] == "simple" { // /simple/<project>/: the channel "simple"
		parts = []string{"whl", "simple", parts[1]}
	}
	if len(parts) == 2 && parts[0] == "flat" {
		ix.serveFlat(w, r, strings.TrimSuffix(parts[1], ".html"))
		return
	}
	if len(parts) < 2 || (parts[0] != "whl" && parts[0] != "paddle") {
		http.NotFound(w, r)
		return
	}
	projects, ok := ix.channels[parts[1]]
	if !ok {
		http.NotFound(w, r)
		return
	}
	if !file && ix.brokenPage(w, parts[1]) {
		return
	}
	switch {
	case len(parts) == 2:
		ix.serveRoot(w, r, projects)
	case len(parts) == 3 && strings.HasSuffix(parts[2], ".whl"):
		ix.serveFile(w, r, projects, parts[2])
	case len(parts) == 3 && strings.HasSuffix(parts[2], ".whl.metadata"):
		ix.serveMetadata(w, r, projects, strings.TrimSuffix(parts[2], ".metadata"))
	case len(parts) == 3:
		ix.serveProject(w, r, parts[0], parts[1], projects, parts[2])
	default:
		http.NotFound(w, r)
	}
}

func (ix *Index) brokenPage(w http.ResponseWriter, channel string) bool {
	ix.mu.Lock()
	how := ix.broken[channel]
	ix.mu.Unlock()
	switch how {
	case "garbage":
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "upstream connect error or disconnect/reset before headers")
	case "json":
		w.Header().Set("Content-Type", "application/vnd.pypi.simple.v1+json")
		fmt.Fprint(w, `{"meta": {"api-version": "1.1"}, "files": [{"filename": "tor`)
	case "500":
		http.Error(w, "internal error", http.StatusInternalServerError)
	case "empty":
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<!DOCTYPE html><html><body><h1>maintenance</h1></body></html>")
	default:
		return false
	}
	return true
}

// serveFlat is one find-links page of every wheel of channel, linking to the wheels under /whl/.
func (ix *Index) serveFlat(w http.ResponseWriter, r *http.Request, channel string) {
	projects, ok := ix.channels[channel]
	if !ok {
		http.NotFound(w, r)
		return
	}
	if ix.brokenPage(w, channel) {
		return
	}
	var files []wheelFile
	for _, fs := range projects {
		files = append(files, fs...)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].name < files[j].name })
	ix.writeLinks(w, "", "/whl/"+channel+"/", files)
}

func (ix *Index) serveRoot(w http.ResponseWriter, r *http.Request, projects map[string][]wheelFile) {
	names := make([]string, 0, len(projects))
	for n := range projects {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html><body>\n")
	for _, n := range names {
		fmt.Fprintf(&b, "<a href=\"%s/\">%s</a><br/>\n", n, n)
	}
	b.WriteString("</body></html>\n")
	w.Header().Set("Content-Type", "text/html")
	_, _ = w.Write([]byte(b.String()))
}

func (ix *Index) serveProject(w http.ResponseWriter, r *http.Request, layout, channel string, projects map[string][]wheelFile, project string) {
	norm := pep.Normalize(project)
	if norm != project || !strings.HasSuffix(r.URL.Path, "/") {
		http.Redirect(w, r, "/"+layout+"/"+channel+"/"+norm+"/", http.StatusMovedPermanently)
		return
	}
	files, ok := projects[norm]
	if !ok {
		http.NotFound(w, r)
		return
	}
	if layout == "paddle" && strings.Contains(r.Header.Get("Accept"), "application/vnd.pypi.simple.v1+json") {
		// PEP 691, as a modern index answers when asked
		type file struct {
			Filename string            `json:"filename"`
			URL      string            `json:"url"`
			Hashes   map[string]string `json:"hashes"`
		}
		doc := struct {
			Meta  map[string]string `json:"meta"`
			Name  string            `json:"name"`
			Files []file            `json:"files"`
		}{Meta: map[string]string{"api-version": "1.1"}, Name: norm}
		for _, f := range files {
			doc.Files = append(doc.Files, file{Filename: f.name, URL: "/whl/" + channel + "/" + url.PathEscape(f.name), Hashes: map[string]string{"sha256": f.sha256}})
		}
		w.Header().Set("Content-Type", "application/vnd.pypi.simple.v1+json")
		_ = json.NewEncoder(w).Encode(doc)
		return
	}
	ix.writeLinks(w, norm, "../", files)
}

// writeLinks writes a PEP 503 page of files the way download.pytorch.org does: each link prefix +
// name with '+' escaped as %2B and a #sha256= fragment.
func (ix *Index) writeLinks(w http.ResponseWriter, title, prefix string, files []wheelFile) {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html><body>\n")
	if title != "" {
		fmt.Fprintf(&b, "<h1>Links for %s</h1>\n", html.EscapeString(title))
	}
	for _, f := range files {
		hash := "#sha256=" + f.sha256
		if ix.net.n.NoHashes {
			hash = ""
		}
		fmt.Fprintf(&b, "<a href=\"%s%s%s\"%s>%s</a><br/>\n", prefix, strings.ReplaceAll(url.PathEscape(f.name), "+", "%2B"), hash, ix.metadataAttrs(f), html.EscapeString(f.name))
	}
	b.WriteString("</body></html>\n")
	w.Header().Set("Content-Type", "text/html")
	_, _ = w.Write([]byte(b.String()))
}

func (ix *Index) serveFile(w http.ResponseWriter, r *http.Request, projects map[string][]wheelFile, name string) {
	for _, files := range projects {
		for _, f := range files {
			if f.name != name || f.path == "" {
				continue
			}
			if r.Method == http.MethodGet && r.Header.Get("Range") != "bytes=0-0" { // not the downloader's one-byte size probe
				ix.mu.Lock()
				ix.requests[name]++
				ix.mu.Unlock()
			}
			fh, err := os.Open(f.path)
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			defer fh.Close()
			w.Header().Set("Content-Type", "application/octet-stream")
			// ServeContent answers Range requests, so pip's resume (25.1+) can be exercised.
			cw := &countingWriter{ResponseWriter: w, n: &ix.bytes}
			if !ix.serveWhole(cw, r, ix.content(name, fh)) {
				http.ServeContent(cw, r, name, time.Time{}, ix.content(name, fh))
			}
			return
		}
	}
	http.NotFound(w, r)
}

type countingWriter struct {
	http.ResponseWriter
	n *atomic.Int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.ResponseWriter.Write(p)
	c.n.Add(int64(n))
	return n, err
}
