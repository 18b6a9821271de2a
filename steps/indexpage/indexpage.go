// Package indexpage reads package index pages as pip does: a PEP 503 project page or a flat
// find-links page (the anchors of an HTML page), or a PEP 691 JSON project page. A Reader fetches
// each URL once however many ask, and keeps the answer for the run; the index check, the source
// probe and the resolve shim read their pages through one.
package indexpage

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strings"
	"sync"
	"time"

	"golang.org/x/net/html"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/netproxy"
)

// PipAccept asks for PEP 691 JSON first, then PEP 503 HTML, as pip does.
const PipAccept = "application/vnd.pypi.simple.v1+json, application/vnd.pypi.simple.v1+html;q=0.2, text/html;q=0.01"

// MaxPage bounds one page: download.pytorch.org's torch page is about 2 MB.
const MaxPage = 64 << 20

// ErrNoLinks is a page without a single anchor: not an index page (or an empty flat page).
var ErrNoLinks = i18n.Lazy(func() string { return i18n.T("indexpage.no_links") })

// Link is one file (or folder) a page links.
type Link struct {
	URL            *url.URL          // absolute, its fragment kept
	File           string            // the last segment of its path, unescaped; "" for a folder
	RequiresPython string            // data-requires-python (PEP 503), requires-python (PEP 691); "" none
	Yanked         *string           // nil: not yanked; else the reason ("" when none is given)
	Metadata       string            // PEP 658/714 data-core-metadata: "true" or "sha256=…"; "" none
	Hashes         map[string]string // "sha256" → hex digest: the URL's fragment (PEP 503), hashes (PEP 691)
}

// Page is the answer for one URL.
type Page struct {
	Status  int
	Final   *url.URL // where the answer came from, after redirects
	Type    string   // its media type ("text/html")
	Body    []byte   // read only for 200
	Elapsed time.Duration
	Err     error // no answer (the client's error), or a body that could not be read whole

	parse func() ([]Link, error)
}

// Links are the page's links, parsed once by its type (JSON, else HTML); an error says it is not an
// index page (ErrNoLinks: no anchor at all).
func (p *Page) Links() ([]Link, error) {
	if p.parse == nil {
		return nil, p.Err
	}
	return p.parse()
}

// Files are the names of the files the page links, in its order (parse errors list none).
func (p *Page) Files() []string {
	links, _ := p.Links()
	var out []string
	for _, l := range links {
		if l.File != "" {
			out = append(out, l.File)
		}
	}
	return out
}

// Link is the first link naming file.
func (p *Page) Link(file string) (Link, bool) {
	links, _ := p.Links()
	for _, l := range links {
		if l.File == file {
			return l, true
		}
	}
	return Link{}, false
}

// Reader fetches pages, each URL once, and keeps them: one per run of a check, a probe or a resolve.
// Its zero value is ready.
type Reader struct {
	Client *http.Client // the run's (netproxy.ForPip); nil: netproxy.ForPip("", nil)'s
	Accept string       // "" PipAccept
	// Request makes the GET of a URL (the downloader's: credentials moved into a header); nil: a plain one.
	Request func(rawURL string) (*http.Request, error)

	mu    sync.Mutex
	pages map[string]*entry
}

type entry struct {
	done chan struct{}
	page *Page
}

// Get is the page at u, fetched by the first caller within its ctx; a later caller waits for that
// answer as long as its own ctx lasts (a wait cut short answers ctx's error, kept for no one).
func (r *Reader) Get(ctx context.Context, u string) *Page {
	r.mu.Lock()
	if r.pages == nil {
		r.pages = map[string]*entry{}
		if r.Client == nil {
			r.Client = netproxy.ForPip("", nil).Client()
		}
	}
	e, ok := r.pages[u]
	if !ok {
		e = &entry{done: make(chan struct{})}
		r.pages[u] = e
	}
	r.mu.Unlock()
	if !ok {
		e.page = r.fetch(ctx, u)
		close(e.done)
	}
	select {
	case <-e.done:
		return e.page
	case <-ctx.Done():
		return &Page{Err: ctx.Err()}
	}
}

func (r *Reader) fetch(ctx context.Context, u string) *Page {
	start := time.Now()
	p := &Page{}
	defer func() { p.Elapsed = time.Since(start) }()
	newRequest, accept := r.Request, r.Accept
	if newRequest == nil {
		newRequest = func(u string) (*http.Request, error) { return http.NewRequest(http.MethodGet, u, nil) }
	}
	if accept == "" {
		accept = PipAccept
	}
	req, err := newRequest(u)
	if err != nil {
		p.Err = err
		return p
	}
	req.Header.Set("Accept", accept)
	if req.Header.Get("User-Agent") == "" {
		req.Header.Set("User-Agent", "gpuwiz (index page reader)") //i18n:raw an HTTP header for the server's logs
	}
	resp, err := r.Client.Do(req.WithContext(ctx))
	if err != nil {
		p.Err = err
		return p
	}
	defer resp.Body.Close()
	p.Status, p.Final = resp.StatusCode, resp.Request.URL
	p.Type, _, _ = mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if p.Status != http.StatusOK {
		return p
	}
	p.Body, err = io.ReadAll(io.LimitReader(resp.Body, MaxPage+1))
	switch {
	case err != nil:
		p.Err = errors.New(i18n.T("indexpage.read", i18n.D{"Err": err.Error()}))
	case len(p.Body) > MaxPage:
		p.Err = errors.New(i18n.T("indexpage.too_large", i18n.D{"MB": MaxPage >> 20}))
	default:
		p.parse = sync.OnceValues(func() ([]Link, error) { return Parse(p.Body, p.Type, p.Final) })
	}
	return p
}

