package cli

import (
	"bytes"
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"gpuwiz/matrix"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/i18n/i18ntest"
	"gpuwiz/steps/pyget"
	"gpuwiz/steps/verify"
)

// inChinese switches every message to Chinese for the test and back to English after it. i18n.Set is
// process-global: tests that call it must not run in parallel.
// othersCommands are the commands whose texts another part of the catalog (cli-run.*) holds; until
// that part is in, their one-line summaries in the root's list are left out of the English check.
var othersCommands = []string{"  bench ", "  doctor ", "  install "}

var commandRow = regexp.MustCompile(`^  [a-z]+ {2,}(.*)$`)

func withoutOthers(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		other := false
		for _, p := range othersCommands {
			other = other || strings.HasPrefix(l, p)
		}
		if other {
			continue
		}
		// A command's name in the list is what a user types, in every language.
		if m := commandRow.FindStringSubmatch(l); m != nil {
			l = m[1]
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "\n")
}

func TestChineseHelp(t *testing.T) {
	i18ntest.Chinese(t)
	for _, args := range [][]string{{"--help"}, {"channels", "--help"}, {"matrix", "check", "--help"}, {"venvs", "--help"}, {"gpu", "--help"}, {"help"}, {"completion", "bash", "--help"}} {
		out, stderr, code := runCLI(t, args...)
		what := strings.Join(args, " ")
		if code != 0 || stderr != "" {
			t.Fatalf("%s: exit %d, stderr %q", what, code, stderr)
		}
		for _, want := range []string{"用法：", "选项："} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: no %q in\n%s", what, want, out)
			}
		}
		if args[0] != "completion" {
			if !strings.Contains(out, "全局选项：") && args[0] != "--help" && args[0] != "help" {
				t.Errorf("%s: no global flags heading in\n%s", what, out)
			}
		}
		i18ntest.NoEnglishProse(t, what, withoutOthers(out))
	}
	out, _, _ := runCLI(t, "--help")
	for _, want := range []string{"可用命令：", `运行 gpuwiz [命令] --help 查看某个命令的详细说明。`, "-h, --help", "显示 gpuwiz 的帮助", "--lang string", "--simulate FILE"} {
		if !strings.Contains(out, want) {
			t.Errorf("root help has no %q:\n%s", want, out)
		}
	}
	out, _, _ = runCLI(t, "channels", "--help")
	for _, want := range []string{"gpuwiz channels [选项]", `（默认："torch"）`, "示例：", "gpuwiz channels --no-gpu --json"} {
		if !strings.Contains(out, want) {
			t.Errorf("channels help has no %q:\n%s", want, out)
		}
	}
}

// TestEnglishHelpIsCobras: the templates from the catalog give, in English, exactly what cobra's own
// templates give.
func TestEnglishHelpIsCobras(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"channels", "--help"}, {"matrix", "--help"}} {
		root, _ := NewRoot(Build{Version: "test"})
		var ours bytes.Buffer
		root.SetOut(&ours)
		root.SetArgs(args)
		if err := root.Execute(); err != nil {
			t.Fatal(err)
		}
		root2, _ := NewRoot(Build{Version: "test"})
		root2.SetUsageTemplate("")
		var cobras bytes.Buffer
		root2.SetOut(&cobras)
		root2.SetArgs(args)
		if err := root2.Execute(); err != nil {
			t.Fatal(err)
		}
		if ours.String() != cobras.String() {
			t.Errorf("%v: ours\n%s\ncobra's\n%s", args, ours.String(), cobras.String())
		}
	}
}

