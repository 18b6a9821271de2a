package pyindex

import (
	"crypto/sha256"
	"encoding/hex"
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

// Index is a loopback PEP 503 index: URL+"/whl/<channel>/" is one channel's simple index, like
// https://download.pytorch.org/whl/cu126, and its wheels are served from URL+"/whl/<channel>/<file>".
type Index struct {
	URL string // http://127.0.0.1:PORT

	srv      *httptest.Server
	channels map[string]map[string][]wheelFile // channel → normalised project → files
	down     atomic.Bool
	bytes    atomic.Int64
	mu       sync.Mutex
	requests map[string]int // wheel file name → GETs
	net      netState       // metadata, corruption and pacing (netsim.go)
}

type wheelFile struct {
	name, path, sha256 string
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
	ix := &Index{channels: map[string]map[string][]wheelFile{}, requests: map[string]int{}}
	for ch, paths := range channels {
		projects := map[string][]wheelFile{}
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatalf("pyindex: %v", err)
			}
			sum := sha256.Sum256(b)
			name := filepath.Base(p)
			project := pep.Normalize(strings.SplitN(name, "-", 2)[0])
			projects[project] = append(projects[project], wheelFile{name: name, path: p, sha256: hex.EncodeToString(sum[:]), metadata: wheelMetadata(p)})
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

// Close stops the server.
func (ix *Index) Close() { ix.srv.Close() }

// Down makes every request fail with 503 until Up.
func (ix *Index) Down() { ix.down.Store(true) }

// Up serves again after Down.
func (ix *Index) Up() { ix.down.Store(false) }

// BytesServed is the total of wheel bytes written to clients.
func (ix *Index) BytesServed() int64 { return ix.bytes.Load() }

// Requests is how many times the wheel file name was downloaded (GET; a HEAD is not counted).
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

func (ix *Index) serve(w http.ResponseWriter, r *http.Request) {
	if ix.down.Load() {
		http.Error(w, "index is down (pyindex.Down)", http.StatusServiceUnavailable)
		return
	}
	ix.beforeResponse()
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	if len(parts) < 2 || parts[0] != "whl" {
		http.NotFound(w, r)
		return
	}
	projects, ok := ix.channels[parts[1]]
	if !ok {
		http.NotFound(w, r)
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
		ix.serveProject(w, r, parts[1], projects, parts[2])
	default:
		http.NotFound(w, r)
	}
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

func (ix *Index) serveProject(w http.ResponseWriter, r *http.Request, channel string, projects map[string][]wheelFile, project string) {
	norm := pep.Normalize(project)
	if norm != project || !strings.HasSuffix(r.URL.Path, "/") {
		http.Redirect(w, r, "/whl/"+channel+"/"+norm+"/", http.StatusMovedPermanently)
		return
	}
	files, ok := projects[norm]
	if !ok {
		http.NotFound(w, r)
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html><body><h1>Links for %s</h1>\n", html.EscapeString(norm))
	for _, f := range files {
		// like download.pytorch.org: files one level up, '+' escaped as %2B
		fmt.Fprintf(&b, "<a href=\"../%s#sha256=%s\"%s>%s</a><br/>\n", strings.ReplaceAll(url.PathEscape(f.name), "+", "%2B"), f.sha256, ix.metadataAttrs(f), html.EscapeString(f.name))
	}
	b.WriteString("</body></html>\n")
	w.Header().Set("Content-Type", "text/html")
	_, _ = w.Write([]byte(b.String()))
}

func (ix *Index) serveFile(w http.ResponseWriter, r *http.Request, projects map[string][]wheelFile, name string) {
	for _, files := range projects {
		for _, f := range files {
			if f.name != name {
				continue
			}
			if r.Method == http.MethodGet {
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
