package jsonfile

import (
	"strings"
	"testing"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/i18n/i18ntest"
)

func TestWarningInChinese(t *testing.T) {
	i18n.Set(i18n.Chinese)
	t.Cleanup(func() { i18n.Set(i18n.English) })
	unknown, err := Decode([]byte(`{"kind":"k","fan_speed":1,"items":[{"name":"a","uuid":"x"}]}`), &doc{})
	if err != nil {
		t.Fatal(err)
	}
	w := Warning("gpu.json", unknown)
	if w != `gpu.json：忽略了这个版本的 gpuwiz 不认识的字段（可能是较新版本的 gpuwiz 写入的）："fan_speed"、"items[0].uuid"` {
		t.Fatalf("%q", w)
	}
	i18ntest.NoEnglishProse(t, "fields", w)
	one := Warning("gpu.json", []string{"fan_speed"})
	if !strings.HasSuffix(one, `："fan_speed"`) {
		t.Fatalf("%q", one)
	}
	i18ntest.NoEnglishProse(t, "field", one)
}

func TestWarningEnglishUnchanged(t *testing.T) {
	if w := Warning("f.json", []string{"a", "b"}); w != `f.json: ignoring fields this gpuwiz does not know (a newer gpuwiz may have written it): "a", "b"` {
		t.Fatalf("%q", w)
	}
	if w := Warning("f.json", []string{"a"}); w != `f.json: ignoring field this gpuwiz does not know (a newer gpuwiz may have written it): "a"` {
		t.Fatalf("%q", w)
	}
}