// TestLanguageComesFromTheEnvironment: LANG alone gives Chinese; GPUWIZ_LANG beats LANG; --lang beats
// both. The help that follows is in the language chosen.
func TestLanguageComesFromTheEnvironment(t *testing.T) {
	t.Cleanup(func() { i18n.Set(i18n.English) })
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, c := range []struct {
		args    []string
		env     map[string]string
		chinese bool
	}{
		{[]string{"venvs", "--help"}, map[string]string{"LANG": "zh_CN.UTF-8"}, true},
		{[]string{"venvs", "--help"}, map[string]string{"LANG": "zh_CN.UTF-8", "GPUWIZ_LANG": "en"}, false},
		{[]string{"venvs", "--help"}, map[string]string{"LANG": "en_US.UTF-8", "GPUWIZ_LANG": "zh-CN"}, true},
		{[]string{"--lang", "zh-CN", "venvs", "--help"}, map[string]string{"LANG": "en_US.UTF-8", "GPUWIZ_LANG": "en"}, true},
		{[]string{"venvs", "--help", "--lang=en"}, map[string]string{"LANG": "zh_CN.UTF-8", "GPUWIZ_LANG": "zh-CN"}, false},
	} {
		var out, errb bytes.Buffer
		if code, ok := chooseLanguage(c.args, env(c.env), &out, &errb); !ok {
			t.Fatalf("%v %v: exit %d %s", c.args, c.env, code, errb.String())
		}
		got, _, code := runCLI(t, c.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d", c.args, code)
		}
		if zh := strings.Contains(got, "用法："); zh != c.chinese {
			t.Errorf("%v %v: Chinese %v, want %v:\n%s", c.args, c.env, zh, c.chinese, got)
		}
		if c.chinese {
			i18ntest.NoEnglishProse(t, strings.Join(c.args, " "), got)
		} else if !strings.Contains(got, "Usage:") {
			t.Errorf("%v %v: not English:\n%s", c.args, c.env, got)
		}
	}
}

func TestChineseBadInputIsChineseAndExit2(t *testing.T) {
	useConfigDir(t)
	i18ntest.Chinese(t)
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"channels", "--jsn"}, []string{"--jsn", "gpuwiz channels --help"}},
		{[]string{"gpu", "--interval", "abc"}, []string{"--interval abc", "20s", "gpuwiz gpu --help"}},
		{[]string{"gpu", "--interval"}, []string{"--interval", "gpuwiz gpu --help"}},
		{[]string{"venvs", "-q"}, []string{"-q", "gpuwiz venvs --help"}},
		{[]string{"venv"}, []string{"1", "gpuwiz venv PATH [选项]"}},
		{[]string{"python", "install", "3.12", "3.13"}, []string{"1", "2"}},
		{[]string{"chanels"}, []string{"“chanels”", "gpuwiz channels"}},
		{[]string{"chanels", "--json"}, []string{"“chanels”", "gpuwiz channels"}},
		{[]string{"venvs", "extra"}, []string{"“extra”", "gpuwiz venvs --help"}},
		{[]string{"matrix", "--json", "--toml"}, []string{"--json", "--toml"}},
		{[]string{"install", "--venv", "a", "--env", "b", "--dry-run"}, []string{"--venv", "--env", "gpuwiz install --help"}},
		{[]string{"doctor", "--env", "a", "--venv", "b"}, []string{"--venv", "--env", "gpuwiz doctor --help"}},
		{[]string{"channels", "--framework", "tensorflow"}, []string{`"tensorflow"`, "torch", "paddle"}},
	} {
		what := strings.Join(c.args, " ")
		_, stderr, code := runCLI(t, c.args...)
		if code != ExitUsage {
			t.Errorf("%s: exit %d, want 2 (%s)", what, code, stderr)
		}
		if !strings.HasPrefix(stderr, "gpuwiz：") { // the Chinese colon, as every Chinese line of gpuwiz
			t.Errorf("%s: stderr %q", what, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%s: stderr has no %q: %s", what, w, stderr)
			}
		}
		i18ntest.NoEnglishProse(t, what, stderr)
	}
	// The same mistakes in English: an unknown flag keeps pflag's words.
	i18n.Set(i18n.English)
	_, stderr, code := runCLI(t, "channels", "--jsn")
	if code != ExitUsage || stderr != "gpuwiz: unknown flag: --jsn (see --help)\n" {
		t.Errorf("English: exit %d %q", code, stderr)
	}
	// Bad arguments: cobra's "accepts 1 arg(s), received 0" and "unknown command" name neither the
	// usage nor the command meant; the catalog's English does.
	_, stderr, code = runCLI(t, "venv")
	if code != ExitUsage || stderr != "gpuwiz: the command takes 1 argument and got 0: gpuwiz venv PATH [flags]\n" {
		t.Errorf("English: exit %d %q", code, stderr)
	}
	for _, args := range [][]string{{"chanels"}, {"chanels", "--json"}} { // not "unknown flag: --json"
		_, stderr, code = runCLI(t, args...)
		if code != ExitUsage || !strings.Contains(stderr, `gpuwiz: "chanels" is not a command of gpuwiz: run gpuwiz --help for its commands. Did you mean gpuwiz channels?`) {
			t.Errorf("English %v: exit %d %q", args, code, stderr)
		}
	}
	// A value pflag cannot parse: pflag would name Go's parser (strconv.ParseInt...); the catalog's
	// English says what the flag takes instead.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"cache", "prune", "--older-than", "banana"}, "gpuwiz: --older-than banana: the value must be a whole number; run gpuwiz cache prune --help for what it takes\n"},
		{[]string{"gpu", "--interval", "abc"}, "--interval abc: the value must be a duration such as 20s"},
		{[]string{"cache", "--json=maybe"}, "--json maybe: the value must be true or false"},
	} {
		_, stderr, code = runCLI(t, c.args...)
		if code != ExitUsage || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "strconv") || strings.Contains(stderr, "invalid argument") {
			t.Errorf("English %v: exit %d %q, want %q", c.args, code, stderr, c.want)
		}
	}
	// --venv and --env set one variable: both given is refused, in words that say what to do.
	_, stderr, code = runCLI(t, "install", "--venv", "a", "--env", "b", "--dry-run")
	if code != ExitUsage || !strings.Contains(stderr, "cannot be used together: pick one; run gpuwiz install --help") {
		t.Errorf("English --venv with --env: exit %d %q", code, stderr)
	}
}

