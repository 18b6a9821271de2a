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
// of screenWords, gpuwiz's internal codes (a finding's code in brackets, [cpu-build] or
// （no-cuda-build）, belongs in --json and the logs), Go's own error text (dial tcp …: no such host)
// and English table headers (PYTHON, CUDNN). Commands, paths, flags and quoted text are skipped as
// in EnglishProse.
func EnglishOnScreen(text string) []string {
	found := EnglishProse(text)
	for _, m := range bracketedCode.FindAllStringSubmatch(text, -1) {
		found = append(found, m[1])
	}
	for _, re := range goErrors {
		found = append(found, re.FindAllString(text, -1)...)
	}
	for _, line := range strings.Split(text, "\n") {
		inCommand := false
		for _, tok := range tokens(skipQuoted(dropBracketed(line))) {
			if tok == "" {
				inCommand = false
				continue
			}
			for _, part := range strings.Split(tok, "=") {
				w := strings.Trim(part, ".,;:!?()[]{}<>…·•—'")
				if tableHeaders[w] { // before the command check: PYTHON is a header, python a command
					found = append(found, w)
					continue
				}
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
	return unique(found)
}

// dropBracketed blanks the bracketed codes bracketedCode reports, so they are not counted twice.
func dropBracketed(s string) string {
	return bracketedCode.ReplaceAllString(s, " ")
}

// bracketedCode is a lower-case hyphenated id in brackets of either width: [cpu-build],
// (pip-extra-index), （no-cuda-build）. Names with digits (python3-venv, x86-64) are not codes.
var bracketedCode = regexp.MustCompile(`[\[(（]([a-z]+(?:-[a-z]+)+)[\])）]`)

// goErrors are the shapes of Go's and the OS's own error text, which a Chinese screen must say in
// words: a failed dial or lookup, a Python None, a process's exit status.
var goErrors = []*regexp.Regexp{
	regexp.MustCompile(`\b(?:dial|read|write) (?:tcp|udp)\b`),
	regexp.MustCompile(`\bno such (?:host|file or directory)\b`),
	regexp.MustCompile(`\bconnection (?:refused|reset by peer)\b`),
	regexp.MustCompile(`\b(?:context deadline exceeded|i/o timeout|permission denied|exit status \d+)\b`),
	regexp.MustCompile(`\bis None\b`),
}

// tableHeaders are the English column headers of gpuwiz's tables, written in capitals.
var tableHeaders = map[string]bool{
	"PYTHON": true, "CUDNN": true, "INDEX": true, "VERSION": true, "CHANNEL": true, "STATUS": true,
	"VERIFIED": true, "LINUX": true, "WINDOWS": true, "MEMORY": true, "DRIVER": true, "NAME": true,
	"WHY": true, "SOURCE": true, "OS": true,
}

// NoEnglishOnScreen fails t with everything EnglishOnScreen finds in a Chinese screen.
func NoEnglishOnScreen(t testing.TB, what, text string) {
	t.Helper()
	if words := EnglishOnScreen(text); len(words) > 0 {
		t.Errorf("%s shows English or internal codes in Chinese mode: %q\n%s", what, words, text)
	}
}

// unique is found without repeats, in the order first found.
func unique(found []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range found {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}
