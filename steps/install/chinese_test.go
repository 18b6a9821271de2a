package install

import (
	"context"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"gpuwiz/matrix"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/i18n/i18ntest"
	"gpuwiz/steps/keep"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
)

// The engine's words in Chinese: a real plan, a real install that cannot reach its index, and one
// that fails half-way and puts the old packages back. These tests switch the process's language:
// none of them runs in parallel, and each puts English back.

// planText is what a user reads of a plan: every step, the source, the notes and the warnings.
func planText(p Plan) string {
	var b strings.Builder
	for i, s := range p.Steps {
		b.WriteString(strconv.Itoa(i+1) + ". " + s.Title + "\n")
	}
	b.WriteString(p.Source.Describe() + "\n")
	for _, n := range append(append([]string{}, p.Notes...), p.Warnings...) {
		b.WriteString(n + "\n")
	}
	return b.String()
}

func TestChinesePlan(t *testing.T) {
	ix := serve(t)
	i18ntest.Chinese(t)
	v := pyenv.Venv{Root: filepath.Join(t.TempDir(), "venv")}
	o := options(t, v, torchTarget(ix, "cu126"), t.TempDir())
	o.Environ = append(o.Environ, "PYTHONPATH=/opt/other")
	plan, err := Prepare(context.Background(), runner.New(nil), o)
	if err != nil {
		t.Fatal(err)
	}
	text := planText(plan)
	t.Log("\n" + text)
	for _, want := range []string{
		"创建虚拟环境 " + v.Root,
		"从 " + ix.ChannelURL("cu126") + " 下载 torch==2.6.0+cu126 torchvision==0.21.0+cu126 及其依赖",
		"下载可选的 torchaudio==2.6.0+cu126",
		"验证安装的 torch（cu126）",
		"本机上的 CUDA 通道安装源", // the test index is on this computer: never called official
		// the venv keeps its build by its own pip configuration, not by -c by hand
		"版本通过检查后，" + keep.ConfigFile(v.Root, runtime.GOOS) + " 会指向 " + plan.ConstraintsFile,
		"所有 wheel 包都下载到 " + plan.StageDir + " 之前，不会卸载任何东西",
		"PYTHONPATH=/opt/other",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the plan lacks %q", want)
		}
	}
	i18ntest.NoEnglishProse(t, "the torch plan", text)

	// Paddle from a find-links page with a mirror, into a venv that holds torch and leftovers: the
	// other steps' titles, notes and warnings.
	paddle := Target{Framework: "paddle", FrameworkVersion: "3.0.0", Channel: "cu126", IndexURL: ix.ChannelURL("paddle-cu126"),
		Mirror: ix.ChannelURL("mirror"), Packages: []matrix.Package{{Name: "paddlepaddle-gpu", Version: "3.0.0"}}}
	have := pyenv.Installed{Python: pyenv.Interpreter{Path: v.Python()}, PipVersion: "23.0",
		Dists:       []pyenv.Dist{{Name: "paddlepaddle", Version: "2.6.0"}, {Name: "torch", Version: "2.6.0"}},
		TorchFamily: []pyenv.Dist{{Name: "torch", Version: "2.6.0"}}, Leftovers: []string{filepath.Join(v.Root, "~addle")}}
	po := Options{Venv: v, Target: paddle, CacheDir: t.TempDir(), Environ: []string{"PIP_EXTRA_INDEX_URL=https://example.org/simple"},
		FindLinks: "https://example.org/paddle/links.html"}
	pp, err := MakePlan(po, have)
	if err != nil {
		t.Fatal(err)
	}
	text = planText(pp)
	t.Log("\n" + text)
	for _, want := range []string{
		"只从 https://example.org/paddle/links.html 下载 paddlepaddle-gpu==3.0.0 本身",
		"从镜像源 " + paddle.Mirror + " 下载依赖包",
		"卸载 paddlepaddle",
		"不属于任何包的 paddle/ 目录",
		"paddlepaddle-gpu 本身的文件只从 " + paddle.IndexURL,
		"本次安装指定的安装源",
		"PIP_EXTRA_INDEX_URL=https://example.org/simple",
		"每个框架各用一个虚拟环境更稳妥",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the paddle plan lacks %q", want)
		}
	}
	i18ntest.NoEnglishProse(t, "the paddle plan", text)

	// The plan's machine-readable parts do not change with the language.
	if pp.Steps[0].ID != StepSnapshot || pp.Source.Kind != "index" || !strings.Contains(strings.Join(pp.Steps[len(pp.Steps)-1].Argv, " "), "pip freeze") {
		t.Errorf("ids, kinds or argv changed: %+v", pp.Steps)
	}
}

// eventText is what the engine said (not pip's own lines), one message a line, leaving out the
// messages that quote pip's or the network's own words: a failed step's error and the reason the
// downloader left a stage to pip.
func eventText(evs []Event) string {
	var b strings.Builder
	for _, e := range evs {
		switch {
		case e.Message == "":
		case e.State == StateFailed:
		case strings.HasSuffix(e.Message, "：改用 pip 下载"):
		default:
			b.WriteString(e.Message + "\n")
		}
	}
	return b.String()
}

