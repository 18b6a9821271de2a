package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"gpuwiz/matrix"
	"gpuwiz/steps/bench"
	"gpuwiz/steps/doctor"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/i18n/i18ntest"
	"gpuwiz/steps/install"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/testkit/pyindex"
)

// These tests run install, doctor and bench in Chinese. i18n.Set is process-global: none of them
// (nor any test in this package) calls t.Parallel.

func mustContain(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, text)
		}
	}
}

// without removes from text the words that are not this part's: another package's messages (the
// install engine's step titles, doctor's findings), pip's output, a script's English. What is left
// is gpuwiz's own frame around them, which must be all Chinese.
func without(text string, foreign ...string) string {
	sort.Slice(foreign, func(i, j int) bool { return len(foreign[i]) > len(foreign[j]) })
	for _, f := range foreign {
		if strings.TrimSpace(f) != "" {
			text = strings.ReplaceAll(text, f, "〔…〕")
		}
	}
	return text
}

// jsonShape is a JSON document's keys, nested, with arrays reduced to their first element's shape:
// what a script relies on, whatever the language.
func jsonShape(t *testing.T, doc string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(doc), &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, doc)
	}
	var shape func(v any) any
	shape = func(v any) any {
		switch v := v.(type) {
		case map[string]any:
			out := map[string]any{}
			for k, x := range v {
				out[k] = shape(x)
			}
			return out
		case []any:
			if len(v) == 0 {
				return []any{}
			}
			return []any{shape(v[0])}
		}
		return nil
	}
	return shape(v)
}

// Every --help text and flag usage of install, doctor and bench is Chinese in Chinese.
func TestRunCommandsHelpInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	root, _ := NewRoot(Build{Version: "test"})
	for _, name := range []string{"install", "doctor", "bench"} {
		cmd, _, err := root.Find([]string{name})
		if err != nil || cmd.Name() != name {
			t.Fatalf("%s: %v", name, err)
		}
		i18ntest.NoEnglishProse(t, name+" short", cmd.Short)
		i18ntest.NoEnglishProse(t, name+" long", cmd.Long)
		if !strings.Contains(cmd.Long, "退出码：") {
			t.Errorf("%s --help lost its exit codes:\n%s", name, cmd.Long)
		}
		n := 0
		cmd.LocalNonPersistentFlags().VisitAll(func(f *pflag.Flag) {
			n++
			i18ntest.NoEnglishProse(t, name+" --"+f.Name, f.Usage)
		})
		if n < 5 {
			t.Errorf("%s has %d flags", name, n)
		}
	}
	bench, _, _ := root.Find([]string{"bench"})
	if f := bench.Flags().Lookup("gpu"); !strings.Contains(f.Usage, "`N`") {
		t.Errorf("--gpu lost its value name: %q", f.Usage)
	}
}

