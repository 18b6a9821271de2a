package winetest

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gpuwiz/steps/i18n/i18ntest"
)

// channelsArgs judge a fixed Windows machine, so the output does not depend on Wine having no driver.
var channelsArgs = []string{"channels", "--os", "windows", "--driver", "560.94", "--cuda-max", "12.6", "--compute-cap", "8.6", "--python", "3.12"}

// TestChineseUnderWine: gpuwiz.exe speaks Chinese under Wine when asked (--lang zh-CN, GPUWIZ_LANG)
// and when the Windows display language is Chinese with no LANG or LC_* in the Windows environment
// (so the answer comes from GetUserDefaultUILanguage); its --json is the same in both languages; a
// bad flag is answered in Chinese with exit 2.
func TestChineseUnderWine(t *testing.T) {
	w := windows(t)
	title := "适用于以下环境的 torch 版本"

	zh := w.gpuwiz(t, nil, append([]string{"--lang", "zh-CN"}, channelsArgs...)...)
	if zh.code != 0 || !strings.Contains(zh.stdout, title) || !strings.Contains(zh.stdout, "推荐：torch") {
		t.Fatalf("--lang zh-CN channels: exit %d\n%s\n%s", zh.code, zh.stdout, zh.stderr)
	}
	head := strings.SplitN(zh.stdout, "\n", 3)
	i18ntest.NoEnglishProse(t, "the channels title under Wine", head[0]+"\n"+head[1])

	if r := w.gpuwiz(t, []string{"GPUWIZ_LANG=zh-CN"}, channelsArgs...); !strings.Contains(r.stdout, title) {
		t.Errorf("GPUWIZ_LANG=zh-CN: not Chinese:\n%s\n%s", r.stdout, r.stderr)
	}

	// The Windows display language: Wine takes the user's UI language from the Unix locale it starts
	// under; cmd clears LANG and LC_* before gpuwiz.exe starts, so only the Windows API is left.
	exe := "Z:" + strings.ReplaceAll(w.exe, "/", `\`)
	viaUI := func(locale string) result {
		line := "set LANG=& set LC_ALL=& set LC_MESSAGES=& " + exe + " " + strings.Join(channelsArgs, " ")
		return w.wine(t, []string{"LANG=" + locale, "LC_ALL=" + locale}, "cmd", "/c", line)
	}
	if r := viaUI("zh_CN.UTF-8"); !strings.Contains(r.stdout, title) {
		t.Errorf("Windows UI language zh-CN: not Chinese:\n%s\n%s", r.stdout, r.stderr)
	}
	if r := viaUI("en_US.UTF-8"); !strings.Contains(r.stdout, "torch builds for windows") {
		t.Errorf("Windows UI language en-US: not English:\n%s\n%s", r.stdout, r.stderr)
	}

	// --json: the same document in both languages except the human text in it.
	var docs [2]map[string]any
	for i, lang := range []string{"en", "zh-CN"} {
		r := w.gpuwiz(t, nil, append(append([]string{"--lang", lang}, channelsArgs...), "--json")...)
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &docs[i]) != nil {
			t.Fatalf("--lang %s --json: exit %d\n%s\n%s", lang, r.code, r.stdout, r.stderr)
		}
	}
	if !reflect.DeepEqual(keys(docs[0]), keys(docs[1])) {
		t.Errorf("--json keys differ between the languages: %v vs %v", keys(docs[0]), keys(docs[1]))
	}

	bad := w.gpuwiz(t, nil, "--lang", "zh-CN", "channels", "--bogus")
	if bad.code != 2 || !strings.Contains(bad.stderr, "没有 --bogus 这个选项") {
		t.Errorf("a bad flag in Chinese: exit %d\n%s\n%s", bad.code, bad.stdout, bad.stderr)
	}
}

// keys lists a JSON object's keys, and those of its nested objects and arrays, as paths.
func keys(v any) []string {
	var out []string
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				out = append(out, prefix+"."+k)
				walk(prefix+"."+k, x)
			}
		case []any:
			for _, x := range v {
				walk(prefix+"[]", x)
			}
		}
	}
	walk("", v)
	seen := map[string]bool{}
	var uniq []string
	for _, k := range out {
		if !seen[k] {
			seen[k] = true
			uniq = append(uniq, k)
		}
	}
	slices.Sort(uniq)
	return uniq
}
