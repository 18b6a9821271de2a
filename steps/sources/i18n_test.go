package sources

import (
	"context"
	"strings"
	"testing"
	"time"

	"gpuwiz/steps/i18n/i18ntest"
)

// A probe of real loopback indexes in Chinese: a slow one, one missing the build, one with the
// wrong Python, a good flat page, a typed URL and a closed port. Every reason and name is Chinese,
// and the facts (the timeout, versions, tags, host) survive.
func TestProbeInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	timeout := 300 * time.Millisecond
	slow := serveFake(t, 20*timeout, map[string][]string{"cu126": {goodWheel}})
	missing := serveFake(t, 0, map[string][]string{"cu126": {"torch-2.6.0+cu118-cp312-cp312-manylinux_2_28_x86_64.whl", "torch-2.5.1+cu126-cp312-cp312-manylinux_2_28_x86_64.whl"}})
	wrongPy := serveFake(t, 0, map[string][]string{"cu126": {"torch-2.6.0+cu126-cp310-cp310-win_amd64.whl"}})
	good := serveFake(t, 0, map[string][]string{"cu126": {goodWheel}})
	typed, err := Custom(good.URL + "/whl/cu126")
	if err != nil {
		t.Fatal(err)
	}
	empty, _ := Custom(good.URL + "/whl/cu999")
	closed := closedPort(t)
	cands := []Candidate{
		{ID: "official", Name: (&List{}).For("torch", "cu126", missing.URL+"/whl/cu126")[0].Name, Kind: KindOfficial, IndexURL: missing.URL + "/whl/cu126"},
		{ID: "slow", Kind: KindIndex, IndexURL: slow.URL + "/whl/cu126"},
		{ID: "wrong", Kind: KindIndex, IndexURL: wrongPy.URL + "/whl/cu126"},
		{ID: "good", Kind: KindFlat, FindLinks: good.URL + "/flat/cu126/", Mirror: good.URL + "/simple"},
		typed,
		empty,
		{ID: "closed", Kind: KindIndex, IndexURL: "http://" + closed + "/whl/cu126"},
		{ID: "deps-closed", Kind: KindFlat, FindLinks: good.URL + "/flat/cu126/", Mirror: "http://" + closed + "/simple"},
	}
	res := Probe(context.Background(), cands, build126, Options{Timeout: timeout, Net: proxyRules("")})
	for _, r := range res {
		i18ntest.NoEnglishProse(t, r.Candidate.ID+" why", r.Why)
		i18ntest.NoEnglishProse(t, r.Candidate.ID+" name", r.Candidate.Name)
		i18ntest.NoEnglishProse(t, r.Candidate.ID+" where", r.Candidate.Where())
	}
	want := map[int][]string{
		0: {"torch", "2.6.0+cu126", "只有 2.6.0+cu118、2.5.1+cu126"},
		1: {"300ms 内没有响应", "没有设置代理"},
		2: {"Python 3.12", "Linux/amd64", "cp310-win_amd64"},
		5: {"有响应"},
		6: {closed, "拒绝了连接", "没有设置代理"},
		7: {"依赖包的安装源无响应", closed},
	}
	for i, ws := range want {
		for _, w := range ws {
			if !strings.Contains(res[i].Why, w) {
				t.Errorf("%s: %q missing from %q", res[i].Candidate.ID, w, res[i].Why)
			}
		}
	}
	if !res[1].TimedOut || res[6].TimedOut || res[0].TimedOut {
		t.Errorf("timed out: slow %v, closed %v, missing %v", res[1].TimedOut, res[6].TimedOut, res[0].TimedOut)
	}
	if res[0].Candidate.Name != "本机上的 cu126 安装源" { // the matrix's index here is on this computer
		t.Errorf("official name: %q", res[0].Candidate.Name)
	}
	if !res[3].Usable() || !strings.Contains(res[3].Candidate.Where(), "wheel 包 ") || !strings.Contains(res[3].Candidate.Where(), "依赖包 ") {
		t.Errorf("good flat page: %+v, %q", res[3], res[3].Candidate.Where())
	}
	if !res[4].Usable() || res[4].Candidate.Name != "你输入的网址（安装源）" {
		t.Errorf("typed index: %+v", res[4])
	}
	if got := Propose(res); got != 3 && got != 4 {
		t.Errorf("proposed %d", got)
	}
	i18ntest.NoEnglishProse(t, "build", build126.String())
	if !strings.Contains(build126.String(), "torch 2.6.0+cu126") {
		t.Errorf("build: %q", build126.String())
	}
}

