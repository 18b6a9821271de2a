package runner

import "regexp"

var (
	// userinfo in any URL: scheme://user:token@host or scheme://token@host.
	urlUserinfo = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*://)[^/\s@'"]+@`)
	// secrets passed as query parameters.
	querySecret = regexp.MustCompile(`(?i)([?&](?:token|access_token|auth|auth_token|password|passwd|pwd|secret|key|api_key|apikey|sig|signature|x-amz-signature|x-amz-credential|x-amz-security-token)=)[^&\s'"#]+`)
)

// Redact hides credentials in URLs: https://user:token@host becomes https://***@host and
// ?token=abc becomes ?token=***.
func Redact(s string) string {
	s = urlUserinfo.ReplaceAllString(s, "${1}***@")
	return querySecret.ReplaceAllString(s, "${1}***")
}
