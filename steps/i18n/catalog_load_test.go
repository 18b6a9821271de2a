package i18n

import (
	"io/fs"
	"path"
	"reflect"
	"sort"
	"strings"
	"testing"

	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
)

// TestReaderAgreesWithGoI18n: the catalog's own reader gives every file the messages go-i18n's
// loader (Catalog) gives it, form for form.
func TestReaderAgreesWithGoI18n(t *testing.T) {
	for _, l := range Langs {
		want, err := Catalog(l)
		if err != nil {
			t.Fatal(err)
		}
		c := newCatalog(l)
		c.template("no.such.message") // an unknown id reads every file
		var got []Message
		for id, m := range c.raw {
			forms := map[string]string{}
			for k, v := range map[string]string{"zero": m.Zero, "one": m.One, "two": m.Two, "few": m.Few, "many": m.Many, "other": m.Other} {
				if v != "" {
					forms[k] = v
				}
			}
			got = append(got, Message{ID: id, Forms: forms})
		}
		sort.Slice(got, func(i, j int) bool { return got[i].ID < got[j].ID })
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the catalog's reader and go-i18n's disagree (%d and %d messages)", l, len(got), len(want))
		}
	}
}

// TestEveryMessageIsInItsFile: message "P.rest" is in locales/P.<lang>.toml or P-*.<lang>.toml, so
// its first lookup reads those files only.
func TestEveryMessageIsInItsFile(t *testing.T) {
	for _, l := range Langs {
		files, err := fs.Glob(locales, "locales/*."+string(l)+".toml")
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			b, err := locales.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			base := path.Base(f)
			err = parseMessages(b, func(m *goi18n.Message) {
				word, _, _ := strings.Cut(m.ID, ".")
				if !strings.HasPrefix(base, word+".") && !strings.HasPrefix(base, word+"-") {
					t.Errorf("%s holds %q: move it to locales/%s.%s.toml (or %s-*.%s.toml), where its first word says it is", base, m.ID, word, l, word, l)
				}
			})
			if err != nil {
				t.Fatalf("%s: %v", base, err)
			}
		}
	}
}

// TestFirstMessageReadsItsFilesOnly: a fresh catalog asked for a gpu message reads gpu.<lang>.toml
// and no other file; an unknown id reads them all and still reads as [id].
func TestFirstMessageReadsItsFilesOnly(t *testing.T) {
	for _, l := range Langs {
		c := newCatalog(l)
		s, err := c.localize("gpu.report.cuda_unknown", nil, nil)
		if err != nil || s == "" {
			t.Fatalf("%s: %q, %v", l, s, err)
		}
		var read []string
		for f := range c.read {
			read = append(read, path.Base(f))
		}
		if want := []string{"gpu." + string(l) + ".toml"}; !reflect.DeepEqual(read, want) {
			t.Errorf("%s: the first gpu message read %v, want %v", l, read, want)
		}
		if _, err := c.localize("gpu.no.such", nil, nil); err == nil {
			t.Errorf("%s: an unknown id localized", l)
		}
		if len(c.read) != len(c.files) {
			t.Errorf("%s: an unknown id read %d of %d files", l, len(c.read), len(c.files))
		}
	}
}

// TestMalformedMessageFiles: what the reader refuses, it refuses with the message's id.
func TestMalformedMessageFiles(t *testing.T) {
	for _, tc := range []struct{ toml, want string }{
		{`"a.b" = 3`, "a.b is neither a string nor a table"},
		{`"a.b" = { one = "x", several = "y" }`, `"several" is no plural form`},
		{`"a.b" = { other = 1 }`, "a.b.other is not a string"},
		{"[table]\n\"a\" = \"b\"", "only \"id\" = … lines are messages"},
		{`"a.b" = "unterminated`, "unterminated"},
	} {
		err := parseMessages([]byte(tc.toml), func(*goi18n.Message) {})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want an error with %q", tc.toml, err, tc.want)
		}
	}
}

// TestAValueMayComeFromTheCatalog: a placeholder's value may be an error whose words are a message
// too (i18n.Lazy, a wrapped error), from a file not read yet: it renders, the catalog does not lock up.
func TestAValueMayComeFromTheCatalog(t *testing.T) {
	for _, l := range Langs {
		c := newCatalog(l)
		inner := Lazy(func() string {
			s, err := c.localize("lang.name", nil, nil)
			if err != nil {
				return err.Error()
			}
			return s
		})
		got, err := c.localize("gpu.missing.name", nil, map[string]any{"Index": 0, "Err": inner})
		if err != nil || !strings.Contains(got, inner.Error()) {
			t.Errorf("%s: %q, %v", l, got, err)
		}
	}
}