// dropHuman removes the fields that hold words for a person (the message, warnings, notes), so what is
// left must be the same in every language.
func dropHuman(t *testing.T, what, doc string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(doc), &v); err != nil {
		t.Fatalf("%s: %v\n%s", what, err, doc)
	}
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				switch k {
				case "message", "warnings", "warning", "notes", "note", "reason", "reasons", "why", "advice", "error", "footnotes":
					delete(v, k)
				default:
					walk(x)
				}
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(v)
	return v
}

func TestJSONIsTheSameInBothLanguages(t *testing.T) {
	useConfigDir(t)
	t.Cleanup(func() { i18n.Set(i18n.English) })
	rig := "../../testdata/fakenvml/expected.json"
	for _, args := range [][]string{
		{"--simulate", rig, "gpu", "--json"},
		{"channels", "--json", "--os", "windows", "--driver", "566.36", "--cuda-max", "12.7", "--compute-cap", "8.6", "--python", "3.12", "--python-bits", "64"},
		{"channels", "--json", "--no-gpu", "--os", "linux", "--python", "3.11", "--python-bits", "64"},
		{"venvs", "--json"},
		{"matrix", "--json"},
	} {
		what := strings.Join(args, " ")
		i18n.Set(i18n.English)
		en, _, codeEn := runCLI(t, args...)
		i18n.Set(i18n.Chinese)
		zh, _, codeZh := runCLI(t, args...)
		if codeEn != codeZh {
			t.Errorf("%s: exit %d in English, %d in Chinese", what, codeEn, codeZh)
		}
		if a, b := dropHuman(t, what, en), dropHuman(t, what, zh); !reflect.DeepEqual(a, b) {
			t.Errorf("%s: the JSON differs between languages beyond its human fields:\nen %s\nzh %s", what, en, zh)
		}
		if what == "venvs --json" && en != zh {
			t.Errorf("venvs --json differs:\n%s\n%s", en, zh)
		}
	}
}

