package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gpuwiz/matrix"
)

// inHouse matches words that name this project's own files, machines, working notes or tracker
// numbers. None of it exists for a user, so none of it may appear in the product: the matrix, messages,
// help, docs. Public references look different: "pytorch/pytorch PR #187075", "Paddle issue #73610".
var inHouse = regexp.MustCompile(`(?i)` + strings.Join([]string{
	`\bFACTS\.md\b`, `\bDESIGN\.md\b`, `/work/`, `\.\./shared\b`, `\bshared/(reference|tools)\b`,
	`\breference/[a-z0-9-]+\.zh\.txt\b`, `\bfrom memory\b`, `\bissues? [0-9]+\b`, `\bissue-[0-9]+\b`,
	`\bmedium confidence\b`, `\bdevice machine\b`, `\blent (device|machine)\b`,
}, "|"))

// allowed are files that may name such things. None: the docs that record validation runs and the
// Wine setup are read by users deciding whether to trust gpuwiz, so they name public things only.
var allowed = map[string]string{}

// productText reports each in-house word in text, one "file:line: match" per hit.
func productText(name, text string) []string {
	var out []string
	for i, line := range strings.Split(text, "\n") {
		for _, loc := range inHouse.FindAllStringIndex(line, -1) {
			m := line[loc[0]:loc[1]]
			// "guessed from memory size" is about GPU memory, not about where a fact came from.
			if strings.EqualFold(m, "from memory") && strings.HasPrefix(strings.ToLower(line[loc[1]:]), " size") {
				continue
			}
			out = append(out, name+":"+strconv.Itoa(i+1)+": "+m)
		}
	}
	return out
}

func TestProductTextNamesNoInHouseReferences(t *testing.T) {
	var hits []string
	m, err := matrix.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	hits = append(hits, productText("embedded matrix.toml", string(matrix.EmbeddedTOML()))...)
	// Every note and source a user can see, as the matrix JSON carries them.
	for _, fw := range matrix.Frameworks() {
		for _, c := range m.Candidates(fw) {
			hits = append(hits, productText(fw+" "+c.FrameworkVersion+" "+c.Channel, c.Note+"\n"+c.Source)...)
		}
	}
	for _, r := range m.CUDA {
		hits = append(hits, productText("CUDA "+r.Version, r.Note+"\n"+r.Source)...)
	}
	walkText(t, func(path string) bool {
		if _, ok := allowed[path]; ok || strings.HasSuffix(path, "_test.go") || strings.Contains("/"+path, "/testdata/") || strings.HasPrefix(path, ".ci/") {
			return false
		}
		switch filepath.Ext(path) {
		case ".go", ".toml", ".py", ".md":
			return true
		}
		return false
	}, func(path, text string) { hits = append(hits, productText(path, text)...) })
	if len(hits) > 0 {
		t.Errorf("product text names in-house files, machines, notes or tracker numbers (use public references: repository + path, PR #N, URLs):\n%s", strings.Join(hits, "\n"))
	}
}

// The check itself: each kind of in-house word is caught, public references are not.
func TestInHouseWordsAreCaught(t *testing.T) {
	for _, bad := range []string{"see /work/shared/FACTS.md", "DESIGN.md section 4", "../shared/tools/wine", "reference/paddle-gpu-win10-guide.zh.txt",
		"drivers from memory of the 12.1 notes", "its consequences and issue 2 say", "issues 14 and 16", "branch issue-19", "medium confidence"} {
		if len(productText("x", bad)) == 0 {
			t.Errorf("%q not caught", bad)
		}
	}
	for _, ok := range []string{"Paddle issue #73610", "pytorch/pytorch PR #187075", "power scaled to a TDP guessed from memory size", "pytorch/audio issue #4194"} {
		if hits := productText("x", ok); len(hits) != 0 {
			t.Errorf("%q flagged: %v", ok, hits)
		}
	}
}

// walkText calls each with the text of every file below "." that want picks (by its slash path),
// outside hidden folders but .ci; it fails t when it read fewer than 50 files (the walk missed the tree).
func walkText(t *testing.T, want func(path string) bool, each func(path, text string)) {
	t.Helper()
	scanned := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != "." && strings.HasPrefix(d.Name(), ".") && d.Name() != ".ci" {
				return filepath.SkipDir
			}
			return nil
		}
		path = filepath.ToSlash(path)
		if !want(path) {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		scanned++
		each(path, string(data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if scanned < 50 {
		t.Fatalf("scanned only %d files: the walk missed the source tree", scanned)
	}
}

// A merge that left its conflict markers in a file (the README once carried two for sessions): the
// text on both sides reads as the product's, twice over, and Go files would not build.
func TestNoMergeConflictMarkers(t *testing.T) {
	var hits []string
	walkText(t, func(path string) bool {
		switch filepath.Ext(path) {
		case ".go", ".toml", ".py", ".md", ".sh", ".txt", ".json", ".c", ".mod":
			return true
		}
		return filepath.Base(path) == "run"
	}, func(path, text string) {
		for i, line := range strings.Split(text, "\n") {
			if strings.HasPrefix(line, "<<<<<<< ") || strings.HasPrefix(line, ">>>>>>> ") {
				hits = append(hits, path+":"+strconv.Itoa(i+1)+": "+line)
			}
		}
	})
	if len(hits) > 0 {
		t.Errorf("merge conflict markers left in:\n%s", strings.Join(hits, "\n"))
	}
}
