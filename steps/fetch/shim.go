package fetch

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"gpuwiz/steps/indexpage"
	"gpuwiz/steps/pep"
	"gpuwiz/steps/urls"
)

// Shim is a loopback stand-in for package indexes and flat find-links pages, for a pip resolve
// that downloads no wheel. pip is pointed at it instead of the real sources: it fetches the real
// pages (with pip's proxy, certificate and credentials), hands them on with every wheel link
// pointing back to itself and marked as having PEP 658 metadata, serves that metadata (the
// index's own metadata file, else the wheel's METADATA read out of the remote zip with Range
// requests, see lazywheel.go), and answers a request for a wheel with a stub of a few hundred
// bytes made of it. So `pip install --dry-run --report` resolves with pip's own resolver whatever
// its version (pip before 25.3 downloads every wheel of a dry run whole) and whatever the source
// serves, and File maps each stub URL in the report back to the real file.
type Shim struct {
	net     Network
	opts    ShimOptions
	client  *http.Client
	srv     *http.Server
	ln      net.Listener
	base    string
	indexes []string

	// pages are the real pages and metadata files, each fetched once: pip asks for a wheel's
	// metadata twice (the metadata file, then the stub made of it), and the pages prefetched are
	// asked for later.
	pages indexpage.Reader

	mu         sync.Mutex
	links      []shimLink // by id
	stubs      int        // stub wheels served
	lazyMeta   map[string]*lazyEntry
	prefetched map[string]bool      // real wheel URLs whose requirements' pages were prefetched
	info       map[string]wheelInfo // real URL → what its metadata's read learned
	lazy       int                  // wheels whose metadata was read out of the remote zip
	ctx        context.Context      // the shim's lifetime, for prefetches
	stop       context.CancelFunc

	markers map[string]string // Target's environment markers (PEP 508); nil: no reading ahead
	aheadN  chan struct{}     // wheels read ahead at once
}

// lazyEntry is one wheel's METADATA read out of the remote zip, once.
type lazyEntry struct {
	done chan struct{}
	body []byte
	err  error
}

type shimLink struct {
	real     string // absolute URL without fragment
	name     string // file name
	sha256   string // from the real link's #sha256= fragment; "" when none
	metadata bool   // the real index serves real+".metadata"
}

// ShimOptions are what a shim needs besides the sources.
type ShimOptions struct {
	// FindLinks are flat pages of wheels (pip --find-links URLs), served as FindLinksURL(i).
	FindLinks []string
	// Keep is the folder a wheel from a server without Range requests is downloaded into whole
	// (its metadata cannot be read otherwise); "" keeps none.
	Keep string
	// Progress counts those whole downloads; may be nil.
	Progress *Counters
	// Early, when set, is handed every wheel whose metadata pip reads, to download it while the
	// resolve goes on (see Early); nil: nothing is downloaded before the resolve's answer.
	Early *Early
	// Target is the Python the resolve is for. Where it is set, the shim reads ahead (see ahead)
	// the metadata of each wheel that Pins, or a requirement in metadata read before, names
	// exactly; zero: it reads only what pip asks for.
	Target Target
	// Pins are the resolve's own requirements ("torch==2.11.0+cu130").
	Pins []string
}

// Target is a Python the wheels are for: its version ("3.12.4") and system, as Go names them.
type Target struct {
	Python, GOOS, GOARCH string
}

// wheelInfo is what reading a wheel's metadata learned of the real file.
type wheelInfo struct {
	size   int64
	ranges bool
	kept   string // sha256 of the whole file kept in ShimOptions.Keep
}

// StartShim serves indexes (real index URLs) and o.FindLinks on a loopback port until Close.
func StartShim(n Network, indexes []string, o ShimOptions) (*Shim, error) {
	n.Credentials = append(append(append([]string{}, n.Credentials...), indexes...), o.FindLinks...)
	client, err := n.client(8)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Shim{net: n, opts: o, client: client, ln: ln, base: "http://" + ln.Addr().String(), indexes: indexes,
		lazyMeta: map[string]*lazyEntry{}, prefetched: map[string]bool{}, info: map[string]wheelInfo{}}
	// pip is asked for HTML pages, as the shim hands them on: the same answer pip would get
	s.pages = indexpage.Reader{Client: client, Accept: "text/html", Request: n.request}
	s.ctx, s.stop = context.WithCancel(context.Background())
	s.srv = &http.Server{Handler: http.HandlerFunc(s.serve), ReadHeaderTimeout: 30 * time.Second}
	go func() { _ = s.srv.Serve(ln) }()
	if t := o.Target; t.Python != "" {
		s.markers, s.aheadN = pep.MarkerEnv(t.Python, t.GOOS, t.GOARCH), make(chan struct{}, aheadAtOnce)
		for _, p := range o.Pins {
			if r, ok := pep.ParseRequirement(p); ok {
				go s.ahead(r)
			}
		}
	}
	return s, nil
}

