// Package indextest serves a package index on loopback laid out like download.pytorch.org and
// paddlepaddle.org.cn: /whl/<channel>/<project>/ and /paddle/<channel>/<project>/ (PEP 503 HTML, or
// PEP 691 JSON when asked for it), and /flat/<channel>.html, one find-links page per channel. Only file
// names are served (the files themselves are not needed to check what an index has).
package indextest

import (
	"encoding/json"
	"fmt"
	"gpuwiz/steps/pep"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"sync"
	"testing"
)

// Index is a running loopback index.
type Index struct {
	URL string

	mu       sync.Mutex
	channels map[string][]string // "cu126" -> wheel file names
	broken   map[string]string   // channel -> "garbage", "json", "500", "slow"
	requests int
}

// Serve starts an index with these files per channel; it stops when the test ends.
func Serve(t testing.TB, channels map[string][]string) *Index {
	ix := &Index{channels: channels, broken: map[string]string{}}
	srv := httptest.NewServer(http.HandlerFunc(ix.serve))
	t.Cleanup(srv.Close)
	ix.URL = srv.URL
	return ix
}

// Break makes every page of channel answer badly: "garbage" (200, not HTML), "json" (200, broken
// JSON), "500" (a server error), "empty" (200, an HTML page without links).
func (ix *Index) Break(channel, how string) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.broken[channel] = how
}

// Requests counts the pages served.
func (ix *Index) Requests() int {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.requests
}

func (ix *Index) serve(w http.ResponseWriter, r *http.Request) {
	ix.mu.Lock()
	ix.requests++
	ix.mu.Unlock()
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	if len(parts) == 2 && parts[0] == "flat" && strings.HasSuffix(parts[1], ".html") {
		ch := strings.TrimSuffix(parts[1], ".html")
		if ix.brokenPage(w, ch) {
			return
		}
		files, ok := ix.channels[ch]
		if !ok {
			http.NotFound(w, r)
			return
		}
		ix.writeHTML(w, "", files)
		return
	}
	if len(parts) != 3 || (parts[0] != "whl" && parts[0] != "paddle") {
		http.NotFound(w, r)
		return
	}
	ch, project := parts[1], pep.Normalize(parts[2])
	if ix.brokenPage(w, ch) {
		return
	}
	var files []string
	for _, f := range ix.channels[ch] {
		if pep.Normalize(strings.SplitN(f, "-", 2)[0]) == project {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		http.NotFound(w, r)
		return
	}
	if strings.Contains(r.Header.Get("Accept"), "application/vnd.pypi.simple.v1+json") && parts[0] == "paddle" {
		// PEP 691, as a modern index answers when asked
		type file struct {
			Filename string `json:"filename"`
			URL      string `json:"url"`
		}
		doc := struct {
			Meta  map[string]string `json:"meta"`
			Name  string            `json:"name"`
			Files []file            `json:"files"`
		}{Meta: map[string]string{"api-version": "1.1"}, Name: project}
		for _, f := range files {
			doc.Files = append(doc.Files, file{Filename: f, URL: "../../files/" + url.PathEscape(f)})
		}
		w.Header().Set("Content-Type", "application/vnd.pypi.simple.v1+json")
		_ = json.NewEncoder(w).Encode(doc)
		return
	}
	ix.writeHTML(w, "../", files)
}

func (ix *Index) brokenPage(w http.ResponseWriter, ch string) bool {
	ix.mu.Lock()
	how := ix.broken[ch]
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

// writeHTML writes links the way download.pytorch.org does: files one level up, '+' as %2B.
func (ix *Index) writeHTML(w http.ResponseWriter, prefix string, files []string) {
	sort.Strings(files)
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html><body>\n")
	for _, f := range files {
		fmt.Fprintf(&b, "<a href=\"%s%s#sha256=%064d\">%s</a><br/>\n", prefix, strings.ReplaceAll(url.PathEscape(f), "+", "%2B"), 0, html.EscapeString(f))
	}
	b.WriteString("</body></html>\n")
	w.Header().Set("Content-Type", "text/html")
	_, _ = w.Write([]byte(b.String()))
}

// Torch lists the wheels of one torch build for the Pythons and systems given: torch, torchvision and
// (when audio is not "") torchaudio, as download.pytorch.org names them.
func Torch(torch, vision, audio, channel string, pythons []string, oses []string) []string {
	var out []string
	for _, py := range pythons {
		tag := "cp" + strings.ReplaceAll(py, ".", "")
		for _, o := range oses {
			plat := "manylinux_2_28_x86_64"
			if o == "windows" {
				plat = "win_amd64"
			}
			for _, p := range [][2]string{{"torch", torch}, {"torchvision", vision}, {"torchaudio", audio}} {
				if p[1] != "" {
					out = append(out, fmt.Sprintf("%s-%s+%s-%s-%s-%s.whl", p[0], p[1], channel, tag, tag, plat))
				}
			}
		}
	}
	return out
}

// Paddle lists paddlepaddle-gpu wheels as paddlepaddle.org.cn names them.
func Paddle(ver string, pythons []string, oses []string) []string {
	var out []string
	for _, py := range pythons {
		tag := "cp" + strings.ReplaceAll(py, ".", "")
		for _, o := range oses {
			plat := "manylinux1_x86_64"
			if o == "windows" {
				plat = "win_amd64"
			}
			out = append(out, fmt.Sprintf("paddlepaddle_gpu-%s-%s-%s-%s.whl", ver, tag, tag, plat))
		}
	}
	return out
}