// TestChineseTablesLineUp: a CJK character takes two columns, so the columns are padded by display width.
func TestChineseTablesLineUp(t *testing.T) {
	var tb table
	tb.row("  版本", "通道", "已验证", "索引")
	tb.row("  2.6.0", "cu126", "是", "https://x")
	tb.row("  10.11.12", "cpu", "否", "-")
	var b bytes.Buffer
	tb.write(&b)
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	col := func(line, cell string) int { return i18n.Width(line[:strings.Index(line, cell)]) }
	if a, b, c := col(lines[0], "通道"), col(lines[1], "cu126"), col(lines[2], "cpu"); a != b || b != c {
		t.Errorf("channel column at %d, %d, %d:\n%s", a, b, c, strings.Join(lines, "\n"))
	}
	if a, b, c := col(lines[0], "索引"), col(lines[1], "https"), col(lines[2], "-"); a != b || b != c {
		t.Errorf("index column at %d, %d, %d:\n%s", a, b, c, strings.Join(lines, "\n"))
	}

	i18ntest.Chinese(t)
	out, stderr, code := runCLI(t, "channels", "--os", "windows", "--driver", "566.36", "--cuda-max", "12.7", "--compute-cap", "8.6", "--python", "3.12", "--python-bits", "64")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines = strings.Split(out, "\n")
	head := -1
	for i, l := range lines {
		if strings.Contains(l, "版本") && strings.Contains(l, "状态") {
			head = i
		}
	}
	if head < 0 {
		t.Fatalf("no Chinese table heading:\n%s", out)
	}
	status := col(lines[head], "状态")
	rows := 0
	for _, l := range lines[head+1:] {
		if l == "" {
			break
		}
		i := strings.Index(l, "可用")
		if j := strings.Index(l, "不可用"); j >= 0 && (i < 0 || j < i) {
			i = j
		}
		if i < 0 {
			t.Fatalf("row without a status: %q", l)
		}
		if w := i18n.Width(l[:i]); w != status {
			t.Errorf("status at column %d, heading at %d:\n%s", w, status, out)
		}
		rows++
	}
	if rows == 0 {
		t.Fatalf("no rows:\n%s", out)
	}
	// The lines this part owns (title, recommendation, heading, the meaning of "unverified") are Chinese;
	// the footnotes are the version matrix's own texts.
	owned := strings.Join(lines[:head+1], "\n")
	if i := strings.Index(out, "未验证："); i >= 0 {
		owned += "\n" + strings.SplitN(out[i:], "\n", 2)[0]
	}
	for _, want := range []string{"推荐：", "显卡驱动 566.36（CUDA 12.7）", "算力 8.6", "Python 3.12 64 位", "原因 / 备注"} {
		if !strings.Contains(owned, want) {
			t.Errorf("no %q in\n%s", want, owned)
		}
	}
	i18ntest.NoEnglishProse(t, "channels", owned)

	out, _, code = runCLI(t, "matrix")
	if code != 0 || !strings.Contains(out, "CUDA 要求的最低显卡驱动版本") {
		t.Fatalf("matrix: exit %d\n%s", code, out)
	}
	lines = strings.Split(out, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "  CUDA  ") {
			verified := col(l, "已验证")
			for _, r := range lines[i+1:] {
				if r == "" {
					break
				}
				cell := strings.TrimSpace(r)
				last := cell[strings.LastIndex(cell, " ")+1:]
				if w := i18n.Width(r[:strings.LastIndex(r, last)]); w != verified {
					t.Errorf("matrix CUDA table: %q at column %d, heading at %d", last, w, verified)
				}
			}
		}
	}
	i18ntest.NoEnglishProse(t, "matrix", out)
}

func TestChineseGPUReport(t *testing.T) {
	i18ntest.Chinese(t)
	out, _, code := runCLI(t, "--simulate", "../../testdata/fakenvml/expected.json", "gpu")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	for _, want := range []string{"模拟的硬件", "566.36", "算力 8.9", "24564 MiB", "未报告显存", "python.exe", "警告："} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	i18ntest.NoEnglishOnScreen(t, "gpu", out)
	// a report that does not say how it was read is the simulated one, and says so in words
	out, _, code = runCLI(t, "--simulate", "../../ui/testdata/e2e/rig-rtx3060.json", "gpu")
	if code != 0 || !strings.Contains(out, "读取方式 模拟的报告") {
		t.Errorf("exit %d, no 读取方式 模拟的报告 in\n%s", code, out)
	}
	i18ntest.NoEnglishOnScreen(t, "gpu (simulated)", strings.Replace(out, "simulated RTX 3060 rig", "", 1)) // the file's own message
}