// install --dry-run in Chinese against the loopback index: the plan's frame is Chinese, every fact
// (build, packages, commands, the index) survives, and --json is the same document in both
// languages but for the human words.
func TestInstallDryRunInChinese(t *testing.T) {
	ix := cliIndex(t)
	venv := filepath.Join(t.TempDir(), "v")
	cache := t.TempDir()
	args := func(extra ...string) []string {
		return withRig(t, append([]string{"install", "--framework", "torch", "--framework-version", "2.6.0", "--channel", "cu126",
			"--venv", venv, "--python", pyindex.Python(t), "--index-url", ix.ChannelURL("cu126"), "--cache-dir", cache, "--dry-run"}, extra...)...)
	}
	enJSON, stderr, code := runCLI(t, args("--json")...)
	if code != 0 {
		t.Fatalf("English --json: exit %d: %s", code, stderr)
	}

	i18ntest.Chinese(t)
	zhJSON, stderr, code := runCLI(t, args("--json")...)
	if code != 0 {
		t.Fatalf("Chinese --json: exit %d: %s", code, stderr)
	}
	if !reflect.DeepEqual(jsonShape(t, enJSON), jsonShape(t, zhJSON)) {
		t.Errorf("the JSON's keys differ by language:\n%s\n%s", enJSON, zhJSON)
	}
	type doc struct {
		ExitCode  int        `json:"exit_code"`
		Install   []string   `json:"install"`
		Uninstall []string   `json:"uninstall"`
		Commands  [][]string `json:"commands"`
		Candidate struct {
			Framework, Channel string
			FrameworkVersion   string `json:"framework_version"`
		} `json:"candidate"`
		Plan struct {
			Steps []struct {
				ID, Title, Kind string
			} `json:"steps"`
			Notes    []string       `json:"notes"`
			Warnings []string       `json:"warnings"`
			Source   install.Source `json:"source"`
		} `json:"plan"`
	}
	var en, zh doc
	_ = json.Unmarshal([]byte(enJSON), &en)
	_ = json.Unmarshal([]byte(zhJSON), &zh)
	if en.ExitCode != zh.ExitCode || !reflect.DeepEqual(en.Install, zh.Install) || !reflect.DeepEqual(en.Commands, zh.Commands) ||
		en.Candidate != zh.Candidate || len(en.Plan.Steps) != len(zh.Plan.Steps) {
		t.Errorf("the machine-readable plan differs by language:\n%+v\n%+v", en, zh)
	}
	for i := range en.Plan.Steps {
		if en.Plan.Steps[i].ID != zh.Plan.Steps[i].ID || en.Plan.Steps[i].Kind != zh.Plan.Steps[i].Kind {
			t.Errorf("step %d: %+v vs %+v", i, en.Plan.Steps[i], zh.Plan.Steps[i])
		}
	}

	out, stderr, code := runCLI(t, args()...)
	if code != 0 {
		t.Fatalf("Chinese plan: exit %d: %s", code, stderr)
	}
	mustContain(t, "plan", out, "计划：把 torch 2.6.0（cu126）安装到 "+venv, "安装：torch==2.6.0+cu126 torchvision==0.21.0+cu126 torchaudio==2.6.0+cu126",
		"wheel 包来源：", ix.ChannelURL("cu126"))
	if strings.Contains(out, "Plan:") || strings.Contains(out, "wheels from:") {
		t.Errorf("English frame in the Chinese plan:\n%s", out)
	}
	// The steps' titles, notes, warnings and the source's description are the install engine's words.
	foreign := append(append([]string{zh.Plan.Source.Describe()}, zh.Plan.Notes...), zh.Plan.Warnings...)
	for _, s := range zh.Plan.Steps {
		foreign = append(foreign, s.Title)
	}
	i18ntest.NoEnglishProse(t, "install plan", without(out, foreign...))
}

// Bad input and a build that does not fit, in Chinese: the message is Chinese, the exit code and
// the facts (flags, versions, channels) are those of the English run.
func TestInstallRefusalsInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	for _, tc := range []struct {
		name  string
		args  []string
		code  int
		wants []string
	}{
		{"bad framework", []string{"install", "--framework", "jax", "--venv", "v"}, 2, []string{`--framework "jax"：请使用 torch 或 paddle`}},
		{"no venv", []string{"install"}, 2, []string{"没有指定虚拟环境", "--venv PATH"}},
		{"unknown version", []string{"install", "--framework-version", "9.9", "--channel", "cu126", "--venv", "v"}, 2,
			[]string{"--framework-version 9.9：版本矩阵里没有 torch 9.9", "2.4.1、"}},
		{"unknown channel", []string{"install", "--channel", "cu999", "--venv", "v"}, 2, []string{"--channel cu999：torch 没有这个 CUDA 通道", "cu118、"}},
		{"does not fit", []string{"install", "--framework-version", "2.6.0", "--channel", "cu126", "--python", pyindex.Python(t),
			"--venv", filepath.Join(t.TempDir(), "v"), "--dry-run"}, 3,
			[]string{"CUDA 通道 cu126 上的 torch 2.6.0 与本机不匹配：", "gpuwiz channels --framework torch", "--force"}},
		{"no terminal, no --yes", withRig(t, "install", "--framework-version", "2.6.0", "--channel", "cu126", "--python", pyindex.Python(t),
			"--venv", filepath.Join(t.TempDir(), "v")), 2, []string{"没有终端时请加 --yes"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := runCLI(t, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, stderr)
			}
			mustContain(t, tc.name, stderr, tc.wants...)
			msg := stderr
			if tc.name == "does not fit" { // the matrix's reasons are the matrix's words
				msg = regexp.MustCompile(`不匹配：[^\n]*`).ReplaceAllString(msg, "不匹配：〔…〕")
			}
			i18ntest.NoEnglishProse(t, tc.name, msg)
		})
	}
	answers := filepath.Join(t.TempDir(), "a.toml")
	_ = os.WriteFile(answers, []byte("framework = \"torch\"\nchanel = \"cu126\"\nvenv = \"v\"\n"), 0o644)
	_, stderr, code := runCLI(t, "install", "--config", answers, "--yes")
	if code != 2 {
		t.Fatalf("unknown key: exit %d", code)
	}
	mustContain(t, "unknown key", stderr, "有 1 个未知的键", "chanel", "framework-version、channel")
	// The parser's own description of the key (its line, a caret) is go-toml's English: check the
	// first line and the last, gpuwiz's.
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	i18ntest.NoEnglishProse(t, "unknown key", lines[0]+"\n"+lines[len(lines)-1])
}