// aheadAtOnce is how many wheels the shim reads ahead at the same time.
const aheadAtOnce = 8

// IndexURL is what pip gets instead of the i-th index.
func (s *Shim) IndexURL(i int) string { return s.base + "/i/" + strconv.Itoa(i) }

// FindLinksURL is what pip gets instead of the i-th flat page of ShimOptions.FindLinks.
func (s *Shim) FindLinksURL(i int) string { return s.base + "/l/" + strconv.Itoa(i) + "/" }

// Lazy is how many wheels' metadata was read out of the remote zip (the source served none).
func (s *Shim) Lazy() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lazy
}

// Close stops the shim.
func (s *Shim) Close() {
	s.stop()
	_ = s.srv.Close()
	s.client.CloseIdleConnections()
}

// Stubs is how many wheel requests were answered with a stub.
func (s *Shim) Stubs() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stubs
}

// Lookup turns a URL in pip's report into the real file: its URL and the sha256 the real index
// gave for it. ok is false for a URL that is not the shim's.
func (s *Shim) Lookup(u string) (real, sha string, ok bool) {
	f, _, ok := s.File(u)
	return f.URL, f.SHA256, ok
}

// File turns a URL in pip's report into the real file: its URL, the sha256 the source gave ("" when
// none), and its size and range support when its metadata was read out of it. kept says the shim
// downloaded it whole into ShimOptions.Keep and checked it (SHA256 is then the file's).
func (s *Shim) File(u string) (f File, kept bool, ok bool) {
	rest, found := strings.CutPrefix(u, s.base+"/f/")
	if !found {
		return File{}, false, false
	}
	id, _, _ := strings.Cut(rest, "/")
	l, ok := s.link(id)
	if !ok {
		return File{}, false, false
	}
	f = File{URL: l.real, Name: l.name, SHA256: l.sha256}
	s.mu.Lock()
	info := s.info[l.real]
	s.mu.Unlock()
	f.Size, f.Ranges = info.size, info.ranges
	if info.kept != "" {
		f.SHA256, kept = info.kept, true
	}
	return f, kept, true
}

func (s *Shim) link(id string) (shimLink, bool) {
	i, err := strconv.Atoi(id)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil || i < 0 || i >= len(s.links) {
		return shimLink{}, false
	}
	return s.links[i], true
}

func (s *Shim) serve(w http.ResponseWriter, r *http.Request) {
	parts := strings.SplitN(strings.TrimPrefix(r.URL.Path, "/"), "/", 3)
	switch {
	case len(parts) == 3 && parts[0] == "i":
		i, err := strconv.Atoi(parts[1])
		if err != nil || i < 0 || i >= len(s.indexes) {
			http.NotFound(w, r)
			return
		}
		s.servePage(w, s.pageURL(i, parts[2]))
	case len(parts) == 3 && parts[0] == "f":
		l, ok := s.link(parts[1])
		if !ok {
			http.NotFound(w, r)
			return
		}
		if strings.HasSuffix(parts[2], ".metadata") {
			s.metadata(w, r, l)
			return
		}
		s.stub(w, r, l)
	case len(parts) >= 2 && parts[0] == "l":
		i, err := strconv.Atoi(parts[1])
		if err != nil || i < 0 || i >= len(s.opts.FindLinks) {
			http.NotFound(w, r)
			return
		}
		s.servePage(w, s.opts.FindLinks[i])
	default:
		http.NotFound(w, r)
	}
}

// fetch gets a real URL once, with pip's network settings; later callers wait for the first one's answer.
func (s *Shim) fetch(u string) *indexpage.Page {
	ctx, cancel := context.WithTimeout(s.ctx, 2*s.net.timeout()+30*time.Second)
	defer cancel()
	return s.pages.Get(ctx, u)
}

func (s *Shim) pageURL(i int, project string) string {
	real := strings.TrimRight(s.indexes[i], "/") + "/" + project
	if !strings.HasSuffix(real, "/") {
		real += "/"
	}
	return real
}

