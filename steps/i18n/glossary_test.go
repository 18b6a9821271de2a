package i18n

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/pelletier/go-toml/v2"
)

// glossary is glossary.zh-CN.toml: the Chinese catalog's words and their exceptions.
type glossary struct {
	Term []struct {
		Concept  string
		Word     []string
		Replaces []string
		Allow    []string
		Keys     []string
	}
	Exception []struct {
		Rule string
		Keys []string
		Why  string
	}
	Limits map[string]int
}

func readGlossary(t *testing.T) glossary {
	t.Helper()
	b, err := os.ReadFile("glossary.zh-CN.toml")
	if err != nil {
		t.Fatal(err)
	}
	var g glossary
	if err := toml.NewDecoder(strings.NewReader(string(b))).DisallowUnknownFields().Decode(&g); err != nil {
		t.Fatalf("glossary.zh-CN.toml: %v", err)
	}
	if len(g.Term) == 0 {
		t.Fatal("glossary.zh-CN.toml has no terms")
	}
	return g
}

// chineseValues is every text of every locales/*.zh-CN.toml, read with the TOML parser: id (with
// "#form" for a plural form other than "other") → text.
func chineseValues(t *testing.T) map[string]string {
	t.Helper()
	files, err := fs.Glob(locales, "locales/*."+string(Chinese)+".toml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no Chinese catalog files (%v)", err)
	}
	out := map[string]string{}
	for _, f := range files {
		b, err := locales.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := toml.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", path.Base(f), err)
		}
		flatten("", m, out)
	}
	return out
}

func flatten(prefix string, m map[string]any, out map[string]string) {
	for k, v := range m {
		id := k
		if prefix != "" {
			id = prefix + "." + k
		}
		switch v := v.(type) {
		case string:
			out[id] = v
		case map[string]any:
			if forms, ok := pluralForms(v); ok {
				for form, text := range forms {
					if form == "other" {
						out[id] = text
					} else {
						out[id+"#"+form] = text
					}
				}
			} else {
				flatten(id, v, out)
			}
		}
	}
}

func pluralForms(m map[string]any) (map[string]string, bool) {
	forms := map[string]string{}
	for k, v := range m {
		s, ok := v.(string)
		if !ok || !map[string]bool{"zero": true, "one": true, "two": true, "few": true, "many": true, "other": true}[k] {
			return nil, false
		}
		forms[k] = s
	}
	return forms, len(forms) > 0
}

var (
	backticked   = regexp.MustCompile("`[^`]*`")
	templateCall = regexp.MustCompile(`\{\{[^}]*\}\}`)
	urlText      = regexp.MustCompile(`[a-z]+://[^\s，。；：、（）“”]+`)
)

// readable is the part of a value a user reads: code in `backticks` and template actions go
// (a placeholder becomes X, a value of some kind).
func readable(s string) string {
	s = backticked.ReplaceAllStringFunc(s, func(m string) string { return strings.Repeat(" ", len(m)) })
	return templateCall.ReplaceAllString(s, "X")
}

// latin is whether a replaced word is written in Latin letters (it then counts as a whole word).
func latin(w string) bool {
	for _, r := range w {
		if r > unicode.MaxASCII {
			return false
		}
	}
	return true
}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_'
}

// replacedWords are the glossary's findings in one value: "uses X (write Y)" for each replaced word
// outside an allowed place.
func (g glossary) replacedWords(id, text string) []string {
	var found []string
	s := readable(text)
	for _, term := range g.Term {
		if contains(term.Keys, id) {
			continue
		}
		var allowed [][]int
		for _, a := range term.Allow {
			allowed = append(allowed, regexp.MustCompile(a).FindAllStringIndex(s, -1)...)
		}
		for _, w := range term.Word {
			allowed = append(allowed, regexp.MustCompile(regexp.QuoteMeta(w)).FindAllStringIndex(s, -1)...)
		}
		for _, bad := range term.Replaces {
			for _, at := range regexp.MustCompile(regexp.QuoteMeta(bad)).FindAllStringIndex(s, -1) {
				if latin(bad) && (at[0] > 0 && isWordByte(s[at[0]-1]) || at[1] < len(s) && isWordByte(s[at[1]])) {
					continue // part of a longer word: venvs, pyvenv.cfg, paddlepaddle
				}
				if within(at, allowed) {
					continue
				}
				found = append(found, fmt.Sprintf("uses %q: write %s (%s)", bad, strings.Join(term.Word, " / "), term.Concept))
			}
		}
	}
	return found
}

