package i18n

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]Lang{
		"en": English, "en_US.UTF-8": English, "C": English, "POSIX": English, "C.UTF-8": English,
		"de_DE.UTF-8": English, "ja": English, "zh-CN": Chinese, "zh_CN.UTF-8": Chinese, "zh_CN.GB18030": Chinese,
		"zh": Chinese, "zh_SG": Chinese, "zh_TW.UTF-8": Chinese, "zh-Hans": Chinese, "zh_CN.utf8@pinyin": Chinese,
	} {
		if got, ok := Parse(in); !ok || got != want {
			t.Errorf("Parse(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, bad := range []string{"", "  ", "!!", "x-y-z-1234567890"} {
		if got, ok := Parse(bad); ok {
			t.Errorf("Parse(%q) = %q, want not ok", bad, got)
		}
	}
}

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestResolveOrder(t *testing.T) {
	cases := []struct {
		flag, ui string
		env      map[string]string
		want     Choice
	}{
		{"", "", nil, Choice{English, "default"}},
		{"", "", map[string]string{"LANG": "zh_CN.UTF-8"}, Choice{Chinese, "LANG"}},
		{"", "", map[string]string{"LANG": "zh_CN.UTF-8", "LC_MESSAGES": "en_US.UTF-8"}, Choice{English, "LC_MESSAGES"}},
		{"", "", map[string]string{"LANG": "en_US.UTF-8", "LC_ALL": "zh_CN.UTF-8"}, Choice{Chinese, "LC_ALL"}},
		{"", "zh-CN", map[string]string{"LANG": "en_US.UTF-8"}, Choice{Chinese, "Windows"}},
		{"", "en", map[string]string{"GPUWIZ_LANG": "zh-CN"}, Choice{Chinese, "GPUWIZ_LANG"}},
		{"en", "zh-CN", map[string]string{"GPUWIZ_LANG": "zh-CN", "LANG": "zh_CN.UTF-8"}, Choice{English, "--lang"}},
		{"zh_CN", "", nil, Choice{Chinese, "--lang"}},
	}
	for _, c := range cases {
		got, err := Resolve(c.flag, env(c.env), c.ui)
		if err != nil || got != c.want {
			t.Errorf("Resolve(%q, %v, ui %q) = %+v, %v; want %+v", c.flag, c.env, c.ui, got, err, c.want)
		}
	}
}

func TestResolveRefusesUnknownLanguages(t *testing.T) {
	if _, err := Resolve("fr", env(nil), ""); err == nil || !strings.Contains(err.Error(), "--lang fr") || !strings.Contains(err.Error(), "zh-CN") {
		t.Errorf("--lang fr: %v", err)
	}
	if _, err := Resolve("", env(map[string]string{"GPUWIZ_LANG": "klingon"}), ""); err == nil || !strings.Contains(err.Error(), "GPUWIZ_LANG=klingon") {
		t.Errorf("GPUWIZ_LANG=klingon: %v", err)
	}
}

func TestLangIDTag(t *testing.T) {
	for id, want := range map[uint16]Lang{0x0804: Chinese, 0x1004: Chinese, 0x0404: Chinese, 0x0C04: Chinese, 0x0409: English, 0x0809: English, 0x0407: English, 0x0411: English} {
		tag := LangIDTag(id)
		if got, ok := Parse(tag); !ok || got != want {
			t.Errorf("LANGID %#04x → %q → %q, %v; want %q", id, tag, got, ok, want)
		}
	}
	if LangIDTag(0) != "" {
		t.Errorf("LANGID 0 should be unknown")
	}
}

// A Words table says a value in the language of the moment it is said (a table is made once, the
// language may change later), and a value it does not name as the caller's other words; Local
// takes a data file's Chinese text in Chinese only, and its English where it has no Chinese.
func TestWordsAndLocalFollowTheLanguage(t *testing.T) {
	defer Set(Current())
	names := Words[string]{"en": func() string { return T("lang.name") }}
	Set(English)
	if got := names.Say("en", "?"); got != "English" {
		t.Errorf("English: %q", got)
	}
	if got := names.Say("fr", "fr"); got != "fr" {
		t.Errorf("a value the table does not name: %q", got)
	}
	if got := Local("note", "注释"); got != "note" {
		t.Errorf("Local in English: %q", got)
	}
	Set(Chinese)
	if got, want := names.Say("en", "?"), In(Chinese, "lang.name"); got != want || got == "English" {
		t.Errorf("Chinese: %q, want %q", got, want)
	}
	if got := Local("note", "注释"); got != "注释" {
		t.Errorf("Local in Chinese: %q", got)
	}
	if got := Local("note", ""); got != "note" {
		t.Errorf("Local in Chinese without a Chinese text: %q", got)
	}
}