// prefetch fetches the pages of the projects a wheel's metadata requires, in the background:
// pip asks for them one after another, each a round trip to a far index; they are then ready.
func (s *Shim) prefetch(metadata []byte) {
	for _, line := range strings.Split(string(metadata), "\n") {
		if line == "" {
			break // the headers are over
		}
		v, ok := strings.CutPrefix(line, "Requires-Dist:")
		if !ok || strings.Contains(v, "extra ==") || strings.Contains(v, "extra==") {
			continue
		}
		r, ok := pep.ParseRequirement(strings.TrimSpace(v))
		if !ok {
			continue
		}
		name := pep.Normalize(r.Name)
		for i := range s.indexes {
			go s.fetch(s.pageURL(i, name))
		}
		go s.ahead(r)
	}
}

// ahead reads the metadata of the wheel r names exactly ("nvidia-cublas==13.1.0.3" whose marker
// holds for the Target) before pip asks for it. pip reads one wheel's metadata after another, and
// from a server without Range requests each read is the whole wheel: read ahead, several at
// once, each is ready or under way when pip comes to it (one read: pip waits for the same one).
// Only a choice that is certain is read: one wheel on the first source that has that version for
// this Python; several (pip chooses by its tag order), a marker it cannot evaluate or a range of
// versions are left to pip.
func (s *Shim) ahead(r pep.Requirement) {
	pin, ok := r.Pin()
	if !ok || s.markers == nil {
		return
	}
	if holds, ok := pep.MarkerHolds(r.Marker, s.markers); !holds || !ok {
		return
	}
	name := pep.Normalize(r.Name)
	for i := range s.indexes {
		p := s.fetch(s.pageURL(i, name))
		if p.Err != nil || p.Status != http.StatusOK {
			continue
		}
		links, _ := p.Links()
		var pick []indexpage.Link
		for _, l := range links {
			w, err := pep.ParseWheel(l.File)
			if err == nil && l.Yanked == nil && w.Name == name && pep.PinMatches(w.Version, pin) &&
				w.Installs(s.opts.Target.Python, s.opts.Target.GOOS, s.opts.Target.GOARCH) {
				pick = append(pick, l)
			}
		}
		if len(pick) == 0 {
			continue
		}
		if len(pick) == 1 {
			real := *pick[0].URL
			real.Fragment, real.RawFragment = "", ""
			select {
			case s.aheadN <- struct{}{}:
			case <-s.ctx.Done():
				return
			}
			_, _ = s.realMetadata(s.ctx, shimLink{real: real.String(), name: pick[0].File, sha256: pick[0].Hashes["sha256"], metadata: pick[0].Metadata != ""})
			<-s.aheadN
		}
		return
	}
}

// servePage hands on the page at real (a project page, a flat page) with its wheel links pointing at
// the shim.
func (s *Shim) servePage(w http.ResponseWriter, real string) {
	p := s.fetch(real)
	if p.Err != nil {
		http.Error(w, urls.Redact(p.Err.Error()), http.StatusBadGateway)
		return
	}
	if p.Status != http.StatusOK {
		http.Error(w, "the index answers "+strconv.Itoa(p.Status), p.Status) //i18n:raw an HTTP body for the local pip, which shows only the status
		return
	}
	links, err := p.Links()
	if err != nil && !errors.Is(err, indexpage.ErrNoLinks) {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(s.pageOf(links))
}

// pageOf is a PEP 503 page of links: each wheel's pointing at the shim and marked as having metadata
// (the source's, else read out of the wheel), everything else as the source gave it. No #sha256 on a
// wheel: pip checks it against what it downloads, and it downloads a stub.
func (s *Shim) pageOf(links []indexpage.Link) []byte {
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html>\n<html><body>\n") //i18n:raw HTML for the local pip
	for _, l := range links {
		href, meta := l.URL.String(), l.Metadata
		if strings.HasSuffix(l.File, ".whl") {
			real := *l.URL
			real.Fragment, real.RawFragment = "", ""
			s.mu.Lock()
			id := len(s.links)
			s.links = append(s.links, shimLink{real: real.String(), name: l.File, sha256: l.Hashes["sha256"], metadata: meta != ""})
			s.mu.Unlock()
			href = s.base + "/f/" + strconv.Itoa(id) + "/" + url.PathEscape(l.File)
			if meta == "" {
				meta = "true"
			}
		}
		fmt.Fprintf(&b, `<a href="%s"`, html.EscapeString(href))
		if meta != "" {
			fmt.Fprintf(&b, ` data-dist-info-metadata="%s" data-core-metadata="%[1]s"`, html.EscapeString(meta))
		}
		if l.RequiresPython != "" {
			fmt.Fprintf(&b, ` data-requires-python="%s"`, html.EscapeString(l.RequiresPython))
		}
		if l.Yanked != nil {
			fmt.Fprintf(&b, ` data-yanked="%s"`, html.EscapeString(*l.Yanked))
		}
		fmt.Fprintf(&b, ">%s</a><br/>\n", html.EscapeString(path.Base(l.URL.Path)))
	}
	b.WriteString("</body></html>\n")
	return b.Bytes()
}

func (s *Shim) metadata(w http.ResponseWriter, r *http.Request, l shimLink) {
	b, err := s.realMetadata(r.Context(), l)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	_, _ = w.Write(b)
}

func (s *Shim) realMetadata(ctx context.Context, l shimLink) ([]byte, error) {
	if !l.metadata {
		return s.wheelMetadata(l)
	}
	p := s.fetch(l.real + ".metadata")
	if p.Err != nil {
		return nil, errors.New(urls.Redact(p.Err.Error()))
	}
	if p.Status != http.StatusOK {
		return nil, fmt.Errorf("%s.metadata: the index answers %d", l.name, p.Status) //i18n:raw becomes an HTTP body for the local pip (see stub)
	}
	s.prefetchOnce(l.real, p.Body)
	s.early(l)
	return p.Body, nil
}

// early hands l to ShimOptions.Early: pip read its metadata, so it is likely in the answer.
func (s *Shim) early(l shimLink) {
	if s.opts.Early == nil {
		return
	}
	s.mu.Lock()
	info := s.info[l.real]
	s.mu.Unlock()
	if info.kept != "" { // downloaded whole already
		return
	}
	s.opts.Early.Add(File{URL: l.real, Name: l.name, SHA256: l.sha256, Size: info.size, Ranges: info.ranges})
}

func (s *Shim) prefetchOnce(key string, metadata []byte) {
	s.mu.Lock()
	seen := s.prefetched[key]
	s.prefetched[key] = true
	s.mu.Unlock()
	if !seen {
		s.prefetch(metadata)
	}
}

// wheelMetadata is l's METADATA read out of the real wheel, once (pip asks for the metadata file,
// then the stub made of it).
func (s *Shim) wheelMetadata(l shimLink) ([]byte, error) {
	s.mu.Lock()
	e, ok := s.lazyMeta[l.real]
	if !ok {
		e = &lazyEntry{done: make(chan struct{})}
		s.lazyMeta[l.real] = e
	}
	s.mu.Unlock()
	if ok {
		<-e.done
		return e.body, e.err
	}
	defer close(e.done)
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	res, err := s.lazyMetadata(ctx, l)
	if err != nil {
		e.err = err
		return nil, err
	}
	e.body = res.metadata
	s.mu.Lock()
	s.info[l.real] = wheelInfo{size: res.size, ranges: res.ranges, kept: res.kept}
	s.lazy++
	s.mu.Unlock()
	s.prefetchOnce(l.real, res.metadata)
	s.early(l)
	return res.metadata, nil
}

// stub answers a wheel request with a wheel holding only the real wheel's metadata: all a dry
// run reads of it.
func (s *Shim) stub(w http.ResponseWriter, r *http.Request, l shimLink) {
	meta, err := s.realMetadata(r.Context(), l)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	b, err := stubWheel(l.name, meta)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	s.mu.Lock()
	s.stubs++
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	_, _ = w.Write(b)
}

// stubWheel is a wheel named name with metadata as its METADATA, and nothing to install.
func stubWheel(name string, metadata []byte) ([]byte, error) {
	wh, err := pep.ParseWheel(name)
	if err != nil {
		return nil, err
	}
	info := wh.Dist + "-" + wh.Version + ".dist-info"
	var wheel strings.Builder
	wheel.WriteString("Wheel-Version: 1.0\nGenerator: gpuwiz-resolve-stub\nRoot-Is-Purelib: false\n")
	for _, py := range wh.Python {
		for _, abi := range wh.ABI {
			for _, plat := range wh.Platforms {
				wheel.WriteString("Tag: " + py + "-" + abi + "-" + plat + "\n")
			}
		}
	}
	entries := []struct {
		name string
		body []byte
	}{{info + "/METADATA", metadata}, {info + "/WHEEL", []byte(wheel.String())}}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	var record strings.Builder
	for _, e := range entries {
		fw, err := zw.Create(e.name)
		if err != nil {
			return nil, err
		}
		if _, err := fw.Write(e.body); err != nil {
			return nil, err
		}
		sum := sha256.Sum256(e.body)
		fmt.Fprintf(&record, "%s,sha256=%s,%d\n", e.name, base64.RawURLEncoding.EncodeToString(sum[:]), len(e.body))
	}
	record.WriteString(info + "/RECORD,,\n")
	fw, err := zw.Create(info + "/RECORD")
	if err != nil {
		return nil, err
	}
	if _, err := fw.Write([]byte(record.String())); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
