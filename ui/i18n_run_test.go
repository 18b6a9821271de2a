package ui

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"gpuwiz/matrix"
	"gpuwiz/steps/app"
	"gpuwiz/steps/bench"
	"gpuwiz/steps/doctor"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/i18n/i18ntest"
)

// The second half of the wizard in Chinese: each screen is drawn with the real code in i18n.Chinese
// and must keep its facts (paths, versions, channels, commands, numbers) and have no English
// sentence left. The data the screens show from elsewhere (step titles, notes, check titles) is
// given in Chinese here: other parts translate it. None of these tests may run in parallel: the
// language is the process's.

func chineseCheck(t *testing.T, what, view string, facts ...string) {
	t.Helper()
	view = ansi.Strip(view)
	for _, f := range facts {
		if !strings.Contains(view, f) {
			t.Errorf("%s lacks %q:\n%s", what, f, view)
		}
	}
	i18ntest.NoEnglishOnScreen(t, what, view)
}

// valueColumns is the display column where each labelled line's value starts.
func valueColumn(t *testing.T, view, value string) int {
	t.Helper()
	for _, l := range strings.Split(ansi.Strip(view), "\n") {
		if i := strings.Index(l, value); i >= 0 {
			return i18n.Width(l[:i])
		}
	}
	t.Fatalf("no line with %q:\n%s", value, view)
	return -1
}

func TestPlanScreenInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	c := testCommon(newFakeBackend(), false)
	cd := cand("torch", "2.7.1", "cu126", "12.6", true)
	s := newPlanScreen(c, app.PlanRequest{Venv: "/work/new", Candidate: cd, Source: "清华镜像源"}, nil)
	s.SetSize(80, 22)
	chineseCheck(t, "plan screen while working", s.View(), "正在生成计划")
	s.Update(planMsg{value: app.Plan{Venv: "/work/new", Candidate: cd, DownloadBytes: 2_530_000_000,
		Steps:     []app.PlanStep{{ID: "venv", Title: "创建虚拟环境"}},
		Uninstall: []string{"torch==2.6.0+cu118"}, Install: []string{"torch==2.7.1+cu126"},
		Commands: lines("python -m pip install --index-url https://download.pytorch.org/whl/cu126 torch==2.7.1"),
		Warnings: []string{"磁盘空间不多"}, Notes: []string{"已清除 PIP_INDEX_URL"}}})
	view := s.View()
	chineseCheck(t, "plan screen", view, "虚拟环境", "/work/new", "PyTorch 2.7.1", "cu126", "https://download.pytorch.org/whl/cu126",
		"清华镜像源", "约 2.4 GiB", "将卸载", "torch==2.6.0+cu118", "将安装", "将依次执行的命令", "python -m pip install", "警告", "说明",
		"执行这个计划吗？", "目前还没有做任何改动。")
	if v, b := valueColumn(t, view, "/work/new"), valueColumn(t, view, "PyTorch 2.7.1"); v != b {
		t.Errorf("the venv's value starts at column %d, the build's at %d:\n%s", v, b, view)
	}
	if got := s.Title(); got != "计划" {
		t.Errorf("title %q", got)
	}
	s.Update(planMsg{err: errors.New("磁盘已满")})
	chineseCheck(t, "plan screen's error", s.View(), "无法生成安装计划：磁盘已满", "esc")
	d := newPlanScreen(c, app.PlanRequest{Venv: "/work/old"}, &app.Diagnosis{})
	d.SetSize(80, 22)
	d.Update(planMsg{value: app.Plan{Venv: "/work/old"}})
	chineseCheck(t, "empty repair plan", d.View(), "诊断没有发现需要修复的问题。", "无需任何操作")
	for _, k := range append(s.ShortHelp(), d.ShortHelp()...) {
		if k.Help().Desc == "run it" {
			t.Error("the plan's y key is still labelled in English")
		}
	}
}

func TestInstallScreenInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	c := testCommon(newFakeBackend(), false)
	plan := app.Plan{Steps: []app.PlanStep{{ID: "venv", Title: "创建虚拟环境"}, {ID: "install", Title: "安装 torch 2.7.1+cu126"}}}
	s := newInstallScreen(c, plan, &sync.WaitGroup{})
	s.SetSize(80, 20)
	s.started = time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	s.now = s.started.Add(83 * time.Second)
	s.apply([]app.InstallEvent{{StepID: "install", State: app.StepRunning}})
	chineseCheck(t, "install screen, starting", s.View(), "进行中", "1m23s")
	s.apply([]app.InstallEvent{{StepID: "install", Progress: &app.Progress{Done: 1 << 30}}})
	chineseCheck(t, "install screen, unknown size", s.View(), "已下载 1.0 GiB（总大小未知）")
	s.apply([]app.InstallEvent{{StepID: "install", Progress: &app.Progress{Done: 1 << 30, Total: 2 << 30, BytesPerSec: 12 << 20, ETASeconds: 42}}})
	for i := 0; i < 40; i++ {
		s.apply([]app.InstallEvent{{StepID: "install", Line: "Collecting package"}})
	}
	chineseCheck(t, "install screen, download bar", s.View(), "1.0 GiB / 2.0 GiB", "12.0 MiB/s", "剩余 42 秒", "行在日志文件里")
	s.scroll = 1
	chineseCheck(t, "install screen, scrolled", s.View(), "已向上滚动 1 行")
	s.scroll = 0
	s.confirming = true
	chineseCheck(t, "install screen, asking to cancel", s.View(), "要取消安装吗？")
	s.confirming, s.cancelled = false, true
	chineseCheck(t, "install screen, cancelling", s.View(), "正在取消")
	ends := []struct {
		o    app.Outcome
		want string
	}{
		{app.Outcome{OK: true, Result: "installed", LogPath: "/tmp/gpuwiz.log"}, "安装完成。按 enter 开始验证。"},
		{app.Outcome{Result: "cancelled", Restored: true}, "已取消。环境已还原"},
		{app.Outcome{Result: "cancelled"}, "gpuwiz doctor"},
		{app.Outcome{Result: "cancelled", Unchanged: true}, "环境还没有被改动过"},
		{app.Outcome{Result: "cancelled", Unchanged: true, VenvRemoved: true}, "本次新建的虚拟环境已删除"},
		{app.Outcome{Result: "unchanged", Err: errors.New("网络中断"), Restored: true, VenvRemoved: true}, "安装失败：网络中断。新建的虚拟环境已删除，什么都没有留下"},
		{app.Outcome{Result: "unchanged", Restored: true}, "安装失败。没有卸载任何东西"},
		{app.Outcome{Result: "restored", Err: errors.New("网络中断"), Restored: true}, "安装失败：网络中断。环境已还原。"},
		{app.Outcome{Result: "damaged"}, "安装失败。按 enter 继续。"},
	}
	for _, e := range ends {
		s.cancelled = e.o.Result == "cancelled"
		o := e.o
		s.outcome = &o
		chineseCheck(t, "install screen, ended "+string(e.o.Result), s.View(), e.want)
	}
	s.outcome = &app.Outcome{OK: true, LogPath: "/tmp/gpuwiz.log"}
	chineseCheck(t, "install screen's log", s.View(), "完整日志：/tmp/gpuwiz.log")
	if s.Title() != "安装" {
		t.Errorf("title %q", s.Title())
	}
}

// English counts read right now: one line, not "1 lines".
func TestInstallScreenCountsLines(t *testing.T) {
	s := newInstallScreen(testCommon(newFakeBackend(), false), app.Plan{}, &sync.WaitGroup{})
	s.SetSize(80, 20)
	s.log.Add("a")
	s.log.Add("b")
	s.scroll = 1
	mustContain(t, s.View(), "(scrolled up 1 line; down to follow)")
	s.scroll = 2
	mustContain(t, s.View(), "(scrolled up 2 lines; down to follow)")
	s.outcome = &app.Outcome{Result: "damaged"}
	mustContain(t, s.View(), "Install failed. Press enter.")
}

func TestDoneScreenInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	c := testCommon(newFakeBackend(), false)
	cd := cand("torch", "2.7.1", "cu126", "12.6", true)
	ok := &app.Outcome{OK: true, Result: "installed", LogPath: "/tmp/gpuwiz.log", LockFile: "/work/new/requirements.lock", ConstraintsFile: "/work/new/constraints.txt"}
	s := newDoneScreen(c, choices{venv: "/work/new", candidate: &cd, outcome: ok})
	s.SetSize(80, 30)
	s.Update(activationMsg{value: []app.Activation{{Shell: app.ShellPowerShell, Command: `& "C:\work\new\Scripts\Activate.ps1"`}, {Shell: app.ShellCmd, Command: `C:\work\new\Scripts\activate.bat`}}})
	view := s.View()
	chineseCheck(t, "done screen", view, "PyTorch 2.7.1（cu126）已安装并通过验证", "虚拟环境 /work/new", "激活方法", "Activate.ps1",
		"Set-ExecutionPolicy", "锁定文件", "requirements.lock", "约束文件", "日志", "/tmp/gpuwiz.log", "按 q 或 enter 退出。")
	a, b, l := valueColumn(t, view, "/work/new/requirements.lock"), valueColumn(t, view, "/work/new/constraints.txt"), valueColumn(t, view, "/tmp/gpuwiz.log")
	if a != b || b != l {
		t.Errorf("the paths start at columns %d, %d, %d:\n%s", a, b, l, view)
	}
	bad := &app.Outcome{Result: "damaged", Err: errors.New("pip 退出码 1"), Leftovers: []app.Leftover{{What: "多出的文件", Path: "/work/new/x", Clear: "rm -rf /work/new/x"}}}
	s = newDoneScreen(c, choices{venv: "/work/new", outcome: bad})
	s.SetSize(80, 30)
	chineseCheck(t, "done screen after a damaging failure", s.View(), "安装失败，虚拟环境已损坏", "pip 退出码 1", "gpuwiz doctor --venv /work/new", "rm -rf /work/new/x")
	for _, r := range []app.Result{"cancelled", "unchanged", "restored", "failed", "repair failed", ""} {
		s = newDoneScreen(c, choices{venv: "/work/new", outcome: &app.Outcome{Result: r, Restored: r != "failed"}})
		s.SetSize(80, 30)
		chineseCheck(t, "done screen after "+string(r), s.View())
	}
	s = newDoneScreen(c, choices{})
	s.SetSize(80, 30)
	chineseCheck(t, "done screen with nothing done", s.View(), "没有做任何改动。")
	s = newDoneScreen(c, choices{venv: "/work/new", outcome: ok, verify: &app.Checklist{}})
	s.SetSize(80, 30)
	chineseCheck(t, "done screen, verification failed", s.View(), "验证没有通过", "gpuwiz doctor --venv /work/new", "这个虚拟环境不会保住这个版本")
}

func TestCheckScreenInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	c := testCommon(newFakeBackend(), false)
	s := newCheckScreen(c, rtx3060())
	s.SetSize(80, 30)
	chineseCheck(t, "check screen, looking for Python", s.View(), "正在查找 Python 解释器")
	s.Update(pythonsMsg{list: []app.Interpreter{{Path: `C:\Python312\python.exe`, Version: "3.12.4", Bits: 64}}})
	chineseCheck(t, "check screen, reading", s.View(), "3.12.4 64 位", `C:\Python312\python.exe`, "正在读取版本矩阵")
	r := cand("torch", "2.7.1", "cu126", "12.6", true)
	s.Update(channelsMsg{about: "torch", value: matrix.Selection{Recommended: &r, Candidates: []matrix.Candidate{r}}})
	s.Update(channelsMsg{about: "paddle", value: matrix.Selection{}})
	chineseCheck(t, "check screen", s.View(), "推荐：PyTorch 2.7.1（cu126）", "cu126   2.7.1", "没有适合本机的版本", "没有做任何改动。按 q 退出。")
	s = newCheckScreen(c, rtx3060())
	s.SetSize(80, 30)
	s.Update(pythonsMsg{})
	chineseCheck(t, "check screen without Python", s.View(), "没有找到 Python", "python.org", "Python 3.12")
	if s.Title() != "适合本机的版本" {
		t.Errorf("title %q", s.Title())
	}
}

func TestVerifyScreenInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	c := testCommon(newFakeBackend(), false)
	cd := cand("torch", "2.7.1", "cu126", "12.6", true)
	s := newVerifyScreen(c, "/work/new", cd, nil)
	s.SetSize(80, 20)
	chineseCheck(t, "verify screen, running", s.View(), "正在虚拟环境里导入框架")
	s.Update(verifyMsg{value: app.Checklist{OK: true, Checks: []app.Check{{Title: "导入 torch", OK: true, Evidence: "2.7.1+cu126"}}}})
	chineseCheck(t, "verify screen, passed", s.View(), "导入 torch", "2.7.1+cu126", "全部检查通过。")
	s.Update(verifyMsg{value: app.Checklist{Checks: []app.Check{{Title: "在显卡上计算", Evidence: "CUDA error", Cause: "驱动太旧", Fix: "更新显卡驱动"}}}})
	chineseCheck(t, "verify screen, failed", s.View(), "现象：CUDA error", "原因：驱动太旧", "解决办法：更新显卡驱动", "有检查没有通过", "r：重新检查")
	s.Update(verifyMsg{err: errors.New("找不到 python.exe")})
	chineseCheck(t, "verify screen, error", s.View(), "无法进行验证：找不到 python.exe", "按 r 重试")
	if s.Title() != "验证" {
		t.Errorf("title %q", s.Title())
	}
}

func TestDoctorScreenInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	c := testCommon(newFakeBackend(), false)
	s := newDoctorScreen(c, "/work/old")
	s.SetSize(80, 20)
	chineseCheck(t, "doctor screen, running", s.View(), "正在检查 /work/old", "pip 配置")
	s.Update(doctorMsg{value: &app.Diagnosis{Report: app.DoctorReport{Findings: []app.Finding{
		{Code: "cpu-build", Severity: "warning", Title: "装的是 CPU 版", Evidence: []string{"torch 2.7.1+cpu"}, Fix: "重新安装 GPU 版"},
		{Code: "mixed-paddle", Severity: "error", Title: "同时装了两个飞桨", Evidence: []string{"paddlepaddle 3.0.0", "paddlepaddle-gpu 3.0.0"}}}}}})
	view := s.View()
	chineseCheck(t, "doctor screen", view, "错误", "警告", "现象：paddlepaddle 3.0.0", "解决办法：重新安装 GPU 版", "enter：查看修复计划")
	if strings.Index(view, "mixed-paddle") > strings.Index(view, "cpu-build") {
		t.Errorf("the error is not first:\n%s", view)
	}
	s.Update(doctorMsg{value: &app.Diagnosis{}})
	chineseCheck(t, "doctor screen, clean", s.View(), "诊断没有在 /work/old 中发现问题。")
	s.Update(doctorMsg{err: errors.New("找不到 python.exe")})
	chineseCheck(t, "doctor screen, error", s.View(), "诊断无法运行：找不到 python.exe")
	if s.Title() != "诊断" {
		t.Errorf("title %q", s.Title())
	}
	if v := app.ChecklistOfDoctor(doctor.Report{}); len(v.Checks) != 1 || checkTitle(v.Checks[0]) != "诊断没有发现问题" {
		t.Errorf("the check after a clean repair: %+v", v)
	}
}

func TestSummaryInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	fb := newFakeBackend()
	m := newTestRoot(fb)
	m.ch.venv = "/work/new"
	m.ch.outcome = &app.Outcome{OK: true, Result: "installed", LockFile: "/work/new/requirements.lock", LogPath: "/tmp/gpuwiz.log"}
	sum := m.Summary()
	chineseCheck(t, "summary", sum, "gpuwiz：已安装（/work/new）", "Activate.ps1", "锁定文件：", "日志：")
	ps, lock, log := valueColumn(t, sum, `& "`), valueColumn(t, sum, "/work/new/requirements.lock"), valueColumn(t, sum, "/tmp/gpuwiz.log")
	if ps != lock || lock != log {
		t.Errorf("values start at %d, %d, %d:\n%s", ps, lock, log, sum)
	}
	m.ch.outcome = &app.Outcome{Result: "restored", LogPath: "/tmp/gpuwiz.log"}
	chineseCheck(t, "summary after a failure", m.Summary(), "安装失败，已还原", "/tmp/gpuwiz.log")
}

func TestRunWithoutTerminalInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	var out, errOut bytes.Buffer
	code := Run(context.Background(), app.Globals{}, strings.NewReader(""), &out, &errOut)
	if code != app.ExitUsage {
		t.Fatalf("exit %d", code)
	}
	chineseCheck(t, "the wizard's refusal", errOut.String(), "gpuwiz install --yes", "终端")
}

