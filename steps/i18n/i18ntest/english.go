// Package i18ntest helps tests prove that a screen or a message really is in Chinese: it finds
// English prose left in a text, ignoring commands, paths, flags, versions and product names.
package i18ntest

import (
	"strings"
	"testing"
	"unicode"
)

// commands start text that is typed, not read: from one of these to the end of the line, or to the
// next Chinese character, nothing is prose.
var commands = map[string]bool{
	"gpuwiz": true, "pip": true, "python": true, "python3": true, "py": true, "conda": true, "winget": true,
	"apt": true, "apt-get": true, "dnf": true, "pacman": true, "zypper": true, "nvidia-smi": true, "scoop": true,
	"sudo": true, "reg": true, "set": true, "export": true, "cd": true, "rm": true, "del": true,
}

// stop words are English that never stands alone in a Chinese sentence: one of them beside another
// English word is prose.
var stop = map[string]bool{
	"the": true, "a": true, "an": true, "is": true, "are": true, "was": true, "be": true, "to": true, "of": true,
	"and": true, "or": true, "not": true, "no": true, "for": true, "with": true, "this": true, "that": true,
	"from": true, "has": true, "have": true, "can": true, "will": true, "it": true, "in": true, "on": true,
	"at": true, "by": true, "as": true, "but": true, "if": true, "then": true, "its": true, "your": true,
	"you": true, "does": true, "did": true, "needs": true, "need": true, "found": true, "run": true,
}

// uiWords are the English of a key help or a button; in a Chinese screen they stand out alone.
var uiWords = map[string]bool{
	"continue": true, "back": true, "quit": true, "keys": true, "more": true, "fewer": true, "select": true,
	"cancel": true, "retry": true, "next": true, "yes": true, "help": true, "repair": true, "change": true,
	"skip": true, "scroll": true, "again": true, "exit": true, "done": true, "failed": true, "passed": true,
	"pick": true, "choose": true, "unknown": true, "none": true, "installing": true, "checking": true,
	"waiting": true, "running": true, "stopped": true, "unverified": true, "verified": true, "recommended": true,
}

// EnglishProse returns the runs of English words in text that read as English sentences: three
// lowercase words in a row, or two with a stop word among them ("no GPU" counts through "no"), or a
// key's English help ("continue", "quit"). Text from a command name (gpuwiz, pip, conda ...) to the
// end of its line or the next Chinese character, anything in `backticks` or "quotes", URLs, paths,
// flags and words with digits are not prose.
func EnglishProse(text string) []string {
	var found []string
	for _, line := range strings.Split(text, "\n") {
		var run []string
		flush := func() {
			if proseRun(run) {
				found = append(found, strings.Join(run, " "))
			}
			run = nil
		}
		inCommand := false
		for _, tok := range tokens(skipQuoted(line)) {
			if tok == "" { // a Chinese character: a command ends, a run of English ends
				inCommand = false
				flush()
				continue
			}
			w := strings.Trim(tok, ".,;:!?()[]{}<>…·•—'")
			if commands[strings.ToLower(w)] {
				inCommand = true
			}
			if inCommand || !plainWord(w) {
				flush()
				continue
			}
			run = append(run, w)
			if strings.ContainsAny(tok[len(tok)-1:], ".,;:!?)") {
				flush()
			}
		}
		flush()
	}
	return found
}

// tokens splits a line at spaces and at Chinese characters and full-width punctuation; each of the
// latter is an empty token.
func tokens(line string) []string {
	var out []string
	var cur strings.Builder
	end := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	for _, r := range line {
		switch {
		case unicode.IsSpace(r):
			end()
		case unicode.Is(unicode.Han, r) || r >= 0x3000 && r <= 0x303f || r >= 0xff00 && r <= 0xffef:
			end()
			out = append(out, "")
		default:
			cur.WriteRune(r)
		}
	}
	end()
	return out
}

func skipQuoted(s string) string {
	var b strings.Builder
	in := rune(0)
	for _, r := range s {
		switch {
		case in != 0 && r == in, in == '“' && r == '”', in == '「' && r == '」':
			in = 0
			b.WriteRune(' ')
		case in != 0:
		case r == '`' || r == '"' || r == '“' || r == '「':
			in = r
			b.WriteRune(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func plainWord(w string) bool {
	if w == "" {
		return false
	}
	for _, r := range w {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '\'') {
			return false
		}
	}
	return true
}

func lower(w string) bool { return strings.ToLower(w) == w }

func proseRun(run []string) bool {
	lowerWords, stops := 0, 0
	for _, w := range run {
		if lower(w) {
			lowerWords++
		}
		if stop[strings.ToLower(w)] {
			stops++
		}
	}
	for _, w := range run {
		if uiWords[strings.ToLower(w)] {
			return true
		}
	}
	return len(run) >= 2 && (lowerWords >= 3 || stops >= 1 && lowerWords >= 1)
}

// NoEnglishProse fails t with every English run found in text, naming what the text was.
func NoEnglishProse(t testing.TB, what, text string) {
	t.Helper()
	if runs := EnglishProse(text); len(runs) > 0 {
		t.Errorf("%s has English left in Chinese mode: %q\n%s", what, runs, text)
	}
}
