package i18n

import (
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestWidthCountsCJKAsTwoColumns(t *testing.T) {
	if Width("显存 8 GiB") != 10 || Width("GPU memory") != 10 {
		t.Errorf("widths: %d %d", Width("显存 8 GiB"), Width("GPU memory"))
	}
	if got := Pad("驱动", 6); got != "驱动  " {
		t.Errorf("Pad: %q", got)
	}
	if got := Cut("虚拟环境已创建", 7, "…"); Width(got) > 7 || got != "虚拟环…" {
		t.Errorf("Cut: %q (%d columns)", got, Width(got))
	}
}

// Cut shortens s to at most width columns, ending with tail ("…", or "..." for ASCII) when it cuts.
func Cut(s string, width int, tail string) string { return ansi.Truncate(s, width, tail) }
