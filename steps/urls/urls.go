// Package urls is gpuwiz's one URL and credential policy.
//
// Check is the only test of a URL a user gives gpuwiz: an index (--index-url), a find-links page
// (--find-links), a mirror (--mirror of install, doctor and python install), a package source (the
// sources file, the wizard's custom-source field), a matrix file's index_url. It accepts https, and
// plain http only to a loopback host (a local test index), and its error names the URL with its
// credentials hidden and says what to write instead.
//
// Redact is the only function that hides credentials in text: user:password@ and token@ in any URL
// (also without a scheme), secrets in query strings (?token=, &sig=, X-Amz-Signature and the like),
// Authorization headers and the whole value of PIP_*_URL variables. Every text that reaches a screen,
// a log, a JSON field, a lock file, venvs.json or a doctor bundle goes through it; the credentials
// themselves are still used for the requests that need them.
package urls

import (
	"io"
	"net"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"gpuwiz/steps/i18n"
)

// Mask stands where a credential was.
const Mask = "***"

var (
	// userinfo in any URL: scheme://user:password@host or scheme://token@host. It runs to the last
	// "@" before the path, so a password with an unescaped "@" goes whole.
	urlUserinfo = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*://)[^/\s'"?#<>]*@`)
	// user:password@host without a scheme, as typed by mistake ("user:pw@host/simple").
	bareUserinfo = regexp.MustCompile(`(^|[^A-Za-z0-9_.:/@%+~-])[A-Za-z0-9_.%+~-]+:[^\s/'"”’」）)]*@`)
	// secrets passed as query parameters.
	// "\u0026" is "&" as Go's JSON encoder writes it.
	querySecret = regexp.MustCompile(`(?i)((?:[?&;]|\\u0026)(?:[a-z0-9_-]*(?:token|secret|password|passwd|pwd|signature|credential)|auth|key|api[_-]?key|apikey|sig)=)[^&\s'"#<>\\]+`)
	// Authorization: Bearer xxx, and header-style lines in logs. Blanks, not line ends, before the
	// value: an empty value must not take the next line's first word.
	authHeader = regexp.MustCompile(`(?i)(authorization:[ \t]*(?:bearer|basic|token)?[ \t]*)[^\s]+`)
	// PIP_INDEX_URL=..., PIP_EXTRA_INDEX_URL=..., PIP_*_URL in environment dumps: the whole value goes
	// (an empty one stays empty).
	pipURLVar = regexp.MustCompile(`(?i)\b(PIP_[A-Z_]*URLS?[ \t]*[=:][ \t]*)[^\s]+`)
)

// Redact hides credentials in text: https://user:token@host becomes https://***@host, ?token=abc
// becomes ?token=***, "Authorization: Bearer x" loses x and PIP_INDEX_URL=... its whole value.
// Text without credentials comes back as it was.
func Redact(s string) string {
	if !strings.ContainsAny(s, "@=:") { // every rule below needs one of them
		return s
	}
	// Each rule runs only where the text has the literal it needs: a regexp scans the whole text
	// even when nothing matches (a quarter of a millisecond for `gpu --json`'s report here).
	if containsFold(s, "pip_") {
		s = pipURLVar.ReplaceAllString(s, "${1}"+Mask)
	}
	if strings.Contains(s, "@") {
		s = urlUserinfo.ReplaceAllString(s, "${1}"+Mask+"@")
		s = bareUserinfo.ReplaceAllString(s, "${1}"+Mask+"@")
	}
	if strings.Contains(s, "=") {
		s = querySecret.ReplaceAllString(s, "${1}"+Mask)
	}
	if containsFold(s, "authorization") {
		s = authHeader.ReplaceAllString(s, "${1}"+Mask)
	}
	return s
}

// containsFold reports whether s holds sub (ASCII) in any case.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

// Strip drops a URL's user:password@ for good (for what is kept on disk and read back as a URL, such
// as requirements.lock's index-url) and redacts what else looks like a secret.
func Strip(s string) string {
	if u, err := url.Parse(s); err == nil && u.User != nil {
		u.User = nil
		s = u.String()
	}
	return Redact(s)
}

// IsLoopback reports whether host (a URL's Hostname) is localhost or a loopback IP: the only hosts a
// plain-http URL may name.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// OnLoopback reports whether the URL raw names a loopback host: an index on this computer, which
// is never the vendor's official one, whatever list it came from.
func OnLoopback(raw string) bool {
	u, err := url.Parse(strings.TrimSpace(raw))
	return err == nil && u.Host != "" && IsLoopback(u.Hostname())
}

// Error is a URL Check refused: the URL as it may be shown (redacted) and why, in the user's language.
type Error struct {
	URL    string // redacted
	Reason string
}

func (e *Error) Error() string { return e.Reason }

// Check accepts a URL a user gives: https to any host, plain http only to a loopback host. The error
// (an *Error) names the URL redacted, quoted, and says what to write instead.
func Check(raw string) (*url.URL, error) {
	shown := strconv.Quote(Redact(strings.TrimSpace(raw)))
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" || u.Opaque != "" {
		return nil, &Error{URL: shown, Reason: i18n.T("urls.check.not_url", i18n.D{"URL": shown})}
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
		return u, nil
	case "http":
		if IsLoopback(u.Hostname()) {
			return u, nil
		}
		return nil, &Error{URL: shown, Reason: i18n.T("urls.check.plain_http", i18n.D{"URL": shown})}
	}
	return nil, &Error{URL: shown, Reason: i18n.T("urls.check.scheme", i18n.D{"URL": shown, "Scheme": u.Scheme})}
}

// Valid reports whether Check accepts raw.
func Valid(raw string) bool {
	_, err := Check(raw)
	return err == nil
}

// NewWriter passes every write to w through Redact. Each write must carry whole lines or a whole
// document (fmt.Fprint*, json.Encoder and the CLI's printers do), so no secret is split across two
// writes. Unwrap hands out w (the wizard looks behind it for the terminal).
func NewWriter(w io.Writer) io.Writer { return redactingWriter{w} }

type redactingWriter struct{ w io.Writer }

func (r redactingWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(r.w, Redact(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (r redactingWriter) Unwrap() io.Writer { return r.w }