// The benchmark screen in Chinese: the recorded H200 run with its sampler readings, mid-run and
// over; it fits the window (Chinese takes two columns a character) and has no English sentence.
func TestBenchScreenInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	c := testCommon(nil, false)
	events := recordedEvents(t, "h200_torch.jsonl")
	samples := recordedSamples(t)
	m := NewBenchModel(c, BenchOptions{Framework: "torch"}, BenchFeed{})
	m.SetSize(78, 20)
	chineseCheck(t, "benchmark before the GPU answered", m.View(), "正在启动 Python 并加载 torch", "正在等待显卡", "显卡上的进程", "没有报告任何进程")
	for _, e := range events[:12] {
		m.Update(BenchEventMsg{Event: e})
	}
	for _, s := range samples[:24] {
		m.Update(GPUSamplesMsg{Samples: s})
	}
	mid := m.View()
	chineseCheck(t, "benchmark mid-run", mid, "算力 9.0", "显存空闲", "测试进程 pid", "GPU 占用", "显存", "温度", "功耗", "SM 频率", "显卡上的进程")
	assertFits(t, mid, 78, 20)
	for _, e := range events[12:] {
		m.Update(BenchEventMsg{Event: e})
	}
	for _, s := range samples[24:] {
		m.Update(GPUSamplesMsg{Samples: s})
	}
	m.Update(BenchClosedMsg{})
	over := m.View()
	chineseCheck(t, "benchmark over", over, "已完成", "GPU 比 CPU 快", "计算确实跑在 GPU 上", "48213 测试进程", "与 fp64 对照")
	assertFits(t, over, 78, 20)
	if title := m.Title(); !strings.HasPrefix(title, "性能测试 · 显卡 0 NVIDIA H200") {
		t.Errorf("title %q", title)
	}
	small := NewBenchModel(c, BenchOptions{}, BenchFeed{})
	small.SetSize(50, 14)
	small.Update(BenchEventMsg{Event: bench.Step{Name: "matmul cuda fp32 2048"}})
	small.Update(BenchClosedMsg{})
	cut := small.View()
	chineseCheck(t, "benchmark cut off", cut, "已停止", "还没有实时读数")
	if flat := strings.Join(strings.Fields(cut), ""); !strings.Contains(flat, "性能测试没有跑完就停止了（停在matmulcudafp322048）") {
		t.Errorf("the verdict of a run cut off:\n%s", cut)
	}
	assertFits(t, small.View(), 50, 14)
	if v := stoppedVerdict(bench.Summary{Log: []string{"Segmentation fault"}}); v != "性能测试没有跑完就停止了；最后的输出：Segmentation fault" {
		t.Errorf("stopped verdict %q", v)
	}
}

// The benchmark screen that could not start, in Chinese, and its r.
func TestBenchScreenErrorInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	c := testCommon(nil, false)
	fail := func(context.Context) (BenchFeed, string, error) {
		return BenchFeed{}, "", errors.New("虚拟环境里没有 torch")
	}
	m := newBenchRoot(c, func() screen { return newBenchScreen(c, 0, fail) })
	settle(t, m, m.Init()())
	s := topIs[*benchScreen](t, m)
	s.SetSize(78, 20)
	chineseCheck(t, "benchmark that could not start", s.View(), "性能测试无法启动：虚拟环境里没有 torch")
	if k := s.ShortHelp(); len(k) != 1 || k[0].Help().Desc != "重试" {
		t.Errorf("help %+v", k)
	}
	press(t, m, "r")
	if again := topIs[*benchScreen](t, m); again == s {
		t.Error("r made no new screen")
	}
}

// The plan the real backend makes of a doctor repair, in English and in Chinese: its steps, the
// reinstall line and what is left to the user.
func TestRepairPlanWords(t *testing.T) {
	c := cand("paddle", "3.0.0", "cu126", "12.6", true)
	rp := doctor.Repair{Venv: "/work/old", Reinstall: &c,
		Actions:   []doctor.Action{{Title: "remove paddle/", RemovePath: "/work/old/lib/paddle", Engine: true}},
		Unfixable: []doctor.Finding{{Code: "driver-old", Title: "driver too old", Fix: "update the driver"}}}
	p := app.RepairListing(rp)
	en := strings.Join(append(append(commandLines(p), planWarnings(p)...), stepTitle(p, p.Steps[1]), stepTitle(p, p.Steps[2])), "\n")
	mustContain(t, en, "delete /work/old/lib/paddle", "install paddle 3.0.0 through the install engine, from "+c.IndexURL+" (--index-url only)",
		"Install PaddlePaddle 3.0.0 (cu126)", "Run doctor again", "left to you: driver too old: update the driver")
	i18ntest.Chinese(t)
	rp.Unfixable[0].Title, rp.Unfixable[0].Fix = "显卡驱动太旧", "更新显卡驱动"
	p = app.RepairListing(rp)
	zh := strings.Join(append(append(commandLines(p), planWarnings(p)...), stepTitle(p, p.Steps[1]), stepTitle(p, p.Steps[2])), "\n")
	chineseCheck(t, "repair plan", zh, "删除 /work/old/lib/paddle", "通过安装引擎安装 paddle 3.0.0", "仅 --index-url",
		"安装 飞桨（PaddlePaddle） 3.0.0（cu126）", "重新运行诊断", "需要你自己处理：显卡驱动太旧：更新显卡驱动")
}
