package i18n

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Width is how many terminal columns s takes: a CJK character takes two, ANSI codes none.
func Width(s string) int { return ansi.StringWidth(s) }

// Pad fills s with spaces on the right up to width columns (display width, not bytes or runes).
func Pad(s string, width int) string {
	if w := Width(s); w < width {
		return s + strings.Repeat(" ", width-w)
	}
	return s
}
