package i18n

import "testing"

// BenchmarkLoadCatalog is the cost of reading every message file of one language (what the first
// message of a run cost before the files were read by the id's first word).
func BenchmarkLoadCatalog(b *testing.B) {
	for _, l := range Langs {
		b.Run(string(l), func(b *testing.B) {
			for b.Loop() {
				c := newCatalog(l)
				c.template("no.such.message") // an unknown id reads every file
			}
		})
	}
}

// BenchmarkFirstMessage is a run's first message in a fresh catalog: cli.root.short, the first text
// the command tree asks for, reads the cli files only.
func BenchmarkFirstMessage(b *testing.B) {
	for _, l := range Langs {
		b.Run(string(l), func(b *testing.B) {
			for b.Loop() {
				c := newCatalog(l)
				if s, err := c.localize("cli.root.short", nil, nil); err != nil || s == "" {
					b.Fatal(s, err)
				}
			}
		})
	}
}
