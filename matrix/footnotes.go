package matrix

import (
	"fmt"
	"strings"

	"gpuwiz/steps/i18n"
)

// Footnotes numbers the texts that more than one row of a list carries (a release note on every
// channel of that release, the same driver reason on every CUDA 13 row), so that a list prints each
// once under the table and the rows carry its number. Texts that only one row has stay inline.
type Footnotes struct {
	Texts []string // footnote n is Texts[n-1], in the order the rows first carry them
	num   map[string]int
}

// NewFootnotes numbers every text found in two or more of rows (a text repeated within one row
// counts once).
func NewFootnotes(rows [][]string) *Footnotes {
	seen := map[string]int{}
	var order []string
	for _, row := range rows {
		inRow := map[string]bool{}
		for _, t := range row {
			if t == "" || inRow[t] {
				continue
			}
			inRow[t] = true
			if seen[t] == 0 {
				order = append(order, t)
			}
			seen[t]++
		}
	}
	f := &Footnotes{num: map[string]int{}}
	for _, t := range order {
		if seen[t] > 1 {
			f.Texts = append(f.Texts, t)
			f.num[t] = len(f.Texts)
		}
	}
	return f
}

// Number is the footnote number of text, 0 when the text is not shared.
func (f *Footnotes) Number(text string) int { return f.num[text] }

// Split parts a row's texts into those printed inline and the numbers of its footnotes.
func (f *Footnotes) Split(texts []string) (inline []string, refs []int) {
	done := map[string]bool{}
	for _, t := range texts {
		if t == "" || done[t] {
			continue
		}
		done[t] = true
		if n := f.num[t]; n > 0 {
			refs = append(refs, n)
		} else {
			inline = append(inline, t)
		}
	}
	return inline, refs
}

// Line is a row's texts as one cell: the inline texts joined by "; ", then the footnote marks
// ("[1][3]").
func (f *Footnotes) Line(texts []string) string {
	inline, refs := f.Split(texts)
	s := i18n.JoinClauses(inline)
	if m := Marks(refs); m != "" {
		if s != "" {
			s += " "
		}
		s += m
	}
	return s
}

// Marks writes footnote numbers as "[1][3]".
func Marks(refs []int) string {
	var b strings.Builder
	for _, n := range refs {
		fmt.Fprintf(&b, "[%d]", n)
	}
	return b.String()
}

// RowTexts are the texts a list shows for c: why it does not fit when it does not, else its notes.
func RowTexts(c Candidate) []string {
	if !c.Compatible {
		return c.Reasons
	}
	if len(c.NoteParts) > 0 {
		return c.NoteParts
	}
	if c.Note != "" {
		return []string{c.Note}
	}
	return nil
}