func TestChineseVerifyAndVenvs(t *testing.T) {
	useConfigDir(t)
	i18ntest.Chinese(t)
	var b bytes.Buffer
	printVerify(&b, verify.Report{Framework: "torch", Version: "2.6.0+cu126", CUDA: "12.6", OK: false, Checks: []verify.Check{
		{Title: "CUDA 版", OK: true, Evidence: "12.6"},
		{Title: "在显卡上计算", OK: false, Cause: "显存不足", Fix: "关闭其他程序"},
	}})
	out := b.String()
	for _, want := range []string{"验证 torch 2.6.0+cu126（CUDA 12.6，cuDNN -）", "  [通过] CUDA 版: 12.6", "  [失败] 在显卡上计算", "原因：显存不足", "解决办法：关闭其他程序", "1 项检查未通过"} {
		if !strings.Contains(out, want) {
			t.Errorf("verify: no %q in\n%s", want, out)
		}
	}
	i18ntest.NoEnglishProse(t, "verify", out)

	out, _, code := runCLI(t, "venvs")
	if code != 0 || !strings.Contains(out, "都已不存在") || !strings.Contains(out, "venvs.json") {
		t.Fatalf("venvs: exit %d\n%s", code, out)
	}
	i18ntest.NoEnglishProse(t, "venvs", out)
}

func TestChineseFactsAndPlan(t *testing.T) {
	i18ntest.Chinese(t)
	got := describeFacts(matrix.Facts{OS: "windows", DriverVersion: "566.36", CUDAMax: "12.7", ComputeCaps: []string{"8.6", "6.1"}, PythonVersion: "3.12", PythonBits: 64})
	if got != "windows、显卡驱动 566.36（CUDA 12.7）、算力 8.6、6.1、Python 3.12 64 位" {
		t.Errorf("facts: %q", got)
	}
	i18ntest.NoEnglishProse(t, "facts", got)
}

func TestChinesePythonInstallPlan(t *testing.T) {
	i18ntest.Chinese(t)
	var b bytes.Buffer
	printPythonPlan(&b, pyget.Plan{Minor: "3.12", Version: "3.12.10", Method: pyget.MethodInstaller,
		URL: "https://www.python.org/ftp/python/3.12.10/python-3.12.10-amd64.exe", ChecksumFrom: "https://www.python.org/downloads/release/python-31210/",
		Command: []string{`C:\Users\u\python-3.12.10-amd64.exe`, "/quiet", "InstallAllUsers=0"}, Target: `C:\Users\u\AppData\Local\Programs\Python\Python312\python.exe`})
	out := b.String()
	for _, want := range []string{"计划：为当前用户安装 Python 3.12.10，使用 python.org 安装程序", "下载 https://www.python.org/ftp/python/3.12.10/python-3.12.10-amd64.exe",
		"核对 SHA-256 校验值：从 https://www.python.org/downloads/release/python-31210/ 读取", "/quiet", "然后查找 "} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	i18ntest.NoEnglishProse(t, "python install plan", out)
	b.Reset()
	(&byteProgress{w: &b}).update(50e6, 100e6)
	if got := b.String(); got != "   50%  已下载 50.0 / 100.0 MB\n" {
		t.Errorf("progress %q", got)
	}
	i18n.Set(i18n.English)
	b.Reset()
	(&byteProgress{w: &b}).update(50e6, 100e6)
	if got := b.String(); got != "   50%  50.0 of 100.0 MB\n" {
		t.Errorf("English progress %q", got)
	}
}

// A --json command that fails on bad input still answers with the same JSON keys; only "error" is Chinese.
func TestChineseJSONErrorKeepsItsShape(t *testing.T) {
	i18ntest.Chinese(t)
	out, stderr, code := runCLI(t, "channels", "--json", "--framework", "tensorflow")
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != ExitUsage {
		t.Fatalf("exit %d %v\n%s%s", code, err, out, stderr)
	}
	if len(doc) != 2 || doc["exit_code"] != float64(ExitUsage) || !strings.Contains(doc["error"].(string), "torch 或 paddle") {
		t.Errorf("%v", doc)
	}
}
