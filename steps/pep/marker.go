package pep

import (
	"strconv"
	"strings"

	"github.com/hashicorp/go-version"
)

// Requirement is one Requires-Dist value (PEP 508): "nvidia-cublas==13.1.0.3; platform_system == \"Linux\"".
type Requirement struct {
	Name   string // as written
	Extras []string
	Spec   string // the version specifiers, without parentheses: "==13.1.0.3", ">=1.13.3,<2"
	Marker string // after the ";", "" when none
}

// ParseRequirement reads a PEP 508 requirement without a URL; ok is false for anything else.
func ParseRequirement(s string) (r Requirement, ok bool) {
	s, r.Marker, _ = strings.Cut(s, ";")
	r.Marker = strings.TrimSpace(r.Marker)
	s = strings.TrimSpace(s)
	end := strings.IndexFunc(s, func(c rune) bool {
		return !(c == '-' || c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z')
	})
	if end < 0 {
		end = len(s)
	}
	if r.Name = s[:end]; r.Name == "" {
		return Requirement{}, false
	}
	rest := strings.TrimSpace(s[end:])
	if strings.HasPrefix(rest, "[") {
		in, after, found := strings.Cut(rest[1:], "]")
		if !found {
			return Requirement{}, false
		}
		for _, e := range strings.Split(in, ",") {
			if e = strings.TrimSpace(e); e != "" {
				r.Extras = append(r.Extras, e)
			}
		}
		rest = strings.TrimSpace(after)
	}
	if strings.HasPrefix(rest, "@") {
		return Requirement{}, false // a direct reference
	}
	rest = strings.TrimSuffix(strings.TrimPrefix(rest, "("), ")")
	r.Spec = strings.ReplaceAll(rest, " ", "")
	return r, true
}

// Pin is the version of a requirement that names exactly one ("==1.2.3"), else ok false.
func (r Requirement) Pin() (version string, ok bool) {
	v, found := strings.CutPrefix(r.Spec, "==")
	if !found || v == "" || strings.ContainsAny(v, ",*=<>!~") {
		return "", false
	}
	return v, true
}

// MarkerEnv is the environment markers are evaluated in (PEP 508's variables), for a CPython of
// version pyVersion ("3.12.4") on goos/goarch as Go names them.
func MarkerEnv(pyVersion, goos, goarch string) map[string]string {
	env := map[string]string{"implementation_name": "cpython", "platform_python_implementation": "CPython",
		"python_full_version": pyVersion, "os_name": "posix"}
	if maj, min, ok := ParsePython(pyVersion); ok {
		env["python_version"] = strconv.Itoa(maj) + "." + strconv.Itoa(min)
	}
	switch goos {
	case "windows":
		env["sys_platform"], env["platform_system"], env["os_name"] = "win32", "Windows", "nt"
	case "darwin":
		env["sys_platform"], env["platform_system"] = "darwin", "Darwin"
	case "linux":
		env["sys_platform"], env["platform_system"] = "linux", "Linux"
	}
	machine := map[string]string{"amd64": "x86_64", "arm64": "aarch64", "386": "i686"}[goarch]
	if goos == "windows" {
		machine = map[string]string{"amd64": "AMD64", "arm64": "ARM64", "386": "x86"}[goarch]
	} else if goos == "darwin" && goarch == "arm64" {
		machine = "arm64"
	}
	if machine != "" {
		env["platform_machine"] = machine
	}
	return env
}

// MarkerHolds evaluates a PEP 508 marker in env. ok is false when it cannot say for sure: a
// variable env does not hold (extra among them), an operator or a syntax it does not know.
func MarkerHolds(marker string, env map[string]string) (holds, ok bool) {
	if strings.TrimSpace(marker) == "" {
		return true, true
	}
	p := &markerParser{toks: markerTokens(marker), env: env}
	holds, ok = p.or()
	return holds, ok && p.i == len(p.toks)
}

type markerParser struct {
	toks []string
	i    int
	env  map[string]string
}

func (p *markerParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return ""
}

func (p *markerParser) or() (bool, bool) {
	v, ok := p.and()
	for ok && p.peek() == "or" {
		p.i++
		w, ok2 := p.and()
		v, ok = v || w, ok2
	}
	return v, ok
}

func (p *markerParser) and() (bool, bool) {
	v, ok := p.atom()
	for ok && p.peek() == "and" {
		p.i++
		w, ok2 := p.atom()
		v, ok = v && w, ok2
	}
	return v, ok
}

func (p *markerParser) atom() (bool, bool) {
	if p.peek() == "(" {
		p.i++
		v, ok := p.or()
		if !ok || p.peek() != ")" {
			return false, false
		}
		p.i++
		return v, true
	}
	lhs, ok := p.value()
	if !ok {
		return false, false
	}
	op := p.peek()
	p.i++
	if op == "not" {
		if p.peek() != "in" {
			return false, false
		}
		p.i++
		op = "not in" //i18n:raw a PEP 508 operator
	}
	rhs, ok := p.value()
	if !ok {
		return false, false
	}
	return compareMarker(lhs, op, rhs)
}

// value is a quoted string or a variable's value from env.
func (p *markerParser) value() (string, bool) {
	t := p.peek()
	p.i++
	if len(t) >= 2 && (t[0] == '"' || t[0] == '\'') {
		return t[1 : len(t)-1], true
	}
	v, ok := p.env[t]
	return v, ok
}

func compareMarker(a, op, b string) (bool, bool) {
	switch op {
	case "in":
		return strings.Contains(b, a), true
	case "not in": //i18n:raw a PEP 508 operator
		return !strings.Contains(b, a), true
	}
	c, numeric := compareDotted(a, b)
	switch op {
	case "==", "===":
		if numeric {
			return c == 0, true
		}
		return a == b, true
	case "!=":
		if numeric {
			return c != 0, true
		}
		return a != b, true
	case "<", "<=", ">", ">=":
		if !numeric {
			return false, false
		}
		return map[string]bool{"<": c < 0, "<=": c <= 0, ">": c > 0, ">=": c >= 0}[op], true
	}
	return false, false
}

// compareDotted compares two versions ("3.10" > "3.9", "3.13.0rc1" < "3.13.0") as the project
// compares versions elsewhere (go-version); numeric is false when either is not one ("Linux").
func compareDotted(a, b string) (c int, numeric bool) {
	va, ea := version.NewVersion(a)
	vb, eb := version.NewVersion(b)
	if ea != nil || eb != nil {
		return 0, false
	}
	return va.Compare(vb), true
}

// markerTokens splits a marker into quoted strings, parentheses, operators and words.
func markerTokens(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '(' || c == ')':
			out = append(out, string(c))
			i++
		case c == '"' || c == '\'':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				return append(out, "\x00") // unterminated: no value parses
			}
			out = append(out, s[i:i+j+2])
			i += j + 2
		case strings.IndexByte("=!<>~", c) >= 0:
			j := i + 1
			for j < len(s) && strings.IndexByte("=!<>~", s[j]) >= 0 {
				j++
			}
			out = append(out, s[i:j])
			i = j
		default:
			j := i
			for j < len(s) && strings.IndexByte(" \t()\"'=!<>~", s[j]) < 0 {
				j++
			}
			out = append(out, s[i:j])
			i = j
		}
	}
	return out
}
