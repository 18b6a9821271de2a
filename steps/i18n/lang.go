package i18n

import (
	"fmt"
	"strings"

	"golang.org/x/text/language"
)

var matcher = language.NewMatcher([]language.Tag{language.English, language.MustParse("zh-CN")})

// Parse reads a language as a user or a locale names it: "en", "zh-CN", "zh", "zh_CN.UTF-8",
// "en_US.utf8@euro", "C". Any Chinese is Simplified Chinese (the only Chinese gpuwiz has; golang.org/x/text's
// matcher rates zh-TW low but above English); any other known language is English. ok is false for
// text that names no language at all ("xx-??", "").
func Parse(s string) (Lang, bool) {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, ".@"); i >= 0 {
		s = s[:i]
	}
	switch strings.ToUpper(s) {
	case "":
		return "", false
	case "C", "POSIX":
		return English, true
	}
	tag, err := language.Parse(strings.ReplaceAll(s, "_", "-"))
	if err != nil {
		return "", false
	}
	_, idx, conf := matcher.Match(tag)
	if idx == 1 && conf >= language.Low {
		return Chinese, true
	}
	return English, true
}

// Choice is where the language came from, for a message that names it.
type Choice struct {
	Lang   Lang
	Source string // "--lang", "GPUWIZ_LANG", "LC_ALL", "LC_MESSAGES", "LANG", "Windows", "default"
}

// Resolve picks the language: the --lang flag, else GPUWIZ_LANG, else the system's (uiLanguage: the
// Windows user's UI language, "" elsewhere), else LC_ALL, LC_MESSAGES, LANG, else English. A flag or
// GPUWIZ_LANG that names no language gpuwiz knows is an error that says what to write instead; a
// locale gpuwiz cannot read is skipped.
func Resolve(flag string, getenv func(string) string, uiLanguage string) (Choice, error) {
	if flag != "" {
		l, err := strict(flag)
		if err != nil {
			return Choice{}, fmt.Errorf("--lang %s: %w", flag, err)
		}
		return Choice{l, "--lang"}, nil
	}
	if v := getenv("GPUWIZ_LANG"); v != "" {
		l, err := strict(v)
		if err != nil {
			return Choice{}, fmt.Errorf("GPUWIZ_LANG=%s: %w", v, err)
		}
		return Choice{l, "GPUWIZ_LANG"}, nil
	}
	if uiLanguage != "" {
		if l, ok := Parse(uiLanguage); ok {
			return Choice{l, "Windows"}, nil
		}
	}
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := getenv(name); v != "" {
			if l, ok := Parse(v); ok {
				return Choice{l, name}, nil
			}
			// POSIX: the first one set decides, even when it names a locale we cannot read.
			return Choice{English, name}, nil
		}
	}
	return Choice{English, "default"}, nil
}

// strict accepts only what --lang documents (en, zh-CN) and their obvious spellings.
func strict(v string) (Lang, error) {
	switch strings.ToLower(strings.ReplaceAll(strings.TrimSpace(v), "_", "-")) {
	case "en", "en-us", "en-gb", "english":
		return English, nil
	case "zh-cn", "zh", "zh-hans", "zh-sg", "chinese", "中文", "简体中文": //i18n:raw spellings --lang accepts
		return Chinese, nil
	}
	return "", fmt.Errorf("%s", In(English, "lang.unknown", D{"Value": v})+" / "+In(Chinese, "lang.unknown", D{"Value": v}))
}

// LangIDTag is a Windows LANGID (GetUserDefaultUILanguage) as a BCP 47 tag gpuwiz can match:
// the primary language in the low 10 bits, the sublanguage above them.
func LangIDTag(id uint16) string {
	primary, sub := id&0x3ff, id>>10
	switch primary {
	case 0x04: // Chinese
		switch sub {
		case 0x01:
			return "zh-TW"
		case 0x03:
			return "zh-HK"
		case 0x05:
			return "zh-MO"
		case 0x04:
			return "zh-SG"
		}
		return "zh-CN"
	case 0x09:
		return "en"
	case 0x00:
		return ""
	}
	return "und-x-lcid" // some other language: English
}