// The proxy is named in Chinese, with where it was set and without its password.
func TestProbeProxyInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	proxy := "http://alice:s3cret@" + closedPort(t)
	c := []Candidate{{ID: "m", Kind: KindIndex, IndexURL: "https://mirror.example.invalid/whl/cu126"}}
	r := Probe(context.Background(), c, build126, Options{Net: proxyRules("", "HTTPS_PROXY="+proxy)})[0]
	if !strings.Contains(r.Why, "通过代理 http://***@127.0.0.1:") || !strings.Contains(r.Why, "来自 HTTPS_PROXY") || !strings.Contains(r.Why, "无法连接代理") {
		t.Fatalf("%+v", r)
	}
	// The network error's own words (in parentheses) are not gpuwiz's to translate.
	own := r.Why
	if i, j := strings.Index(own, "无法连接代理（"), strings.LastIndex(own, "）"); i >= 0 && j > i {
		own = own[:i] + own[j:]
	}
	i18ntest.NoEnglishProse(t, "proxy why", own)
	r = Probe(context.Background(), c, build126, Options{Net: proxyRules(proxy)})[0]
	if !strings.Contains(r.Proxy, "pip 的代理设置") {
		t.Errorf("pip proxy: %q", r.Proxy)
	}
	r = Probe(context.Background(), c, build126, Options{Net: proxyRules("", "HTTPS_PROXY="+proxy, "NO_PROXY=.example.invalid")})[0]
	if r.Proxy != "" || !strings.Contains(r.Why, "没有经过代理") || !strings.Contains(r.Why, "mirror.example.invalid") {
		t.Errorf("NO_PROXY: %+v", r)
	}
	i18ntest.NoEnglishProse(t, "NO_PROXY why", r.Why)
}

// The embedded list in Chinese: every entry has a Chinese name, and its note is Chinese.
func TestEmbeddedListInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	l, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range l.Sources {
		if e.NameZh == "" || (e.Note != "" && e.NoteZh == "") {
			t.Errorf("%s: no name_zh or note_zh", e.ID)
		}
	}
	for _, fw := range []string{"torch", "paddle"} {
		for _, c := range l.For(fw, "cu126", "https://download.pytorch.org/whl/cu126") {
			i18ntest.NoEnglishProse(t, c.ID+" name", c.Name)
			i18ntest.NoEnglishProse(t, c.ID+" note", c.Note)
			i18ntest.NoEnglishProse(t, c.ID+" where", c.Where())
		}
	}
	// A user's own list without name_zh shows its names as written.
	own, err := Parse([]byte("schema = 1\n[[source]]\nid = \"a\"\nname = \"My mirror\"\nframeworks = [\"torch\"]\nlayout = \"index\"\nurl = \"https://x.org/{channel}\"\n"), "mine.toml")
	if err != nil {
		t.Fatal(err)
	}
	if got := own.For("torch", "cu126", "https://download.pytorch.org/whl/cu126")[1].Name; got != "My mirror" {
		t.Errorf("own name: %q", got)
	}
}

// A sources file's errors in Chinese, the file and the bad value kept.
func TestParseErrorsInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	head := "schema = 1\n[[source]]\nid = \"a\"\nname = \"A\"\nframeworks = [\"torch\"]\n"
	cases := []struct{ body, want string }{
		{head + "layout = \"index\"\nurl = \"https://x.org/{channel}\"\nmirror = \"y\"\n", "x.toml:8:"},
		{"schema = 2\n", "schema = 2"},
		{head + "layout = \"flat\"\nurl = \"https://x.org/{channel}/\"\n", "deps_index"},
		{head + "layout = \"index\"\nurl = \"https://x.org/{cuda}\"\n", "{channel}"},
		{head + "layout = \"index\"\nurl = \"http://x.org/whl\"\n", "https"},
		{head + "layout = \"mirror\"\nurl = \"https://x.org/whl\"\n", "mirror"},
		{head + "layout = \"index\"\nurl = \"not a url\"\n", "not a url"},
		{"schema = 1\n[[source]]\nid = \"a\"\n", "缺少 name"},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.body), "x.toml")
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "x.toml") {
			t.Errorf("%q: got %v, want %q", c.body, err, c.want)
			continue
		}
		i18ntest.NoEnglishProse(t, c.body, err.Error())
	}
	if _, err := LoadFile("/nonexistent/sources.toml"); err == nil || !strings.Contains(err.Error(), "无法读取安装源列表文件") {
		t.Errorf("missing file: %v", err)
	}
}
