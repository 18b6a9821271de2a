package matrix

import "testing"

func BenchmarkParseEmbedded(b *testing.B) {
	for b.Loop() {
		if _, err := Parse(embeddedTOML, "matrix.toml"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSelect(b *testing.B) {
	m := loadEmbedded(b)
	for b.Loop() {
		m.Select(gtx1080Win)
	}
}

func BenchmarkLoadAndSelect(b *testing.B) {
	for b.Loop() {
		m, err := Parse(embeddedTOML, "matrix.toml")
		if err != nil {
			b.Fatal(err)
		}
		m.Select(rtx5090Win)
	}
}
