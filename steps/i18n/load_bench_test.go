package i18n

import "testing"

// BenchmarkLoadCatalog is the catalog's start-up cost per language: its message files parsed once,
// on the first message of a run in that language.
func BenchmarkLoadCatalog(b *testing.B) {
	for _, l := range Langs {
		b.Run(string(l), func(b *testing.B) {
			for b.Loop() {
				if _, err := loadLang(l); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
