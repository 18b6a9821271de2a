package ui

import (
	"strings"
	"testing"
	"unicode"

	"github.com/charmbracelet/x/ansi"

	"gpuwiz/steps/i18n"
)

// TestGoldenScreensCutNoLineSilently: every screen of the 80×24 goldens, in both languages, drawn
// at 80 columns and at 200: a body line that fills the 80-column body is a line wrapped by design
// (its text goes on at the start of the next line, as the wide screen shows it in one), a line
// exactly as wide as the body (the same whole line on the wide screen), a rule, or a cut marked
// with … (ui/AGENTS.md: nothing is cut without a sign). A line cut with no mark fails: its text
// goes on on the wide screen, not on the next narrow line.
//
// The goldens alone cannot tell a wrapped line that happens to fill the width from a cut one, so
// the screens are drawn again; both are drawn 80 rows tall, so that every wrapped line's next one
// is on the screen (cuts depend on the width only).
func TestGoldenScreensCutNoLineSilently(t *testing.T) {
	check := func(t *testing.T, cases []goldenCase) {
		for _, c := range cases {
			if c.size != [2]int{} && c.size != std {
				continue // the 80×24 goldens only
			}
			t.Run(c.name, func(t *testing.T) {
				render := func(w int) *Model {
					fb := newFakeBackend()
					if c.edit != nil {
						c.edit(fb)
					}
					return renderSteps(t, fb, c.ascii, [2]int{w, maxHeight}, c.steps...)
				}
				narrow, wide := render(std[0]), render(200)
				mark := ellipsis(narrow.c.Styles)
				for _, cut := range unmarkedCuts(bodyLines(narrow), bodyLines(wide), narrow.c.Width, mark) {
					t.Errorf("a line fills the %d-column body, ends without %s and does not go on on the next line:\n%q\nnarrow:\n%s\nwide:\n%s",
						narrow.c.Width, mark, cut, narrow.View(), wide.View())
				}
			})
		}
	}
	t.Run("en", func(t *testing.T) { check(t, englishGoldens()) })
	t.Run("zh-CN", func(t *testing.T) {
		i18n.Set(i18n.Chinese)
		t.Cleanup(func() { i18n.Set(i18n.English) })
		check(t, chineseGoldens())
	})
}

// bodyLines are the lines of m's body as drawn (under the title and its rule, above the help bar),
// without the App style's margin.
func bodyLines(m *Model) []string {
	lines := strings.Split(ansi.Strip(m.View()), "\n")
	if len(lines) < 2+m.c.Height {
		return nil
	}
	body := lines[2 : 2+m.c.Height]
	for i, l := range body {
		body[i] = strings.TrimRight(strings.TrimPrefix(l, " "), " ")
	}
	return body
}

// unmarkedCuts are the narrow lines that fill width and end without mark, yet are neither a rule,
// nor the same whole line on the wide screen (spaces aside), nor a wrapped line whose text goes on at the start
// of the next narrow line as it goes on on the wide screen.
func unmarkedCuts(narrow, wide []string, width int, mark string) []string {
	wideText := squeeze(strings.Join(wide, "\n"))
	whole := map[string]bool{}
	for _, l := range wide {
		whole[squeeze(l)] = true // a table's row is padded to its widest cell, which may differ
	}
	var out []string
	for i, l := range narrow {
		if ansi.StringWidth(l) < width || strings.HasSuffix(l, mark) || isRule(l) || whole[squeeze(l)] {
			continue
		}
		if i+1 < len(narrow) && strings.Contains(wideText, squeeze(l)+squeeze(narrow[i+1])) {
			continue // wrapped: the next line goes on with the text
		}
		out = append(out, l)
	}
	return out
}

// squeeze is s without its white space: a wrap breaks at a space (English) or between characters
// (Chinese), so a wrapped text and the same text on one line squeeze to the same.
func squeeze(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// isRule is a line of one drawing character (a rule, a border, a bar's track).
func isRule(l string) bool {
	l = strings.TrimSpace(l)
	return l != "" && strings.Trim(l, string([]rune(l)[:1])) == ""
}
