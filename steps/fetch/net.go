package fetch

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/netproxy"
	"gpuwiz/steps/urls"
)

// Network is how the downloader reaches the index, by pip's rules.
type Network struct {
	// Proxy is the run's proxy rules, pip's (netproxy.ForPip: pip's proxy setting, else the
	// environment's variables, else the Windows system proxy); nil: netproxy.ForPip("", nil).
	Proxy *netproxy.Resolver
	// Cert is pip's cert setting (--cert, PIP_CERT, cert= in pip.conf): a PEM bundle that replaces
	// the system's certificate store. Empty: the system store.
	Cert string
	// Credentials are URLs whose user:password@ also applies to files on the same host, as pip
	// reuses an index URL's credentials for the files it links to (the index URL, a mirror).
	Credentials []string
	// Timeout bounds waiting for a response's headers and every gap in its body (pip's --timeout,
	// 15 s by default).
	Timeout time.Duration
}

// Client is an HTTP client by these rules, for other requests to the same index (a page).
func (n Network) Client() (*http.Client, error) { return n.client(4) }

// client builds the HTTP client: pooled keep-alive connections, the proxy and certificate rules
// above, no transparent gzip (wheels are stored as they are, and a Range must mean bytes).
func (n Network) client(conns int) (*http.Client, error) {
	tr := &http.Transport{
		Proxy:                 n.resolver().Proxy,
		DialContext:           (&net.Dialer{Timeout: n.timeout(), KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          conns * 2,
		MaxIdleConnsPerHost:   conns,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   n.timeout(),
		ResponseHeaderTimeout: n.timeout(),
		DisableCompression:    true,
	}
	if n.Cert != "" {
		pem, err := os.ReadFile(n.Cert)
		if err != nil {
			return nil, i18n.Wrap(err, i18n.T("fetch.err.cert_read", i18n.D{"Cert": n.Cert, "Err": err}))
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, errors.New(i18n.T("fetch.err.cert_pem", i18n.D{"Cert": n.Cert}))
		}
		tr.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	}
	return &http.Client{Transport: tr}, nil
}

func (n Network) timeout() time.Duration {
	if n.Timeout > 0 {
		return n.Timeout
	}
	return 15 * time.Second
}

func (n Network) resolver() *netproxy.Resolver {
	if n.Proxy == nil {
		return netproxy.ForPip("", nil)
	}
	return n.Proxy
}

// ProxyInUse names the proxy a request to rawURL goes through ("" for none), redacted, for messages.
func (n Network) ProxyInUse(rawURL string) string {
	return n.resolver().InUse(rawURL)
}

// request prepares a GET of rawURL with the credentials moved out of the URL into a basic auth
// header (so they never appear in an error, a log or a redirect to another host).
func (n Network) request(rawURL string) (*http.Request, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, i18n.Wrap(err, i18n.T("fetch.err.not_url", i18n.D{"URL": urls.Redact(rawURL), "Err": err}))
	}
	if u.Scheme != "https" && u.Scheme != "http" {
		return nil, unsupported(i18n.T("fetch.err.not_http", i18n.D{"URL": urls.Redact(rawURL)}))
	}
	user := u.User
	u.User = nil
	if user == nil {
		for _, c := range n.Credentials {
			cu, err := url.Parse(c)
			if err == nil && cu.User != nil && strings.EqualFold(cu.Host, u.Host) {
				user = cu.User
				break
			}
		}
	}
	req, err := http.NewRequest(http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", urls.Redact(rawURL), err)
	}
	if user != nil {
		pw, _ := user.Password()
		req.SetBasicAuth(user.Username(), pw)
	}
	req.Header.Set("User-Agent", "gpuwiz (pip-compatible wheel downloader)") //i18n:raw an HTTP header for the server
	req.Header.Set("Accept-Encoding", "identity")
	return req, nil
}

// hostOf is the host a URL names, without credentials, for messages.
func hostOf(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "?"
	}
	return u.Host
}

// why is a network error in plain words, without the URL (which the caller names, redacted).
func why(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var ne net.Error
	switch {
	case err == io.ErrUnexpectedEOF: // only the bare error, whose English is exactly "unexpected EOF"
		return i18n.T("fetch.why.dropped")
	case errors.As(err, &ne) && ne.Timeout():
		return i18n.T("fetch.why.timeout", i18n.D{"Err": urls.Redact(err.Error())})
	}
	return urls.Redact(err.Error())
}
