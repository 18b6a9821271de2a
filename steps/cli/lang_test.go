package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"gpuwiz/steps/i18n"
)

func TestLangArg(t *testing.T) {
	for args, want := range map[string]string{
		"channels --lang zh-CN":        "zh-CN",
		"--lang=en gpu --json":         "en",
		"channels":                     "",
		"venv -- --lang zh-CN":         "",
		"install --lang":               "",
		"doctor --venv x --lang=zh_CN": "zh_CN",
	} {
		if got := langArg(strings.Fields(args)); got != want {
			t.Errorf("langArg(%q) = %q, want %q", args, got, want)
		}
	}
}

func TestChooseLanguage(t *testing.T) {
	defer i18n.Set(i18n.Current())
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	var out, errb bytes.Buffer
	if code, ok := chooseLanguage([]string{"channels"}, env(map[string]string{"LANG": "zh_CN.UTF-8"}), &out, &errb); !ok || code != 0 || i18n.Current() != i18n.Chinese {
		t.Fatalf("LANG=zh_CN.UTF-8: %d %v %s", code, ok, i18n.Current())
	}
	if _, ok := chooseLanguage([]string{"channels", "--lang", "en"}, env(map[string]string{"LANG": "zh_CN.UTF-8"}), &out, &errb); !ok || i18n.Current() != i18n.English {
		t.Fatalf("--lang en over LANG: %s", i18n.Current())
	}
	out.Reset()
	errb.Reset()
	code, ok := chooseLanguage([]string{"gpu", "--json", "--lang", "fr"}, env(nil), &out, &errb)
	if ok || code != ExitUsage || !strings.Contains(errb.String(), "--lang fr") || !strings.Contains(errb.String(), "zh-CN") {
		t.Fatalf("--lang fr: %d %v stderr %q", code, ok, errb.String())
	}
	var doc struct {
		ExitCode int    `json:"exit_code"`
		Error    string `json:"error"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil || doc.ExitCode != ExitUsage || doc.Error == "" {
		t.Fatalf("--json answer: %v %+v %q", err, doc, out.String())
	}
}
