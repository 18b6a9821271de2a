// Package keep makes a venv defend the framework build gpuwiz installed: the venv's own pip
// configuration (pip.conf in the venv root, pip.ini on Windows: pip's "site" configuration file,
// read for that environment only, activated or not) names the venv's constraints.txt, so every later
// `pip install` there, with or without -U, keeps the build or fails with pip's conflict message
// instead of replacing it. gpuwiz writes only its own lines, between two marker comments, inside the
// file's [install] section when it has one, keeps every other setting, and removes exactly its lines
// when the user asks to have the venv back.
package keep

import (
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"gpuwiz/steps/atomicfile"
	"gpuwiz/steps/envroot"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pep"
)

const (
	beginMark = "# >>> gpuwiz: keep the framework build (gpuwiz protect --off removes these lines)" //i18n:raw a marker in a config file, the same in every language
	endMark   = "# <<< gpuwiz"
)

// ConfigFile is the venv's own pip configuration file.
func ConfigFile(venv, goos string) string {
	if goos == "" {
		goos = runtime.GOOS
	}
	if goos == "windows" {
		return filepath.Join(venv, "pip.ini")
	}
	return filepath.Join(venv, "pip.conf")
}

// Status is what the venv's pip configuration says about gpuwiz's protection.
type Status struct {
	File       string `json:"file"`
	Protected  bool   `json:"protected"`            // gpuwiz's lines are there
	Constraint string `json:"constraint,omitempty"` // the constraints file they name
	// UserConstraint is a constraint setting of the user's own in the [install] section: gpuwiz
	// leaves it alone and does not add a second one (pip would refuse a duplicate key).
	UserConstraint bool `json:"user_constraint,omitempty"`
}

// ErrUserConstraint is a venv whose pip configuration already sets its own constraint.
var ErrUserConstraint error = i18n.Lazy(func() string { return i18n.T("keep.err.user_constraint") })

// Value is how a constraints path is written for pip: pip splits a list setting at white space,
// so a path with a space in it is given as a file: URL (pip reads those too).
func Value(path string) string {
	if !strings.ContainsAny(path, " \t") {
		return path
	}
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/x → /C:/x
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// pathOf reads a Value back.
func pathOf(v string) string {
	if u, err := url.Parse(v); err == nil && u.Scheme == "file" {
		p := u.Path
		if len(p) > 2 && p[0] == '/' && p[2] == ':' {
			p = p[1:]
		}
		return filepath.FromSlash(p)
	}
	return v
}

// Read reports the protection of venv.
func Read(venv, goos string) Status { return ReadWith(os.ReadFile, venv, goos) }

// ReadWith is Read through another file reader (doctor's, which may be a fake).
func ReadWith(readFile func(string) ([]byte, error), venv, goos string) Status {
	st := Status{File: ConfigFile(venv, goos)}
	b, err := readFile(st.File)
	if err != nil {
		return st
	}
	inMine, section := false, ""
	for _, raw := range strings.Split(string(b), "\n") {
		line := strings.TrimSpace(strings.TrimSuffix(raw, "\r"))
		switch {
		case line == beginMark:
			inMine = true
		case line == endMark:
			inMine = false
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
			section = strings.ToLower(strings.TrimSpace(line[1 : len(line)-1]))
		case section == "install":
			k, v, ok := cut(line)
			if !ok || (k != "constraint" && k != "constraints") {
				continue
			}
			if inMine {
				st.Protected, st.Constraint = true, pathOf(v)
			} else {
				st.UserConstraint = true
			}
		}
	}
	return st
}

func cut(line string) (string, string, bool) {
	i := strings.IndexAny(line, "=:")
	if i < 0 || strings.HasPrefix(line, "#") || strings.HasPrefix(line, ";") {
		return "", "", false
	}
	return strings.ToLower(strings.TrimSpace(line[:i])), strings.TrimSpace(line[i+1:]), true
}

// Protect writes (or rewrites) gpuwiz's lines naming constraints into the venv's pip configuration.
func Protect(venv, constraints, goos string) (Status, error) {
	file := ConfigFile(venv, goos)
	b, err := os.ReadFile(file)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return Status{File: file}, err
	}
	lines := strip(splitLines(string(b)))
	if st := readLines(file, lines); st.UserConstraint {
		return st, ErrUserConstraint
	}
	eol := "\n"
	if goos == "windows" || (goos == "" && runtime.GOOS == "windows") {
		eol = "\r\n"
	}
	mine := []string{beginMark, "constraint = " + Value(constraints), endMark}
	at := -1
	for i, l := range lines {
		if strings.EqualFold(strings.ReplaceAll(strings.TrimSpace(l), " ", ""), "[install]") {
			at = i + 1
			break
		}
	}
	if at < 0 {
		mine = append([]string{beginMark, "[install]"}, mine[1:]...)
		if n := len(lines); n > 0 && strings.TrimSpace(lines[n-1]) != "" {
			lines = append(lines, "")
		}
		at = len(lines)
	}
	out := append(append(append([]string{}, lines[:at]...), mine...), lines[at:]...)
	text := strings.Join(out, eol)
	if !strings.HasSuffix(text, eol) {
		text += eol
	}
	if err := writeAtomic(venv, file, text); err != nil {
		return Status{File: file}, err
	}
	return Read(venv, goos), nil
}

// Unprotect removes gpuwiz's lines (and the file, when nothing else was in it).
func Unprotect(venv, goos string) (Status, error) {
	file := ConfigFile(venv, goos)
	b, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return Status{File: file}, nil
	}
	if err != nil {
		return Status{File: file}, err
	}
	lines := strip(splitLines(string(b)))
	empty := true
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			empty = false
		}
	}
	if empty {
		if err := os.Remove(file); err != nil {
			return Status{File: file}, err
		}
		return Status{File: file}, nil
	}
	eol := "\n"
	if strings.Contains(string(b), "\r\n") {
		eol = "\r\n"
	}
	if err := writeAtomic(venv, file, strings.Join(lines, eol)+eol); err != nil {
		return Status{File: file}, err
	}
	return Read(venv, goos), nil
}

func splitLines(s string) []string {
	s = strings.TrimRight(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// strip removes gpuwiz's block; an [install] header inside it stays when lines of the user's own
// follow it in that section (they were added under it later).
func strip(lines []string) []string {
	var out []string
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != beginMark {
			out = append(out, lines[i])
			continue
		}
		header := false
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != endMark; i++ {
			if strings.HasPrefix(strings.TrimSpace(lines[i]), "[") {
				header = true
			}
		}
		if header {
			for j := i + 1; j < len(lines); j++ {
				t := strings.TrimSpace(lines[j])
				if strings.HasPrefix(t, "[") {
					break
				}
				if t != "" && !strings.HasPrefix(t, "#") {
					out = append(out, "[install]")
					break
				}
			}
		}
	}
	// A blank line left at the end by the removal goes too.
	for len(out) > 0 && strings.TrimSpace(out[len(out)-1]) == "" {
		out = out[:len(out)-1]
	}
	return out
}

func readLines(file string, lines []string) Status {
	tmp := Status{File: file}
	section := ""
	for _, raw := range lines {
		line := strings.TrimSpace(raw)
		if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
			section = strings.ToLower(strings.TrimSpace(line[1 : len(line)-1]))
			continue
		}
		if k, _, ok := cut(line); ok && section == "install" && (k == "constraint" || k == "constraints") {
			tmp.UserConstraint = true
		}
	}
	return tmp
}

// writeAtomic writes file, which must lie inside venv, through a new temporary file beside it (a
// link left at either name is replaced, never written through: nothing outside the venv changes).
func writeAtomic(venv, file, text string) error {
	if !envroot.New(venv).Inside(file) {
		return errors.New(i18n.T("keep.err.outside", i18n.D{"File": file, "Venv": venv}))
	}
	return atomicfile.Write(file, []byte(text), 0o644)
}

// LockPins are the framework family's exact pins in a venv's requirements.lock ("torch==2.6.0+cu126"),
// the lines constraints.txt holds.
func LockPins(lock []byte) []string {
	var out []string
	for _, raw := range strings.Split(string(lock), "\n") {
		line := strings.TrimSpace(raw)
		if i := strings.Index(line, "#"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		name, _, ok := strings.Cut(line, "==")
		if !ok {
			continue
		}
		n := pep.Normalize(name)
		for _, fam := range [][]string{pep.TorchFamily, pep.PaddleDists} {
			for _, f := range fam {
				if f == n {
					out = append(out, line)
				}
			}
		}
	}
	return out
}

// ConstraintPins are the requirement lines of a constraints file.
func ConstraintPins(b []byte) []string {
	var out []string
	for _, raw := range strings.Split(string(b), "\n") {
		line := strings.TrimSpace(raw)
		if line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out
}

// Stale says which of the lock's pins the constraints lack (pins compared by PEP 503 name and
// version, local label included).
func Stale(lockPins, constraintPins []string) []string {
	have := map[string]bool{}
	for _, c := range constraintPins {
		name, v, _ := strings.Cut(c, "==")
		have[pep.Normalize(name)+"=="+strings.TrimSpace(v)] = true
	}
	var missing []string
	for _, l := range lockPins {
		name, v, _ := strings.Cut(l, "==")
		if !have[pep.Normalize(name)+"=="+strings.TrimSpace(v)] {
			missing = append(missing, l)
		}
	}
	return missing
}

// Ensure protects venv again from its requirements.lock: constraints.txt is written anew when it
// lacks one of the lock's framework pins (rewritten reports those), then gpuwiz's lines go into the
// venv's pip configuration.
func Ensure(venv, goos string) (st Status, rewritten []string, err error) {
	lock, err := os.ReadFile(filepath.Join(venv, "requirements.lock"))
	if err != nil {
		return Status{File: ConfigFile(venv, goos)}, nil, i18n.Wrap(err, i18n.T("keep.err.no_lock", i18n.D{"Venv": venv}))
	}
	pins := LockPins(lock)
	if len(pins) == 0 {
		return Status{File: ConfigFile(venv, goos)}, nil, errors.New(i18n.T("keep.err.no_pins", i18n.D{"File": filepath.Join(venv, "requirements.lock")}))
	}
	cfile := filepath.Join(venv, "constraints.txt")
	have, _ := os.ReadFile(cfile)
	if missing := Stale(pins, ConstraintPins(have)); len(missing) > 0 {
		//i18n:raw constraints.txt's comment: a file format, the same in every language
		text := "# written by gpuwiz protect from requirements.lock: keeps the framework build gpuwiz installed.\n" + strings.Join(pins, "\n") + "\n"
		if err := writeAtomic(venv, cfile, text); err != nil {
			return Status{File: ConfigFile(venv, goos)}, nil, err
		}
		rewritten = pins
	}
	st, err = Protect(venv, cfile, goos)
	return st, rewritten, err
}