// Parse reads a page of media type ctype fetched from base: PEP 691 JSON when the type says JSON,
// else the anchors of an HTML page.
func Parse(body []byte, ctype string, base *url.URL) ([]Link, error) {
	if strings.HasSuffix(ctype, "json") {
		return parseJSON(body, base)
	}
	return parseHTML(body, base)
}

// parseJSON reads a PEP 691 project page: {"files": [{"filename": ..., "url": ...}, ...]}.
func parseJSON(body []byte, base *url.URL) ([]Link, error) {
	var doc struct {
		Files *[]struct {
			Filename       string            `json:"filename"`
			URL            string            `json:"url"`
			Hashes         map[string]string `json:"hashes"`
			RequiresPython string            `json:"requires-python"`
			Yanked         json.RawMessage   `json:"yanked"`
			CoreMetadata   json.RawMessage   `json:"core-metadata"`
			DistInfo       json.RawMessage   `json:"dist-info-metadata"`
		} `json:"files"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, errors.New(i18n.T("indexpage.bad_json", i18n.D{"Err": err.Error()}))
	}
	if doc.Files == nil {
		return nil, errors.New(i18n.T("indexpage.json_no_files"))
	}
	out := []Link{}
	for _, f := range *doc.Files {
		u, err := url.Parse(f.URL)
		if f.Filename == "" || err != nil {
			continue
		}
		l := Link{URL: resolve(base, u), File: f.Filename, RequiresPython: f.RequiresPython, Hashes: f.Hashes}
		var yanked any
		if json.Unmarshal(f.Yanked, &yanked) == nil && yanked != false && yanked != nil {
			reason, _ := yanked.(string)
			l.Yanked = &reason
		}
		for _, m := range []json.RawMessage{f.CoreMetadata, f.DistInfo} {
			var meta any
			if json.Unmarshal(m, &meta) != nil || l.Metadata != "" {
				continue
			}
			switch v := meta.(type) {
			case bool:
				if v {
					l.Metadata = "true"
				}
			case map[string]any:
				if h, ok := v["sha256"].(string); ok {
					l.Metadata = "sha256=" + h
				} else {
					l.Metadata = "true"
				}
			}
		}
		out = append(out, l)
	}
	return out, nil
}

// parseHTML reads the anchors of a PEP 503 page or a flat find-links page. A page with no tags is not
// HTML; one with no anchor is not an index page (ErrNoLinks, with no links).
func parseHTML(body []byte, base *url.URL) ([]Link, error) {
	z := html.NewTokenizer(bytes.NewReader(body))
	out := []Link{}
	anchors, sawTag := 0, false
	for {
		switch z.Next() {
		case html.ErrorToken:
			switch {
			case z.Err() != io.EOF:
				return nil, errors.New(i18n.T("indexpage.bad_html", i18n.D{"Err": z.Err().Error()}))
			case !sawTag:
				return nil, errors.New(i18n.T("indexpage.not_html"))
			case anchors == 0:
				return out, ErrNoLinks
			}
			return out, nil
		case html.StartTagToken, html.SelfClosingTagToken:
			sawTag = true
			if tok := z.Token(); tok.Data == "a" {
				anchors++
				if l, ok := anchor(tok.Attr, base); ok {
					out = append(out, l)
				}
			}
		}
	}
}

// anchor is the link an <a> tag's attributes make; false without a usable href.
func anchor(attrs []html.Attribute, base *url.URL) (Link, bool) {
	var l Link
	for _, a := range attrs {
		switch a.Key {
		case "href":
			u, err := url.Parse(strings.TrimSpace(a.Val))
			if err != nil {
				return Link{}, false
			}
			l.URL = resolve(base, u)
			if algo, h, ok := strings.Cut(l.URL.Fragment, "="); ok && h != "" {
				l.Hashes = map[string]string{strings.ToLower(algo): strings.ToLower(h)}
			}
		case "data-requires-python":
			l.RequiresPython = a.Val
		case "data-yanked":
			l.Yanked = &a.Val
		case "data-core-metadata", "data-dist-info-metadata":
			if l.Metadata == "" && a.Val != "" && a.Val != "false" {
				l.Metadata = a.Val
			}
		}
	}
	if l.URL == nil {
		return Link{}, false
	}
	if l.URL.Path != "" && !strings.HasSuffix(l.URL.Path, "/") {
		l.File = path.Base(l.URL.Path)
	}
	return l, true
}

func resolve(base, u *url.URL) *url.URL {
	if base == nil {
		return u
	}
	return base.ResolveReference(u)
}
