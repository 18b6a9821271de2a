package i18ntest

import (
	"regexp"
	"strings"
	"testing"
)

// screenWords are English words that stand out alone on a Chinese screen: a value of gpuwiz's own
// put on screen as it is (the GPU backend "simulated", a Python None), jargon, or an English error
// word. Each is one word, so EnglishProse, which looks for runs, lets it through.
var screenWords = map[string]bool{
	"simulated": true, "unverified": true, "staged": true, "dists": true, "compat": true, "flat": true,
	"cancelled": true, "canceled": true, "context": true, "none": true, "true": true, "false": true,
	"unknown": true, "failed": true, "installed": true, "unchanged": true,
	"restored": true, "damaged": true, "interrupted": true, "official": true, "mirror": true, "minor": true,
}

// internalCode is an identifier of gpuwiz's own shown as if it were a word: snake_case (no_gpu,
// matrix_error) or a kebab-case code of three parts or more (framework-check-failed); names with
// digits (sm_50, x86_64) are facts and pass.
var internalCode = regexp.MustCompile(`^[a-z]+(?:_[a-z]+)+$|^[a-z]+(?:-[a-z]+){2,}$`)

// EnglishOnScreen is EnglishProse plus what a Chinese screen must not show even alone: the words
// of screenWords and gpuwiz's internal codes. Text inside [brackets] is a finding's code, a tag
// users search for, and is not counted; commands, paths, flags and quoted text are skipped as in
// EnglishProse.
func EnglishOnScreen(text string) []string {
	found := EnglishProse(text)
	for _, line := range strings.Split(text, "\n") {
		inCommand := false
		for _, tok := range tokens(skipQuoted(dropBracketed(line))) {
			if tok == "" {
				inCommand = false
				continue
			}
			for _, part := range strings.Split(tok, "=") {
				w := strings.Trim(part, ".,;:!?()[]{}<>…·•—'")
				if commands[strings.ToLower(w)] {
					inCommand = true
				}
				if inCommand || w == "" || strings.ContainsAny(w, `/\.`) || strings.HasPrefix(w, "-") {
					continue
				}
				if screenWords[strings.ToLower(w)] && plainWord(w) || internalCode.MatchString(w) {
					found = append(found, w)
				}
			}
		}
	}
	return found
}

func dropBracketed(s string) string {
	return regexp.MustCompile(`\[[a-z0-9-]+\]`).ReplaceAllString(s, " ")
}

// NoEnglishOnScreen fails t with everything EnglishOnScreen finds in a Chinese screen.
func NoEnglishOnScreen(t testing.TB, what, text string) {
	t.Helper()
	if words := EnglishOnScreen(text); len(words) > 0 {
		t.Errorf("%s shows English or internal codes in Chinese mode: %q\n%s", what, words, text)
	}
}
