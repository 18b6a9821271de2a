package i18n

import (
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

var placeholder = regexp.MustCompile(`\{\{\s*\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}|\{\{[^}]*\}\}`)

// Placeholders are the data names a message text uses: {{.Driver}} gives "Driver"; any other
// template action ({{if}}, {{range}}) is reported whole so it must be the same in both languages.
func Placeholders(text string) []string {
	set := map[string]bool{}
	for _, m := range placeholder.FindAllStringSubmatch(text, -1) {
		if m[1] != "" {
			set[m[1]] = true
		} else {
			set[m[0]] = true
		}
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func placeholdersOf(m Message) []string {
	var all []string
	for _, f := range m.Forms {
		all = append(all, f)
	}
	return Placeholders(strings.Join(all, "\n"))
}

func catalogs(t *testing.T) map[Lang]map[string]Message {
	t.Helper()
	out := map[Lang]map[string]Message{}
	for _, l := range Langs {
		msgs, err := Catalog(l)
		if err != nil {
			t.Fatalf("%s catalog: %v", l, err)
		}
		if len(msgs) == 0 {
			t.Fatalf("%s catalog is empty", l)
		}
		out[l] = map[string]Message{}
		for _, m := range msgs {
			out[l][m.ID] = m
		}
	}
	return out
}

// TestEveryMessageHasBothLanguages: a key in one language only fails, naming it and its language.
func TestEveryMessageHasBothLanguages(t *testing.T) {
	cat := catalogs(t)
	for _, l := range Langs {
		for id := range cat[l] {
			for _, other := range Langs {
				if _, ok := cat[other][id]; !ok {
					t.Errorf("%q is in %s but not in %s", id, l, other)
				}
			}
		}
	}
}

// TestPlaceholdersAgree: both languages of a message take the same data, with one exception: a
// Chinese message may leave out {{.Code}}. A finding's code is a tag an English reader searches for;
// Chinese screens name a finding in words only, and the code stays in --json and the logs.
func TestPlaceholdersAgree(t *testing.T) {
	cat := catalogs(t)
	for id, en := range cat[English] {
		zh, ok := cat[Chinese][id]
		if !ok {
			continue
		}
		a, b := placeholdersOf(en), placeholdersOf(zh)
		if slices.Contains(a, "Code") && !slices.Contains(b, "Code") {
			a = slices.DeleteFunc(a, func(p string) bool { return p == "Code" })
		}
		if strings.Join(a, ",") != strings.Join(b, ",") {
			t.Errorf("%q: English uses %v, Chinese uses %v", id, a, b)
		}
	}
}

// TestPluralForms: a counted message has "one" and "other" in English and "other" in Chinese
// (CLDR: Chinese has one form), and every form is non-empty; a message is counted in both or neither.
func TestPluralForms(t *testing.T) {
	cat := catalogs(t)
	for id, en := range cat[English] {
		if en.Forms["other"] == "" {
			t.Errorf("%q (en) has no text", id)
		}
		zh := cat[Chinese][id]
		if len(zh.Forms) > 0 && zh.Forms["other"] == "" {
			t.Errorf("%q (zh-CN) has no text", id)
		}
		counted := en.Forms["one"] != ""
		if counted != strings.Contains(strings.Join(placeholdersOf(en), ","), "Count") && counted {
			t.Errorf("%q has a 'one' form but no {{.Count}}", id)
		}
		if counted && len(zh.Forms) > 0 && zh.Forms["one"] != "" {
			t.Errorf("%q (zh-CN): Chinese has no 'one' form, write 'other' only", id)
		}
	}
}

// TestEveryMessageRenders: each message renders in both languages with every placeholder filled, so
// a broken template ({{.X} or a stray {{) is caught here, not in front of a user.
func TestEveryMessageRenders(t *testing.T) {
	cat := catalogs(t)
	for _, l := range Langs {
		for id, m := range cat[l] {
			d := D{}
			for _, p := range placeholdersOf(m) {
				d[p] = "X"
			}
			var got string
			if m.Forms["one"] != "" || l == Chinese && cat[English][id].Forms["one"] != "" {
				got = NIn(l, id, 2, d)
			} else {
				got = In(l, id, d)
			}
			if got == "" || strings.HasPrefix(got, "["+id) || strings.Contains(got, "<no value>") || strings.Contains(got, "{{") {
				t.Errorf("%s %q renders as %q", l, id, got)
			}
		}
	}
}

func TestLookupAndFallback(t *testing.T) {
	defer Set(Current())
	Set(English)
	if got := T("lang.unknown", D{"Value": "xx"}); !strings.Contains(got, "not xx") {
		t.Errorf("en: %q", got)
	}
	Set(Chinese)
	if got := T("lang.unknown", D{"Value": "xx"}); !strings.Contains(got, "不支持 xx") {
		t.Errorf("zh-CN: %q", got)
	}
	if got := T("no.such.message"); got != "[no.such.message]" {
		t.Errorf("a missing id reads %q", got)
	}
}