func within(at []int, spans [][]int) bool {
	for _, sp := range spans {
		if sp[0] <= at[0] && at[1] <= sp[1] {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

var (
	han = `\p{Han}`
	// typography are the rules of a Chinese value, each with the reason a finding gives.
	typography = []struct {
		rule, why string
		re        *regexp.Regexp
	}{
		{"bracket", "half-width bracket beside Chinese: write （…）", regexp.MustCompile(han + ` ?\(|\(` + han + `|` + han + `\)|\)` + han)},
		{"colon", "half-width colon beside Chinese: write ：", regexp.MustCompile(han + ` ?:|:[ ]?` + han)},
		{"gpuwiz-colon", "write gpuwiz：, not gpuwiz: ", regexp.MustCompile(`gpuwiz: `)},
		{"corner-quote", "quotations are in “…”, not 「…」 or 『…』", regexp.MustCompile(`[「」『』]`)},
		{"ellipsis", "a single … : write ……", regexp.MustCompile(`(^|[^…])…([^…]|$)`)},
		{"ascii-ellipsis", "... beside Chinese: write ……", regexp.MustCompile(han + `\.\.\.|\.\.\.` + han)},
		{"unit", "a unit written the English way: write 3 秒, 250 毫秒, 5 分钟", regexp.MustCompile(`(?:\d|X)(?:s|ms|min|h)(?:[^A-Za-z0-9_]|$)`)},
	}
	// quotation is an ASCII "…" that opens after Chinese (or at the start): a quotation, which a
	// Chinese sentence writes “…”. Quotes after a flag, an = or a bracket are the shell's or TOML's.
	quotation = regexp.MustCompile(`(?:^|[\p{Han}\x{3000}-\x{303f}\x{ff00}-\x{ffef}“”])[ \t]*"`)
)

// typographyFindings are the typography rules one value breaks, each with its reason.
func (g glossary) typographyFindings(id, text string) []string {
	var found []string
	s := urlText.ReplaceAllString(readable(text), "URL")
	for _, r := range typography {
		if g.excepted(r.rule, id) {
			continue
		}
		if m := r.re.FindString(s); m != "" {
			found = append(found, fmt.Sprintf("%s (%q)", r.why, m))
		}
	}
	if !g.excepted("quote", id) {
		if loc := quotation.FindStringIndex(s); loc != nil {
			found = append(found, fmt.Sprintf("a quotation in ASCII quotes: write “…” (%q)", snippet(s, loc[1]-1)))
		}
		if strings.Count(s, "“") != strings.Count(s, "”") {
			found = append(found, "“ and ” do not pair")
		}
	}
	return found
}

func (g glossary) excepted(rule, id string) bool {
	for _, e := range g.Exception {
		if e.Rule == rule && contains(e.Keys, id) {
			return true
		}
	}
	return false
}

func snippet(s string, at int) string {
	r := []rune(s[at:])
	if len(r) > 16 {
		r = r[:16]
	}
	return string(r)
}

// TestGlossary: every Chinese value uses the glossary's words, keeps its typography, and 它 stays
// under the glossary's limit. Each finding names the message and the reason.
func TestGlossary(t *testing.T) {
	g := readGlossary(t)
	values := chineseValues(t)
	ids := make([]string, 0, len(values))
	for id := range values {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, e := range g.Exception {
		for _, id := range e.Keys {
			if _, ok := values[id]; !ok {
				t.Errorf("glossary: exception %q names %q, which no Chinese file has", e.Rule, id)
			}
		}
	}
	for _, id := range ids {
		for _, f := range append(g.replacedWords(id, values[id]), g.typographyFindings(id, values[id])...) {
			t.Errorf("%s: %s\n\t%s", id, f, values[id])
		}
	}
	for word, limit := range g.Limits {
		n := 0
		for _, v := range values {
			n += strings.Count(readable(v), word)
		}
		if n > limit {
			t.Errorf("%q appears %d times in the Chinese catalog, more than the glossary's %d: write the subject or drop it", word, n, limit)
		}
	}
}

// TestGlossaryFinds: each rule catches what it is for and lets commands, flags and paths through.
func TestGlossaryFinds(t *testing.T) {
	g := readGlossary(t)
	bad := map[string]string{
		"切回原渠道":                          "渠道",
		"这个 venv 会自动保护":                  "venv",
		"请指定 venv：":                      "venv",
		"从这个索引重装":                        "索引",
		"共 3 个构建":                        "构建",
		"从备份装回原来的内容":                     "装回",
		"这台电脑上没有驱动":                      "这台电脑",
		"torch 和 Paddle 争用":              "Paddle",
		"飞桨 PaddlePaddle 的 GPU 版":        "PaddlePaddle",
		"修复方法：X":                         "修复方法",
		"显存 (MiB)":                       "bracket",
		"算力 (compute capability)":        "compute capability",
		"[gpuwiz: 有 3 行未显示]":             "gpuwiz",
		"等待 3s 后重试":                      "unit",
		"正在检查…":                          "……",
		"pip 会报 \"from versions: none\"": "ASCII quotes",
		"显卡:X":                           "colon",
	}
	for text, want := range bad {
		got := strings.Join(append(g.replacedWords("x", text), g.typographyFindings("x", text)...), "|")
		if !strings.Contains(got, want) {
			t.Errorf("%q: found %q, want a finding with %q", text, got, want)
		}
	}
	good := []string{
		"请运行 gpuwiz doctor --venv \"{{.Venv}}\" --fix",
		"请用 python -m venv 创建，或安装 python3.12-venv；路径例如 C:\\venvs\\torch 或 ./venv、./.venv",
		"运行 gpuwiz venvs 查看；没有 pyvenv.cfg",
		"用 --index-url 指定索引",
		"飞桨（PaddlePaddle）的 paddlepaddle-gpu 包，paddle.version.cuda() 的值",
		"正在检查……",
		"请访问 https://download.pytorch.org/whl/cu126，或用 C:\\work 目录",
		"请写 `FILE:行号: 说明` 这样的行",
		"例如 [\"linux\", \"windows\"]；cuda = \"{{.Want}}\"",
		"等待 3 秒后重试（http(s) 网址）",
	}
	for _, text := range good {
		if got := append(g.replacedWords("x", text), g.typographyFindings("x", text)...); len(got) > 0 {
			t.Errorf("%q: found %q", text, got)
		}
	}
}
