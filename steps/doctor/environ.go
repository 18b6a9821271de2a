package doctor

import (
	"os"
	"strings"
)

// Environ reads environment variables; set-but-empty and unset are different answers.
type Environ interface {
	LookupEnv(key string) (string, bool)
}

// OSEnviron is the process environment.
type OSEnviron struct{}

func (OSEnviron) LookupEnv(key string) (string, bool) { return os.LookupEnv(key) }

// MapEnviron is a fixed environment for tests and for --simulate style runs.
type MapEnviron map[string]string

func (m MapEnviron) LookupEnv(key string) (string, bool) {
	v, ok := m[key]
	return v, ok
}

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