// A new venv whose index cannot be reached, in Chinese: the run removes the venv it made and says
// why in Chinese, with what to do; the outcome's values stay as they are.
func TestChineseUnreachableIndex(t *testing.T) {
	ix := serve(t)
	target := torchTarget(ix, "cu126")
	ix.Close()
	i18ntest.Chinese(t)
	v := pyenv.Venv{Root: filepath.Join(t.TempDir(), "新环境")}
	o := options(t, v, target, t.TempDir())
	o.Environ = append(o.Environ, "PIP_RETRIES=0")
	_, out, events := install(t, context.Background(), o, nil)
	if out.Result != ResultUnchanged || out.FailedStep != StepStage || !out.VenvRemoved {
		t.Fatalf("want an unchanged failure at the stage that removed the new venv, got %+v", out)
	}
	i := strings.Index(out.Error, "；pip 连不上安装源：")
	if i < 0 {
		t.Fatalf("the error does not say in Chinese that the index could not be reached: %s", out.Error)
	}
	ours := out.Error[i:] // before it: pip's command, its exit and its own ERROR line
	t.Log(ours)
	for _, want := range []string{"请检查网络和代理（HTTPS_PROXY）", "--index-url", "没有设置代理"} {
		if !strings.Contains(ours, want) {
			t.Errorf("the error lacks %q: %s", want, ours)
		}
	}
	i18ntest.NoEnglishProse(t, "the install's error", ours)
	if runtime.GOOS != "windows" && strings.Contains(ours, "Windows") { // the system proxy is Windows's own
		t.Errorf("a Windows-only setting named on %s: %s", runtime.GOOS, ours)
	}
	said := eventText(events)
	t.Log("\n" + said)
	if !strings.Contains(said, "已删除本次运行创建的虚拟环境：") || !strings.Contains(said, "创建虚拟环境 "+v.Root) {
		t.Errorf("the events do not say in Chinese what happened:\n%s", said)
	}
	i18ntest.NoEnglishProse(t, "the install's events", said)
}

// pip fails half-way through the install in an existing venv: the engine puts the previous
// packages back and says so in Chinese.
func TestChineseMidInstallFailureRestores(t *testing.T) {
	ix := serve(t)
	v := userVenv(t)
	i18ntest.Chinese(t)
	target := torchTarget(ix, "cu126")
	target.IndexURL = ix.ChannelURL("cu126-norecord")
	target.Packages[2].Optional = false
	_, out, events := install(t, context.Background(), options(t, v, target, t.TempDir()), nil)
	if out.FailedStep != StepInstall || out.Result != ResultRestored || !out.Restored {
		t.Fatalf("want restored after a failed install step, got %s: %v", out.Result, out.Err)
	}
	said := eventText(events)
	t.Log("\n" + said)
	for _, want := range []string{"正在还原原来的包", "原来的包已还原（site-packages 与快照逐个文件一致）", "卸载 torch、torchvision",
		"备份所有将被改动的包的文件"} {
		if !strings.Contains(said, want) {
			t.Errorf("the events lack %q", want)
		}
	}
	i18ntest.NoEnglishProse(t, "the install's events", said)
}

// How a failed repair ended and what it left, as doctor --fix shows it.
func TestChineseRepairOutcome(t *testing.T) {
	i18ntest.Chinese(t)
	if got := resultText(Outcome{Result: ResultRestored, Restored: true}); got != "安装失败，已还原（虚拟环境保持原样）" {
		t.Errorf("restored: %q", got)
	}
	left := []Leftover{{Path: "/v/lib/site-packages/~orch", What: "extra", Clear: removeCommand("linux", "/v/lib/site-packages/~orch")},
		{Path: "/v/lib/site-packages/torch-2.6.0.dist-info/RECORD", What: "changed", Clear: reinstallCommand("/v/bin/python", "/v/lib/site-packages/torch-2.6.0.dist-info")}}
	var parts []string
	for _, l := range left {
		parts = append(parts, leftoverText(l))
	}
	text := i18n.T("install.repair.damaged_left", i18n.D{"Leftovers": i18n.JoinClauses(parts), "Err": "exit status 1"})
	t.Log(text)
	for _, want := range []string{"多出 /v/lib/site-packages/~orch（清除命令：rm -rf -- ", "已改动 ", "--force-reinstall --no-deps torch==2.6.0）"} {
		if !strings.Contains(text, want) {
			t.Errorf("lacks %q: %s", want, text)
		}
	}
	i18ntest.NoEnglishProse(t, "a damaged repair", strings.TrimSuffix(text, "：exit status 1")) // the Go error is not gpuwiz's words
	if got := i18n.In(i18n.English, "install.repair.unchanged"); got != "install unchanged (the venv holds what it held before)" {
		t.Errorf("English changed: %q", got)
	}
}
