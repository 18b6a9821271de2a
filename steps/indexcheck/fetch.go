package indexcheck

import (
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

// ErrNotServed means the index answered that it has no such page (HTTP 404 or 410): the project is not
// on that index. Any other failure means gpuwiz could not look, which never counts as missing.
var ErrNotServed = i18n.Lazy(func() string { return i18n.T("indexcheck.fetch.not_served") })

// accept asks for PEP 691 JSON first, then PEP 503 HTML, as pip does.
const accept = "application/vnd.pypi.simple.v1+json, application/vnd.pypi.simple.v1+html;q=0.2, text/html;q=0.01"

// maxPage bounds one page: download.pytorch.org's torch page is about 2 MB.
const maxPage = 64 << 20

// Fetcher reads index pages, each at most once, with a timeout per request.
type Fetcher struct {
	// Client makes the requests: the run's (netproxy.ForPip); nil: netproxy.ForPip("", nil)'s.
	Client  *http.Client
	Timeout time.Duration // per request; 0: 20 s

	mu    sync.Mutex
	pages map[string]*page
}

type page struct {
	done  chan struct{}
	files []string
	hosts map[string]string // file name → the host its link points at
	err   error
}

// LinkHost is the host the page at pageURL (already read by Files) links file on; "" when unknown.
func (f *Fetcher) LinkHost(pageURL, file string) string {
	f.mu.Lock()
	p, ok := f.pages[pageURL]
	f.mu.Unlock()
	if !ok {
		return ""
	}
	select {
	case <-p.done:
		return p.hosts[file]
	default:
		return ""
	}
}

// Files returns the file names a page lists (PEP 691 JSON, PEP 503 HTML or a flat find-links page),
// fetched once per URL however many callers ask at the same time.
func (f *Fetcher) Files(ctx context.Context, pageURL string) ([]string, error) {
	f.mu.Lock()
	if f.pages == nil {
		f.pages = map[string]*page{}
	}
	p, ok := f.pages[pageURL]
	if !ok {
		p = &page{done: make(chan struct{})}
		f.pages[pageURL] = p
	}
	f.mu.Unlock()
	if ok {
		select {
		case <-p.done:
			return p.files, p.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	p.files, p.hosts, p.err = f.fetch(ctx, pageURL)
	close(p.done)
	return p.files, p.err
}

func (f *Fetcher) fetch(ctx context.Context, pageURL string) ([]string, map[string]string, error) {
	timeout := f.Timeout
	if timeout <= 0 {
		timeout = 20 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, pageURL, nil)
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Accept", accept)
	client := f.Client
	if client == nil {
		client = netproxy.ForPip("", nil).Client()
	}
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return nil, nil, errors.New(i18n.T("indexcheck.fetch.timeout", i18n.D{"Timeout": timeout.String()}))
		}
		var uerr *url.Error
		if errors.As(err, &uerr) {
			return nil, nil, uerr.Err // the URL is reported beside the reason, redacted
		}
		return nil, nil, err
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone:
		return nil, nil, ErrNotServed
	case resp.StatusCode != http.StatusOK:
		return nil, nil, errors.New(i18n.T("indexcheck.fetch.status", i18n.D{"Status": resp.Status}))
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxPage+1))
	if err != nil {
		return nil, nil, errors.New(i18n.T("indexcheck.fetch.read", i18n.D{"Err": err.Error()}))
	}
	if len(body) > maxPage {
		return nil, nil, errors.New(i18n.T("indexcheck.fetch.too_large", i18n.D{"MB": maxPage >> 20}))
	}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if strings.HasSuffix(ct, "json") {
		return parseJSON(body, resp.Request.URL)
	}
	return parseHTML(body, resp.Request.URL)
}

// parseJSON reads a PEP 691 project page: {"files": [{"filename": ...}, ...]}.
func parseJSON(body []byte, base *url.URL) ([]string, map[string]string, error) {
	var doc struct {
		Meta *struct {
			APIVersion string `json:"api-version"`
		} `json:"meta"`
		Files *[]struct {
			Filename string `json:"filename"`
			URL      string `json:"url"`
		} `json:"files"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, nil, errors.New(i18n.T("indexcheck.fetch.bad_json", i18n.D{"Err": err.Error()}))
	}
	if doc.Files == nil {
		return nil, nil, errors.New(i18n.T("indexcheck.fetch.json_no_files"))
	}
	out := []string{}
	hosts := map[string]string{}
	for _, f := range *doc.Files {
		if f.Filename != "" {
			out = append(out, f.Filename)
			if u, err := url.Parse(f.URL); err == nil && base != nil {
				hosts[f.Filename] = base.ResolveReference(u).Host
			}
		}
	}
	return out, hosts, nil
}

// parseHTML reads the anchors of a PEP 503 page or a flat find-links page: each href's last path
// segment, decoded, is a file name. A page with no anchors at all is not an index page.
func parseHTML(body []byte, base *url.URL) ([]string, map[string]string, error) {
	z := html.NewTokenizer(strings.NewReader(string(body)))
	out := []string{}
	hosts := map[string]string{}
	anchors, sawTag := 0, false
	for {
		switch z.Next() {
		case html.ErrorToken:
			if z.Err() != io.EOF {
				return nil, nil, errors.New(i18n.T("indexcheck.fetch.bad_html", i18n.D{"Err": z.Err().Error()}))
			}
			if !sawTag {
				return nil, nil, errors.New(i18n.T("indexcheck.fetch.not_html"))
			}
			if anchors == 0 {
				return nil, nil, errors.New(i18n.T("indexcheck.fetch.no_links"))
			}
			return out, hosts, nil
		case html.StartTagToken, html.SelfClosingTagToken:
			sawTag = true
			name, hasAttr := z.TagName()
			if string(name) != "a" {
				continue
			}
			anchors++
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				if string(k) != "href" {
					continue
				}
				if file, host := fileOf(string(v), base); file != "" {
					out = append(out, file)
					hosts[file] = host
				}
			}
		}
	}
}

// fileOf is the file name an href points at: "../torch-2.6.0%2Bcu126-cp312-cp312-win_amd64.whl#sha256=..."
// gives "torch-2.6.0+cu126-cp312-cp312-win_amd64.whl"; links to folders give "".
func fileOf(href string, base *url.URL) (file, host string) {
	u, err := url.Parse(strings.TrimSpace(href))
	if err != nil {
		return "", ""
	}
	if base != nil {
		u = base.ResolveReference(u)
	}
	p := u.Path
	if strings.HasSuffix(p, "/") {
		return "", ""
	}
	return path.Base(p), u.Host
}