// An index that does not answer, in Chinese and as text: the run says where it failed, that
// nothing changed and that the venv it had created is gone again.
func TestInstallFailureInChinese(t *testing.T) {
	useConfigDir(t)
	ix := cliIndex(t)
	url := ix.ChannelURL("cu126")
	ix.Close()
	t.Setenv("PIP_RETRIES", "0")
	dir := t.TempDir()
	venv := filepath.Join(dir, "v")
	i18ntest.Chinese(t)
	out, stderr, code := runCLI(t, withRig(t, "install", "--framework", "torch", "--framework-version", "2.6.0", "--channel", "cu126",
		"--venv", venv, "--python", pyindex.Python(t), "--index-url", url, "--cache-dir", filepath.Join(dir, "cache"),
		"--no-pip-upgrade", "--yes", "--log", filepath.Join(dir, "install.log"))...)
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s\n%s", code, stderr, out)
	}
	mustContain(t, "failed install", out, "正在把 torch 2.6.0（cu126）安装到 "+venv, "日志："+filepath.Join(dir, "install.log"),
		"这一步失败；没有做任何修改：", "本次运行新建的虚拟环境已删除。", "最后的输出：")
	if _, err := os.Stat(venv); !os.IsNotExist(err) {
		t.Fatalf("the new venv is still there (%v)", err)
	}
	// gpuwiz's own lines: not the engine's progress messages ("… ...", "  ..."), not the engine's error
	// after "没有做任何修改：", not pip's output under "最后的输出：".
	var own []string
	inTail := false
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(l, "最后的输出："):
			inTail = true
			own = append(own, l)
			continue
		case inTail && strings.HasPrefix(l, "  "):
			continue
		case strings.HasPrefix(l, "… "):
			continue
		case strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "  完成：") && !strings.HasPrefix(l, "  失败：") && !strings.HasPrefix(l, "  跳过："):
			continue // an event's own message, in the engine's words
		}
		inTail = false
		if i := strings.Index(l, "没有做任何修改："); i >= 0 {
			l = l[:i]
		}
		if rest, ok := strings.CutPrefix(l, "  失败："); ok { // the step's name, then the engine's message
			name, _, _ := strings.Cut(rest, "：")
			l = "  失败：" + name
		}
		own = append(own, l)
	}
	i18ntest.NoEnglishOnScreen(t, "failed install", strings.Join(own, "\n"))
}

