package doctor

import (
	"os"
	"strings"
)

// Environ reads environment variables; set-but-empty and unset are different answers.
// Environ also hands the whole environment to children, so a fixed test environment stays fixed.
type Environ interface {
	LookupEnv(key string) (string, bool)
	Environ() []string
}

// OSEnviron is the process environment.
type OSEnviron struct{}

func (OSEnviron) LookupEnv(key string) (string, bool) { return os.LookupEnv(key) }
func (OSEnviron) Environ() []string                   { return os.Environ() }

func getenv(e Environ, key string) string {
	if e == nil {
		return ""
	}
	v, _ := e.LookupEnv(key)
	return v
}

// pathList splits a PATH-style variable with the target OS's list separator.
func pathList(goos, v string) []string {
	sep := ":"
	if goos == "windows" {
		sep = ";"
	}
	var out []string
	for _, p := range strings.Split(v, sep) {
		p = strings.Trim(strings.TrimSpace(p), `"`)
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}
