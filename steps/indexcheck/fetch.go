package indexcheck

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/indexpage"
)

// ErrNotServed means the index answered that it has no such page (HTTP 404 or 410): the project is not
// on that index. Any other failure means gpuwiz could not look, which never counts as missing.
var ErrNotServed = i18n.Lazy(func() string { return i18n.T("indexcheck.fetch.not_served") })

// Fetcher reads index pages (indexpage: PEP 691 JSON, PEP 503 HTML or a flat find-links page), each
// at most once, with a timeout per request.
type Fetcher struct {
	// Client makes the requests: the run's (netproxy.ForPip); nil: netproxy.ForPip("", nil)'s.
	Client  *http.Client
	Timeout time.Duration // per request; 0: 20 s

	once  sync.Once
	pages *indexpage.Reader
}

// page is the page at pageURL, read once; err says why it lists nothing.
func (f *Fetcher) page(ctx context.Context, pageURL string) (*indexpage.Page, error) {
	f.once.Do(func() { f.pages = &indexpage.Reader{Client: f.Client} })
	timeout := f.Timeout
	if timeout <= 0 {
		timeout = 20 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	p := f.pages.Get(ctx, pageURL)
	var uerr *url.Error
	switch {
	case errors.Is(p.Err, context.DeadlineExceeded):
		return p, errors.New(i18n.T("indexcheck.fetch.timeout", i18n.D{"Timeout": timeout.String()}))
	case errors.As(p.Err, &uerr):
		return p, uerr.Err // the URL is reported beside the reason, redacted
	case p.Err != nil:
		return p, p.Err
	case p.Status == http.StatusNotFound || p.Status == http.StatusGone:
		return p, ErrNotServed
	case p.Status != http.StatusOK:
		return p, errors.New(i18n.T("indexcheck.fetch.status", i18n.D{"Status": strconv.Itoa(p.Status) + " " + http.StatusText(p.Status)}))
	}
	_, err := p.Links()
	return p, err
}

// Files returns the file names a page lists, fetched once per URL however many callers ask at the
// same time.
func (f *Fetcher) Files(ctx context.Context, pageURL string) ([]string, error) {
	p, err := f.page(ctx, pageURL)
	if err != nil {
		return nil, err
	}
	return p.Files(), nil
}

// LinkHost is the host the page at pageURL (already read by Files) links file on; "" when unknown.
func (f *Fetcher) LinkHost(pageURL, file string) string {
	p, err := f.page(context.Background(), pageURL)
	if l, ok := p.Link(file); err == nil && ok {
		return l.URL.Host
	}
	return ""
}
