// Package userpath turns a path as people type or paste it into the absolute path gpuwiz works on.
// Every path field of the wizard and every path flag of the CLI goes through Normalize, so `~`,
// the quotes of Windows Explorer's "Copy as path", environment variables and relative paths mean
// the same everywhere, and the absolute path can be shown back before anything is made there.
package userpath

import (
	"errors"
	"os"
	"path"
	"regexp"
	"runtime"
	"strings"

	"gpuwiz/steps/i18n"
)

// Env is what a path is read against: the OS's path rules, the home and working directories and
// the environment. System() is this process's.
type Env struct {
	GOOS   string
	Home   string
	Cwd    string
	Getenv func(string) string // nil: no variable is set
}

// System is the environment of this process.
func System() Env {
	home, _ := os.UserHomeDir()
	cwd, _ := os.Getwd()
	return Env{GOOS: runtime.GOOS, Home: home, Cwd: cwd, Getenv: os.Getenv}
}

// ErrUnset is returned (wrapped, in the catalog's words) when a path names a variable that is not set.
var ErrUnset = errors.New("environment variable not set") //i18n:raw errors.Is target; the message shown is userpath.unset

// Clean is Normalize against this process's environment.
func Clean(s string) (string, error) { return Normalize(s, System()) }

var (
	percentVar = regexp.MustCompile(`%([A-Za-z_][A-Za-z0-9_()]*)%`)
	psVar      = regexp.MustCompile(`\$env:([A-Za-z_][A-Za-z0-9_]*)`)
	posixVar   = regexp.MustCompile(`\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))`)
)

// Normalize reads s as a user's path: surrounding spaces and one pair of surrounding quotes
// ("C:\My venv" from "Copy as path", 'x' from a shell) go; %VAR% and $env:VAR (Windows) or $VAR
// and ${VAR} (elsewhere) are replaced by their values; a leading ~ is the home directory; a
// relative path is taken from env.Cwd. The result is clean and absolute. "" stays "". A variable
// that is not set is an error naming it (never a directory called %USERPROFILE%).
func Normalize(s string, env Env) (string, error) {
	s = Unquote(s)
	if s == "" {
		return "", nil
	}
	get := env.Getenv
	if get == nil {
		get = func(string) string { return "" }
	}
	var unset string
	expand := func(re *regexp.Regexp, in string) string {
		return re.ReplaceAllStringFunc(in, func(m string) string {
			sub := re.FindStringSubmatch(m)
			name := sub[1]
			if name == "" && len(sub) > 2 {
				name = sub[2]
			}
			v := get(name)
			if v == "" && unset == "" {
				unset = name
			}
			return v
		})
	}
	win := env.GOOS == "windows"
	if win {
		s = expand(percentVar, s)
		s = expand(psVar, s)
	} else {
		s = expand(posixVar, s)
	}
	if unset != "" {
		return "", i18n.Wrap(ErrUnset, i18n.T("userpath.unset", i18n.D{"Name": unset}))
	}
	if s == "~" || strings.HasPrefix(s, "~/") || win && strings.HasPrefix(s, `~\`) {
		if env.Home == "" {
			return "", i18n.Wrap(ErrUnset, i18n.T("userpath.no_home"))
		}
		s = env.Home + s[1:]
	}
	if win {
		return winAbs(s, env.Cwd), nil
	}
	if !strings.HasPrefix(s, "/") {
		s = env.Cwd + "/" + s
	}
	return path.Clean(s), nil
}

// Unquote drops surrounding spaces and one pair of matching surrounding quotes.
func Unquote(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '"' && s[len(s)-1] == '"' || s[0] == '\'' && s[len(s)-1] == '\'') {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	return s
}

// winAbs makes a Windows path absolute against cwd and cleans it, on any host (the rules are
// Windows', so they are tested on Linux too): C:\a, \\server\share and \a (the cwd's drive).
func winAbs(s, cwd string) string {
	s = strings.ReplaceAll(s, "/", `\`)
	switch {
	case strings.HasPrefix(s, `\\`): // UNC
		return `\` + winClean(s[2:])
	case len(s) >= 2 && s[1] == ':' && isLetter(s[0]):
		if len(s) == 2 || s[2] != '\\' { // C:x is relative to C:'s cwd; take the drive's root
			s = s[:2] + `\` + s[2:]
		}
		return strings.ToUpper(s[:1]) + ":" + winClean(s[2:])
	case strings.HasPrefix(s, `\`):
		if len(cwd) >= 2 && cwd[1] == ':' {
			return strings.ToUpper(cwd[:1]) + ":" + winClean(s)
		}
		return winClean(s)
	}
	return winAbs(strings.TrimRight(cwd, `\/`)+`\`+s, "")
}

func winClean(s string) string {
	c := path.Clean("/" + strings.ReplaceAll(s, `\`, "/"))
	return strings.ReplaceAll(c, "/", `\`)
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }
