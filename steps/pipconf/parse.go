package pipconf

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// option is one option of a parsed file, in the order configparser's dict keeps it.
type option struct {
	name  string   // configparser's optionxform: lower case, otherwise as written
	lines []string // the value's lines, joined once the file is read
	value string
}

// section is one section of a parsed file.
type section struct {
	name string
	opts []option
}

// set is a dict's assignment: a name already there keeps its place.
func (s *section) set(o option) {
	for i := range s.opts {
		if s.opts[i].name == o.name {
			s.opts[i] = o
			return
		}
	}
	s.opts = append(s.opts, o)
}

func (s *section) get(name string) *option {
	for i := range s.opts {
		if s.opts[i].name == name {
			return &s.opts[i]
		}
	}
	return nil
}

// parsed is one file as Python's configparser.RawConfigParser reads it (pip's defaults: delimiters
// = and :, full-line comments # and ;, no inline comments, strict, no valueless options, empty
// lines kept in values).
type parsed struct {
	defaults section   // [DEFAULT]
	sections []section // in file order
}

// items is RawConfigParser.items(name): the DEFAULT options, then the section's, a section's
// value replacing a default's in the default's place.
func (p parsed) items(s section) []option {
	d := section{opts: append([]option(nil), p.defaults.opts...)}
	for _, o := range s.opts {
		d.set(o)
	}
	return d.opts
}

// parseError is a file configparser refuses (pip then fails on every command).
type parseError struct {
	line int
	text string
	why  string
}

func (e *parseError) Error() string {
	return fmt.Sprintf("line %d: %s: %q", e.line, e.why, e.text)
}

// pySpace is Python's str.isspace (what str.strip and re's \s match): Unicode white space and the
// separators U+001C to U+001F.
func pySpace(r rune) bool {
	return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f
}

func pyStrip(s string) string { return strings.TrimFunc(s, pySpace) }

// pyLines splits text as Python's text mode reads it (universal newlines: \n, \r\n, \r).
func pyLines(text string) []string {
	var out []string
	for text != "" {
		i := strings.IndexAny(text, "\r\n")
		if i < 0 {
			out = append(out, text)
			break
		}
		out = append(out, text[:i])
		if text[i] == '\r' && i+1 < len(text) && text[i+1] == '\n' {
			i++
		}
		text = text[i+1:]
	}
	return out
}

// parse reads data as configparser.RawConfigParser._read does (CPython 3.8-3.13).
func parse(data []byte) (parsed, error) {
	var p parsed
	text := strings.ToValidUTF8(string(data), "\uFFFD")
	type key struct{ sect, opt string }
	added := map[key]bool{}
	addedSect := map[string]bool{}
	cur := -2 // the section being read: -2 none yet, -1 DEFAULT, else an index in p.sections
	at := func() *section {
		if cur == -1 {
			return &p.defaults
		}
		return &p.sections[cur]
	}
	optname := ""
	indent := 0
	var firstErr error
	for i, line := range pyLines(text) {
		n := i + 1
		value := pyStrip(line)
		comment := strings.HasPrefix(value, "#") || strings.HasPrefix(value, ";")
		if comment || value == "" {
			// empty_lines_in_values: an empty line (not a comment) belongs to the value being read
			if !comment && cur != -2 && optname != "" {
				if o := at().get(optname); o != nil {
					o.lines = append(o.lines, "")
				}
			}
			continue
		}
		level := strings.IndexFunc(line, func(r rune) bool { return !pySpace(r) })
		if cur != -2 && optname != "" && level > indent {
			if o := at().get(optname); o != nil {
				o.lines = append(o.lines, value)
			}
			continue
		}
		indent = level
		if h, ok := header(value); ok {
			switch {
			case addedSect[h]:
				return p, &parseError{n, line, "section already exists"} //i18n:raw configparser's own message, as pip prints it
			case h == "DEFAULT":
				cur = -1
			default:
				if j := slices.IndexFunc(p.sections, func(s section) bool { return s.name == h }); j >= 0 {
					cur = j // unreachable in one file (strict), kept as configparser has it
				} else {
					p.sections = append(p.sections, section{name: h})
					cur = len(p.sections) - 1
				}
				addedSect[h] = true
			}
			optname = ""
			continue
		}
		if cur == -2 {
			return p, &parseError{n, line, "file contains no section headers"} //i18n:raw configparser's own message, as pip prints it
		}
		j := strings.IndexAny(value, "=:")
		if j < 0 {
			if firstErr == nil {
				firstErr = &parseError{n, line, "source contains parsing errors"} //i18n:raw configparser's own message, as pip prints it
			}
			continue
		}
		name := strings.ToLower(strings.TrimRightFunc(value[:j], pySpace))
		if name == "" && firstErr == nil {
			firstErr = &parseError{n, line, "source contains parsing errors"} //i18n:raw configparser's own message, as pip prints it
		}
		sect := "DEFAULT"
		if cur >= 0 {
			sect = p.sections[cur].name
		}
		if added[key{sect, name}] {
			return p, &parseError{n, line, "option " + strconv.Quote(name) + " in section " + strconv.Quote(sect) + " already exists"} //i18n:raw configparser's own message, as pip prints it
		}
		added[key{sect, name}] = true
		optname = name
		at().set(option{name: name, lines: []string{pyStrip(value[j+1:])}})
	}
	// _join_multiline_values: lines joined with \n, trailing white space dropped
	join := func(s *section) {
		for i := range s.opts {
			s.opts[i].value = strings.TrimRightFunc(strings.Join(s.opts[i].lines, "\n"), pySpace)
			s.opts[i].lines = nil
		}
	}
	join(&p.defaults)
	for i := range p.sections {
		join(&p.sections[i])
	}
	return p, firstErr
}

// header is configparser's SECTCRE (\[(?P<header>.+)\], matched at the start of the stripped line):
// the text between the first [ and the last ].
func header(value string) (string, bool) {
	if !strings.HasPrefix(value, "[") {
		return "", false
	}
	j := strings.LastIndex(value, "]")
	if j < 2 {
		return "", false
	}
	return value[1:j], true
}