// The outcomes no loopback run reaches easily: restored, and damaged with leftovers.
func TestInstallOutcomesInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	var b bytes.Buffer
	printOutcome(&b, install.Outcome{Result: install.ResultRestored, FailedStep: "install", Error: "E1", LogPath: "/l.log"}, nil, nil)
	mustContain(t, "restored", b.String(), "在“安装新版本”这一步失败；原来的包已还原（已逐个文件核对 site-packages）：E1", "日志：/l.log")
	i18ntest.NoEnglishProse(t, "restored", b.String())
	// the user's own Ctrl+C: what happened, not Go's "context canceled"
	for _, c := range []struct {
		o    install.Outcome
		want string
	}{
		{install.Outcome{Result: install.ResultUnchanged, FailedStep: "stage", Err: i18n.Wrap(context.Canceled, "x"), Error: "x"}, "你取消了安装；什么都没有改动。"},
		{install.Outcome{Result: install.ResultUnchanged, FailedStep: "stage", VenvRemoved: true, Err: i18n.Wrap(context.Canceled, "x"), Error: "x"}, "你取消了安装；本次运行新建的虚拟环境已删除。"},
		{install.Outcome{Result: install.ResultRestored, FailedStep: "install", Err: i18n.Wrap(context.Canceled, "x"), Error: "x"}, "你取消了安装；原来的包已还原"},
	} {
		b.Reset()
		printOutcome(&b, c.o, nil, nil)
		mustContain(t, "cancelled", b.String(), c.want)
		i18ntest.NoEnglishOnScreen(t, "cancelled", b.String())
	}
	b.Reset()
	printOutcome(&b, install.Outcome{Result: install.ResultDamaged, FailedStep: "install", Error: "E2", LogPath: "/l.log",
		Leftovers: []install.Leftover{{Path: "/v/x.py", What: "extra", Clear: "rm /v/x.py"}}}, []string{"pip said"}, nil)
	mustContain(t, "damaged", b.String(), "虚拟环境已损坏", "残留的内容，以及清除每一项的命令：", "  多出 /v/x.py\n    rm /v/x.py", "最后的输出：\n  pip said")
	i18ntest.NoEnglishProse(t, "damaged", strings.ReplaceAll(b.String(), "pip said", ""))
	b.Reset()
	printOutcome(&b, install.Outcome{Result: install.ResultInstalled, Installed: []string{"torch==2.6.0+cu126"}, ConstraintsFile: "/v/constraints.txt",
		LogPath: "/l.log"}, nil, []string{"source /v/bin/activate"})
	mustContain(t, "installed", b.String(), "已安装 torch==2.6.0+cu126。", "pip install -r requirements.txt -c /v/constraints.txt", "进入虚拟环境：\n  source /v/bin/activate")
	i18ntest.NoEnglishProse(t, "installed", b.String())
	if got := progressText(runnerProgress(1<<30, 4<<30, 100<<20, 30)); got != "已下载 1.0 GiB / 4.0 GiB（25%），100.0 MiB/s，还剩 30 秒" {
		t.Errorf("progress %q", got)
	}
	if got := progressText(runnerProgress(5<<20, 0, 0, 0)); got != "已下载 5.0 MiB" {
		t.Errorf("progress without a total %q", got)
	}
}

// doctor on a venv with both paddlepaddle and paddlepaddle-gpu, in Chinese: --json has the same
// keys and finding codes as in English, and --fix's frame around the report is Chinese.
func TestDoctorInChinese(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	venv := filepath.Join(t.TempDir(), "v")
	if out, err := exec.Command("python3", "-m", "venv", "--without-pip", venv).CombinedOutput(); err != nil {
		t.Fatalf("venv: %v\n%s", err, out)
	}
	sp, _ := filepath.Glob(filepath.Join(venv, "lib", "python3*", "site-packages"))
	for _, n := range []string{"paddlepaddle", "paddlepaddle_gpu"} {
		info := filepath.Join(sp[0], n+"-3.0.0.dist-info")
		_ = os.MkdirAll(info, 0o755)
		_ = os.WriteFile(filepath.Join(info, "METADATA"), []byte("Metadata-Version: 2.1\nName: "+n+"\nVersion: 3.0.0\n"), 0o644)
	}
	codes := func(doc string) []string {
		var rep struct {
			Findings []struct{ Code, Severity string } `json:"findings"`
		}
		if err := json.Unmarshal([]byte(doc), &rep); err != nil {
			t.Fatalf("%v\n%s", err, doc)
		}
		var out []string
		for _, f := range rep.Findings {
			out = append(out, f.Code+"/"+f.Severity)
		}
		return out
	}
	enCode, en := runDoctorCLI(t, "--venv", venv, "--json")
	i18ntest.Chinese(t)
	zhCode, zh := runDoctorCLI(t, "--venv", venv, "--json")
	if enCode != ExitProblems || zhCode != enCode {
		t.Fatalf("exit %d (English), %d (Chinese)", enCode, zhCode)
	}
	if !reflect.DeepEqual(jsonShape(t, en), jsonShape(t, zh)) || !reflect.DeepEqual(codes(en), codes(zh)) {
		t.Errorf("doctor --json differs by language beyond its words:\n%s\n%s", en, zh)
	}

	// --fix, answered "n": the report, the repair plan, the question, nothing changed.
	root, _ := NewRoot(Build{Version: "test"})
	var out, errb bytes.Buffer
	root.SetIn(strings.NewReader("n\n"))
	code := run(context.Background(), root, []string{"doctor", "--venv", venv, "--fix"}, &out, &errb)
	if code != ExitProblems {
		t.Fatalf("--fix answered n: exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	text := out.String()
	i := strings.Index(text, "\n修复计划：\n")
	if i < 0 {
		t.Fatalf("no repair plan:\n%s", text)
	}
	frame := text[i:]
	mustContain(t, "--fix", frame, "要执行这个修复计划吗？[y/N] 没有做任何修改。")
	// Each step's title and each note are doctor's words (steps/doctor); a step's command is typed.
	frame = regexp.MustCompile(`(?m)^  (\d+\. |提示：|需要你自己处理：).*$`).ReplaceAllString(frame, "  $1〔…〕")
	i18ntest.NoEnglishProse(t, "doctor --fix frame", frame)

	_, stderr, code := runCLI(t, "doctor", "--yes")
	if code != ExitUsage || !strings.Contains(stderr, "--yes 只能和 --fix 一起使用") {
		t.Errorf("--yes alone: exit %d, %q", code, stderr)
	}
	i18ntest.NoEnglishProse(t, "--yes alone", stderr)
}

// The repair plan's lines in Chinese, each kind of line.
func TestDoctorRepairPlanLinesInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	var b bytes.Buffer
	writeRepairPlan(&b, doctorRepairForTest())
	mustContain(t, "plan", b.String(), "修复计划：", "通过安装引擎安装 torch 2.6.0（cu126），然后验证；wheel 包来源：https://download.pytorch.org/whl/cu126")
	i18ntest.NoEnglishProse(t, "plan", b.String())
}

// bench against the stub torch (an H200 at 51 fp32 TFLOPS), in Chinese: the run's lines and the
// summary are Chinese with every figure kept; --json is the same document in both languages but
// for the verdict's words, and its sampler is the same English.
func TestBenchStubInChinese(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 on this machine")
	}
	stub, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "bench", "stub"))
	t.Setenv("PYTHONPATH", stub)
	t.Setenv("PYTHONDONTWRITEBYTECODE", "1")
	t.Setenv("GPUWIZ_TORCH_STUB", "h200")
	rig := rigArgs(t)
	args := append(rig, "bench", "--python", python, "--framework", "torch", "--quick")
	enJSON, stderr, code := runCLI(t, append(args, "--json")...)
	if code != 0 {
		t.Fatalf("English --json: exit %d: %s", code, stderr)
	}
	i18ntest.Chinese(t)
	zhJSON, stderr, code := runCLI(t, append(args, "--json")...)
	if code != 0 {
		t.Fatalf("Chinese --json: exit %d: %s", code, stderr)
	}
	if !reflect.DeepEqual(jsonShape(t, enJSON), jsonShape(t, zhJSON)) {
		t.Errorf("bench --json keys differ by language:\n%s\n%s", enJSON, zhJSON)
	}
	var en, zh BenchJSON
	_ = json.Unmarshal([]byte(enJSON), &en)
	_ = json.Unmarshal([]byte(zhJSON), &zh)
	if en.Sampler != zh.Sampler || en.Sampler != "none (--simulate has no live readings)" || en.OK != zh.OK || !zh.OK {
		t.Errorf("sampler %q / %q, ok %v / %v", en.Sampler, zh.Sampler, en.OK, zh.OK)
	}
	if !strings.HasPrefix(zh.Verdict, "计算确实跑在 GPU 上") {
		t.Errorf("Chinese verdict %q", zh.Verdict)
	}

	out, stderr, code := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("Chinese text: exit %d: %s\n%s", code, stderr, out)
	}
	mustContain(t, "bench", out, "已启动（pid ", "正在导入 torch…", "（CUDA 13.0）运行在显卡 0 上：NVIDIA H200，算力 9.0，显存共 143771 MiB，空闲 ", "TF32 关",
		"（上限 ", "）正确", "CPU 与 GPU 对比（fp32 矩阵乘法）：GPU 快 ", "复制      4000 GB/s（显存到显存，读加写）",
		"实时读数：无（--simulate 没有实时读数）", "结论：计算确实跑在 GPU 上")
	// The steps' names ("matmul cuda fp32 4096") are the script's identifiers.
	own := regexp.MustCompile(`(?m)^  (matmul|copy|check) [^\n]*?(\s{2,}|$)`).ReplaceAllString(out, "  〔…〕 ")
	i18ntest.NoEnglishProse(t, "bench", own)

	// Wrong answers: exit 4, the check says so.
	t.Setenv("GPUWIZ_TORCH_STUB", "wrong")
	out, _, code = runCLI(t, args...)
	if code != ExitVerifyFailed || !strings.Contains(out, "）错误") || !strings.Contains(out, "GPU 算出的结果不对") {
		t.Errorf("wrong answers: exit %d\n%s", code, out)
	}
}

// bench's refusals before a run, and the device line, in Chinese.
func TestBenchLinesInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	rig := "../../testdata/fakenvml/expected.json"
	_, stderr, code := runCLI(t, "--simulate", rig, "bench", "--python", pyindex.Python(t), "--gpu", "2")
	if code != ExitUsage {
		t.Fatalf("--gpu 2: exit %d: %s", code, stderr)
	}
	mustContain(t, "--gpu 2", stderr, "gpuwiz：--gpu 2：本机有 2 块显卡：0 (NVIDIA GeForce RTX 4090)、1 (NVIDIA GeForce GTX 1080)；请从中选择")
	i18ntest.NoEnglishProse(t, "--gpu 2", stderr)
	_, stderr, _ = runCLI(t, "bench")
	mustContain(t, "no venv", stderr, "请在 --venv PATH 和 --python PATH 中给出且只给出一个")
	i18ntest.NoEnglishProse(t, "no venv", stderr)

	var b strings.Builder
	printBenchEvent(&b, bench.Device{Framework: "paddle", Version: "2.6.2", CUDA: "12.0", Name: "NVIDIA H200", Capability: "9.0",
		TotalMiB: 143771, FreeMiB: 129393, FreeGuess: true, TF32: true})
	if want := "paddle 2.6.2（CUDA 12.0）运行在显卡 0 上：NVIDIA H200，算力 9.0，显存共 143771 MiB，空闲显存未知（按 129393 MiB 安排），TF32 开\n"; b.String() != want {
		t.Errorf("device line\n got %q\nwant %q", b.String(), want)
	}
	b.Reset()
	printBenchEvent(&b, bench.OOM{N: 8192, RetryN: 4096})
	printBenchEvent(&b, bench.Skip{Op: "matmul", DType: "bf16", N: 4096, Reason: "not supported"})
	mustContain(t, "oom and skip", b.String(), "规模 8192 时显存不足，改用 4096 重试…… ", "  跳过 matmul bf16 4096：not supported")

	// a CPU build: said from the facts the script sends, no code, no Python words
	b.Reset()
	printBenchEvent(&b, bench.Failure{Kind: bench.KindNoCUDABuild, Message: "torch 2.5.1+cpu is a CPU-only build (torch.version.cuda is None)", Framework: "torch", FrameworkVersion: "2.5.1+cpu"})
	mustContain(t, "no-cuda-build", b.String(), "错误：torch 2.5.1+cpu 是 CPU 版，用不了显卡；请安装 GPU 版（gpuwiz install）")
	i18ntest.NoEnglishOnScreen(t, "no-cuda-build", b.String())
}

func runnerProgress(done, total int64, rate, eta float64) runner.Progress {
	return runner.Progress{Done: done, Total: total, BytesPerSec: rate, ETASeconds: eta}
}

// doctorRepairForTest has one of each line: a removal by the engine, the reinstall, a command of
// doctor's own, a note and a finding left to the user. Its words are placeholders ("〔title〕"),
// as doctor's own words are another package's.
func doctorRepairForTest() doctor.Repair {
	return doctor.Repair{
		Actions: []doctor.Action{
			{Title: "〔移除〕", RemovePath: "/v/lib/paddle", Engine: true},
			{Title: "〔清理〕", Argv: []string{"/v/bin/python", "-m", "pip", "cache", "purge"}},
		},
		Reinstall: &matrix.Candidate{Framework: "torch", FrameworkVersion: "2.6.0", Channel: "cu126", IndexURL: "https://download.pytorch.org/whl/cu126"},
		Notes:     []string{"〔说明〕"},
		Unfixable: []doctor.Finding{{Code: "driver_old", Title: "〔驱动太旧〕"}},
	}
}

// The English lines are what they were before the catalog, byte for byte (prompts end with a space).
func TestRunLinesInEnglishAreUnchanged(t *testing.T) {
	if got := i18n.T("cli.install.confirm"); got != "Run this plan? [y/N] " {
		t.Errorf("install prompt %q", got)
	}
	if got := i18n.T("cli.doctor.confirm"); got != "Apply this plan? [y/N] " {
		t.Errorf("doctor prompt %q", got)
	}
	if got := i18n.In(i18n.Chinese, "cli.install.confirm"); !strings.HasSuffix(got, "[y/N] ") {
		t.Errorf("Chinese install prompt %q", got)
	}
	var b bytes.Buffer
	printPlan(&b, install.Plan{Venv: "/v", Conda: true, Steps: []install.Step{{Title: "Stage", Offline: []string{"pip", "download", "--no-index"}, Argv: []string{"pip", "download"}}},
		Uninstall: []string{"torch"}, Install: []string{"torch==2.6.0"}, Pins: []string{"torch==2.6.0+cu126"}, Notes: []string{"N"}, Warnings: []string{"W"}},
		matrix.Candidate{Framework: "torch", FrameworkVersion: "2.6.0", Channel: "cu126"})
	want := "Plan: torch 2.6.0 (cu126) into /v (a conda env)\n   1. Stage\n      first, from the cache: pip download --no-index\n      pip download\n" +
		"uninstall: torch\ninstall: torch==2.6.0+cu126\nwheels from: " + install.Source{}.Describe() + "\nnote: N\nwarning: W\n"
	if b.String() != want {
		t.Errorf("plan\n got %q\nwant %q", b.String(), want)
	}
	b.Reset()
	printOutcome(&b, install.Outcome{Result: install.ResultDamaged, FailedStep: "install", Error: "E", LogPath: "/l",
		Leftovers: []install.Leftover{{Path: "/p", What: "missing", Clear: "C"}}}, []string{"T"}, nil)
	want = "\nFailed while trying to install the new build, and the venv is damaged: it still differs from before the run: E\nWhat is left, and the command that clears each:\n  missing /p\n    C\nlast output:\n  T\nlog: /l\n"
	if b.String() != want {
		t.Errorf("outcome\n got %q\nwant %q", b.String(), want)
	}
	b.Reset()
	writeRepairPlan(&b, doctorRepairForTest())
	want = "\nRepair plan:\n  1. 〔移除〕\n  2. Install torch 2.6.0 (cu126) through the install engine, then verify; wheels from https://download.pytorch.org/whl/cu126\n" +
		"  3. 〔清理〕: /v/bin/python -m pip cache purge\n  note: 〔说明〕\n  left to you: 〔驱动太旧〕 (driver_old)\n"
	if b.String() != want {
		t.Errorf("repair plan\n got %q\nwant %q", b.String(), want)
	}
	b.Reset()
	printBenchEvent(&b, bench.Check{RelErr: 0.5, Threshold: 0.01})
	printBenchEvent(&b, bench.OOM{N: 8192, RetryN: 4096})
	printBenchSummary(&b, bench.Summary{SpeedupFP32: 32, CopyGBps: 4000, Verdict: "V", Log: []string{"a", "b"}},
		[]bench.GPUReading{{Index: 0, PeakUtilPct: 99, PeakPowerW: 650, PeakMemoryMiB: 1000, BenchPIDSeen: true}}, "x")
	want = "rel err 0.5 (limit 0.01) WRONG\nout of memory at 8192, retrying at 4096… \nCPU vs GPU (fp32 matmul): 32× faster on the GPU\n" +
		"copy      4000 GB/s (device to device, read plus write)\nGPU 0: peak 99% busy, 650 W, 1000 MiB used; running the benchmark's Python\n" +
		"last output from Python:\n  a\n  b\nverdict: V (0.0 s)\n"
	if b.String() != want {
		t.Errorf("bench\n got %q\nwant %q", b.String(), want)
	}
}

// Every Chinese message of install, doctor, bench and the sources list, rendered with its values
// filled, is Chinese (the runs above reach most of them; this reaches the rest).
func TestRunMessagesHaveNoEnglishInChinese(t *testing.T) {
	msgs, err := i18n.Catalog(i18n.Chinese)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range msgs {
		if !strings.HasPrefix(m.ID, "cli.install.") && !strings.HasPrefix(m.ID, "cli.doctor.") && !strings.HasPrefix(m.ID, "cli.bench.") && !strings.HasPrefix(m.ID, "cli.sources.") {
			continue
		}
		n++
		d := i18n.D{}
		for _, p := range regexp.MustCompile(`\{\{\s*\.(\w+)\s*\}\}`).FindAllStringSubmatch(m.Forms["other"], -1) {
			d[p[1]] = "9"
		}
		i18ntest.NoEnglishProse(t, m.ID, i18n.NIn(i18n.Chinese, m.ID, 2, d))
	}
	if n < 100 {
		t.Errorf("only %d messages", n)
	}
}
