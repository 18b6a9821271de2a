package doctor

import "regexp"

var (
	// scheme://user:password@host or scheme://token@host
	urlUserinfo = regexp.MustCompile(`([a-zA-Z][a-zA-Z0-9+.-]*://)[^/\s@'"]+@`)
	// ?token=..., &api_key=..., &sig=...
	queryToken = regexp.MustCompile(`(?i)([?&;](?:[a-z0-9_-]*token|api[_-]?key|key|password|passwd|pwd|secret|sig|signature|auth|credential)=)[^&\s'"#]+`)
	// Authorization: Bearer xxx, and header-style lines in logs
	authHeader = regexp.MustCompile(`(?i)(authorization:\s*(?:bearer|basic|token)?\s*)\S+`)
	// PIP_INDEX_URL=..., PIP_EXTRA_INDEX_URL=..., PIP_*_URL in env dumps: the whole value goes
	pipURLVar = regexp.MustCompile(`(?i)\b(PIP_[A-Z_]*URL[S]?\s*[=:]\s*)\S+`)
)

// Redact removes credentials from text bound for a log or a bug-report bundle.
func Redact(s string) string {
	s = pipURLVar.ReplaceAllString(s, "${1}[redacted]")
	s = urlUserinfo.ReplaceAllString(s, "${1}[redacted]@")
	s = queryToken.ReplaceAllString(s, "${1}[redacted]")
	s = authHeader.ReplaceAllString(s, "${1}[redacted]")
	return s
}
