package ui

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/venvs"
)

// goldenStep is keys to send, then text to wait for on the terminal.
type goldenStep struct {
	keys []string
	text string
}

func k(text string, keys ...string) goldenStep { return goldenStep{keys, text} }

// runGolden drives a real bubbletea program at 80x24 (or size) through steps and compares the final
// frame with testdata/TestGolden/<name>.golden.
func runGolden(t *testing.T, fb *fakeBackend, ascii bool, size [2]int, steps ...goldenStep) {
	t.Helper()
	runGoldenAs(t, t.Name(), fb, ascii, size, steps...)
}

// runGoldenAs is runGolden compared with testdata/<name>.golden.
func runGoldenAs(t *testing.T, name string, fb *fakeBackend, ascii bool, size [2]int, steps ...goldenStep) {
	t.Helper()
	requireGolden(t, name, []byte(renderSteps(t, fb, ascii, size, steps...).View()))
}

// renderSteps drives a real bubbletea program of size through steps and returns its final model.
func renderSteps(t *testing.T, fb *fakeBackend, ascii bool, size [2]int, steps ...goldenStep) *Model {
	t.Helper()
	m := NewModel(testCommon(fb, ascii))
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(size[0], size[1]))
	for _, s := range steps {
		for _, key := range s.keys {
			tm.Send(keyMsg(key))
		}
		if s.text != "" {
			want := []byte(s.text)
			teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, want) },
				teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(5*time.Millisecond))
		}
	}
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*Model)
	final.Wait()
	return final
}

func typed(s string) []string {
	out := make([]string, 0, len(s))
	for _, r := range s {
		out = append(out, string(r))
	}
	return out
}

func backspaces(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "backspace"
	}
	return out
}

var std = [2]int{80, 24}

func TestGolden(t *testing.T) {
	for _, c := range englishGoldens() {
		t.Run(c.name, func(t *testing.T) {
			fb := newFakeBackend()
			if c.edit != nil {
				c.edit(fb)
			}
			size := c.size
			if size == [2]int{} {
				size = std
			}
			runGolden(t, fb, c.ascii, size, c.steps...)
		})
	}
}

// englishGoldens are TestGolden's cases: testdata/TestGolden/<name>.golden.
func englishGoldens() []goldenCase {
	toPlan := []goldenStep{k("Set up a new"), k("Press enter to choose", "enter"), k("versions in the matrix", "enter"),
		k("runs on this driver, with limits", "enter"), k("a new venv will be created", "enter"),
		k("/work/new", append(backspaces(12), typed("/work/new")...)...), k("the fastest source", "enter"), k("Run this plan?", "enter")}
	// toAdd: the done screen's a, what is typed, then the steps after it.
	toAdd := func(what string, then ...goldenStep) []goldenStep {
		steps := append(append([]goldenStep{}, toPlan...), k("Press enter to verify", "y"), k("Every check passed", "enter"), k("q or enter to quit", "enter"),
			k("package names separated by spaces", "a"))
		steps = append(steps, k(what, typed(what)...))
		return append(steps, then...)
	}
	return []goldenCase{
		{name: "welcome", steps: []goldenStep{k("Just check this machine")}},
		{name: "welcome_ascii", ascii: true, steps: []goldenStep{k("Just check this machine")}},
		{name: "welcome_small", size: [2]int{40, 12}, steps: []goldenStep{k("more lines below")}},
		{name: "gpu", steps: []goldenStep{k("Set up"), k("Press enter to choose", "enter")}},
		{name: "gpu_no_driver", edit: func(f *fakeBackend) { f.report.Available, f.report.GPUs = false, nil },
			steps: []goldenStep{k("Set up"), k("No NVIDIA driver", "enter")}},
		{name: "gpu_old_card", edit: func(f *fakeBackend) {
			f.report.GPUs[0].Name, f.report.GPUs[0].ComputeCapability, f.report.CUDAMax = "NVIDIA GeForce GTX 1060 6GB", "6.1", "12.2"
		}, steps: []goldenStep{k("Set up"), k("no build at all", "enter")}},
		{name: "gpu_driver_update", edit: driver1060(), steps: []goldenStep{k("Set up"), k("Press u to update", "enter")}},
		{name: "driver_offer", edit: driver1060(), steps: []goldenStep{k("Set up"), k("Press u to update", "enter"), k("Press enter to start", "u")}},
		{name: "driver_restart", edit: driverRestart(), steps: []goldenStep{k("Set up"), k("Press u to update", "enter"), k("Press enter to start", "u"), k("You can quit now", "enter")}},
		{name: "driver_refused", edit: driverRefused(), steps: []goldenStep{k("Set up"), k("Press u to update", "enter"), k("Press enter to start", "u"), k("Nothing was run", "enter")}},
		{name: "channel_driver_update", edit: driver1060(), steps: []goldenStep{k("Set up"), k("Press u to update", "enter"), k("< 2.7.1 >", "enter"), k("would add CUDA", "enter")}},
		{name: "resumed_at_channel", edit: resumed1060(), steps: []goldenStep{k("found after the restart")}},
		{name: "framework", steps: toPlan[:3]},
		{name: "channel", steps: toPlan[:4]},
		// Rows that share a text carry its number and the text is printed once under the list; the
		// cursor on an unverified build says what that means and names the verified one to pick.
		{name: "channel_shared_notes", edit: sharedNotes,
			steps: []goldenStep{k("Set up"), k("Press enter to choose", "enter"), k("versions in the matrix", "enter"), k("2.10.0", "right"), k("unverified: read from", "enter")}},
		{name: "change_channel_shared_notes", edit: sharedNotes,
			steps: []goldenStep{k("Set up"), k("Which Python environment?", "2"), k("(cu118)", typed("/work/old")...), k("Press enter", "enter"), k("[3]", "enter"), k("verified cu126 2.9.1 above", "down")}},
		{name: "venv", steps: toPlan[:5]},
		{name: "venv_bad_path", steps: append(append([]goldenStep{}, toPlan[:5]...), k("not writable", append(backspaces(12), typed("/etc/x")...)...))},
		{name: "plan", steps: toPlan},
		{name: "sources", steps: toPlan[:7]},
		{name: "sources_mirror", edit: mirrorSources, steps: toPlan[:7]},
		{name: "sources_none", edit: func(f *fakeBackend) {
			f.sources, f.proposed = defaultSources(), -1
			f.sources[0].HasBuild, f.sources[0].File, f.sources[0].Why = false, "", "has torch 2.7.1+cu126 but no wheel for Python 3.11 on windows/amd64 (only cp312-win_amd64, cp313-win_amd64)"
		}, steps: append(append([]goldenStep{}, toPlan[:6]...), k("No source has this build", "enter"))},
		{name: "sources_custom", steps: append(append([]goldenStep{}, toPlan[:7]...), k("your URL", "down", "down", "down"),
			k("35 ms", append(typed("https://good.example/whl/cu126"), "enter")...))},
		{name: "plan_mirror", edit: mirrorSources, steps: append(append([]goldenStep{}, toPlan[:7]...), k("Run this plan?", "enter"))},
		{name: "install_done", steps: append(append([]goldenStep{}, toPlan...), k("Press enter to verify", "y"))},
		{name: "install_cancelled", edit: func(f *fakeBackend) { f.blockInstall = true },
			steps: append(append([]goldenStep{}, toPlan...), k("Collecting package-19", "y"), k("Cancel the install?", "ctrl+c"), k("Cancelled.", "y"))},
		{name: "verify", steps: append(append([]goldenStep{}, toPlan...), k("Press enter to verify", "y"), k("Every check passed", "enter"))},
		{name: "verify_failed", edit: func(f *fakeBackend) {
			f.verify = app.Checklist{Checks: []app.Check{{Title: "torch imports", OK: true, Evidence: "2.7.1+cpu"},
				{Title: "CUDA build", Evidence: "torch.version.cuda is None", Cause: "pip reused a CPU wheel from its cache", Fix: "gpuwiz doctor --venv /work/new, then repair"}}}
		}, steps: append(append([]goldenStep{}, toPlan...), k("Press enter to verify", "y"), k("Some checks failed", "enter"))},
		{name: "benchmark", edit: func(f *fakeBackend) { f.benchSamples = true },
			steps: append(append([]goldenStep{}, toPlan...), k("Press enter to verify", "y"), k("Every check passed", "enter"), k("r run again", "b"))}, // r shows once the run has ended, after its verdict
		{name: "done", steps: append(append([]goldenStep{}, toPlan...), k("Press enter to verify", "y"), k("Every check passed", "enter"), k("q or enter to quit", "enter"))},
		{name: "change_venv", steps: []goldenStep{k("Set up"), k("Which Python environment?", "2"), k("(cu118)", typed("/work/old")...)}},
		{name: "change_channel", steps: []goldenStep{k("Set up"), k("Which Python environment?", "2"), k("(cu118)", typed("/work/old")...), k("Press enter", "enter"), k("Same version first", "enter")}},
		// Repair and change offer the venvs gpuwiz knows first: the newest is in the input, up/down picks another.
		{name: "repair_known_venvs", edit: knownVenvs,
			steps: []goldenStep{k("Set up"), k("holds: Python 3.11.9, PaddlePaddle", "3"), k("holds: Python 3.11.9, PyTorch 2.6.0", "down")}},
		{name: "change_known_venvs", edit: knownVenvs,
			steps: []goldenStep{k("Set up"), k("holds: Python 3.11.9, PaddlePaddle", "2")}},
		{name: "doctor", steps: []goldenStep{k("Set up"), k("Which Python environment?", "3"), k("3.0.0", typed("/work/paddle")...), k("see the repair plan", "enter")}},
		{name: "repair_plan", steps: []goldenStep{k("Set up"), k("Which Python environment?", "3"), k("3.0.0", typed("/work/paddle")...), k("see the repair plan", "enter"), k("Run this plan?", "enter")}},
		{name: "check", steps: []goldenStep{k("Set up"), k("see the builds", "4"), k("Nothing was changed", "enter")}},
		// The project step after a verified install: the preview, a refusal with the way out, the result.
		{name: "add", steps: toAdd("projx", k("would be added", "enter"))},
		{name: "add_refused", steps: toAdd("needsnew", k("Refused", "enter"))},
		{name: "add_source", steps: toAdd("projx", k("Another index", "tab"))},
		{name: "add_failed", steps: toAdd("offline", k("no answer from the package source", "enter"))},
		{name: "add_done", steps: toAdd("projx", k("would be added", "enter"), k("Press enter to see the result", "enter"), k("a to install more", "enter"))},
	}
}

// chineseGoldens are every case of TestGolden drawn in Chinese, each written to
// testdata/TestGolden/<name>.zh-CN.golden: the same steps as the English case, waiting for the
// Chinese words, plus cases at 120x36.
func chineseGoldens() []goldenCase {
	toSources := []goldenStep{k("新建环境"), k("按 enter 选择框架", "enter"), k("个版本", "enter"),
		k("可在此驱动上运行", "enter"), k("将在这里新建虚拟环境", "enter"),
		k("/work/new", append(backspaces(12), typed("/work/new")...)...), k("有这个版本且最快的安装源", "enter")}
	wide := [2]int{120, 36}
	toPlan := append(append([]goldenStep{}, toSources...), k("执行这个计划吗", "enter"))
	then := func(steps ...goldenStep) []goldenStep { return append(append([]goldenStep{}, toPlan...), steps...) }
	toDoctor := []goldenStep{k("新建环境"), k("选择哪个 Python 环境？", "3"), k("3.0.0", typed("/work/paddle")...), k("查看修复计划", "enter")}
	toAdd := func(what string, after ...goldenStep) []goldenStep {
		steps := then(k("按 enter 开始验证", "y"), k("全部检查通过", "enter"), k("按 q 或 enter 退出", "enter"), k("用空格分隔的包名", "a"))
		steps = append(steps, k(what, typed(what)...))
		return append(steps, after...)
	}
	return []goldenCase{
		{name: "plan", steps: toPlan},
		{name: "plan_wide", size: wide, steps: toPlan},
		{name: "plan_mirror", edit: mirrorSources, steps: toPlan},
		{name: "install_done", steps: then(k("按 enter 开始验证", "y"))},
		{name: "install_cancelled", edit: func(f *fakeBackend) { f.blockInstall = true },
			steps: then(k("Collecting package-19", "y"), k("要取消安装吗", "ctrl+c"), k("已取消", "y"))},
		{name: "verify", steps: then(k("按 enter 开始验证", "y"), k("全部检查通过", "enter"))},
		{name: "verify_failed", edit: func(f *fakeBackend) {
			f.verify = app.Checklist{Checks: []app.Check{{Title: "torch 能导入", OK: true, Evidence: "2.7.1+cpu"},
				{Title: "CUDA 版", Evidence: "torch.version.cuda 为 \"None\"", Cause: "pip 用了缓存里的 CPU 版 wheel 包", Fix: "运行 gpuwiz doctor --venv /work/new，然后修复"}}}
		}, steps: then(k("按 enter 开始验证", "y"), k("有检查没有通过", "enter"))},
		{name: "benchmark", edit: func(f *fakeBackend) { f.benchSamples = true },
			steps: then(k("按 enter 开始验证", "y"), k("全部检查通过", "enter"), k("r 重新运行", "b"))}, // r shows once the run has ended, after its verdict
		{name: "benchmark_wide", size: wide, edit: func(f *fakeBackend) { f.benchSamples = true },
			steps: then(k("按 enter 开始验证", "y"), k("全部检查通过", "enter"), k("r 重新运行", "b"))}, // r shows once the run has ended, after its verdict
		{name: "done", steps: then(k("按 enter 开始验证", "y"), k("全部检查通过", "enter"), k("按 q 或 enter 退出", "enter"))},
		{name: "doctor", steps: toDoctor},
		{name: "repair_plan", steps: append(append([]goldenStep{}, toDoctor...), k("执行这个计划吗", "enter"))},
		{name: "check", steps: []goldenStep{k("新建环境"), k("查看适合本机的版本", "4"), k("没有做任何改动", "enter")}},
		{name: "welcome", steps: []goldenStep{k("只检查本机")}},
		{name: "welcome_ascii", ascii: true, steps: []goldenStep{k("只检查本机")}},
		{name: "welcome_small", size: [2]int{40, 12}, steps: []goldenStep{k("按 pgdn 查看")}},
		{name: "gpu", steps: []goldenStep{k("新建环境"), k("按 enter 选择框架", "enter")}},
		{name: "gpu_no_driver", edit: func(f *fakeBackend) { f.report.Available, f.report.GPUs = false, nil },
			steps: []goldenStep{k("新建环境"), k("NVIDIA 显卡驱动响应", "enter")}},
		{name: "gpu_old_card", edit: func(f *fakeBackend) {
			f.report.GPUs[0].Name, f.report.GPUs[0].ComputeCapability, f.report.CUDAMax = "NVIDIA GeForce GTX 1060 6GB", "6.1", "12.2"
		}, steps: []goldenStep{k("新建环境"), k("所有版本都不支持这块显卡", "enter")}},
		{name: "gpu_driver_update", edit: driver1060(), steps: []goldenStep{k("新建环境"), k("按 u 更新驱动", "enter")}},
		{name: "driver_offer", edit: driver1060(), steps: []goldenStep{k("新建环境"), k("按 u 更新驱动", "enter"), k("按 enter 开始", "u")}},
		{name: "driver_restart", edit: driverRestart(), steps: []goldenStep{k("新建环境"), k("按 u 更新驱动", "enter"), k("按 enter 开始", "u"), k("现在可以按 q 退出", "enter")}},
		{name: "driver_refused", edit: driverRefused(), steps: []goldenStep{k("新建环境"), k("按 u 更新驱动", "enter"), k("按 enter 开始", "u"), k("什么都没有运行", "enter")}},
		{name: "channel_driver_update", edit: driver1060(), steps: []goldenStep{k("新建环境"), k("按 u 更新驱动", "enter"), k("< 2.7.1 >", "enter"), k("再按 u 更新", "enter")}},
		{name: "resumed_at_channel", edit: resumed1060(), steps: []goldenStep{k("重启后找到了驱动")}},
		{name: "gpu_two_cards_wide", size: wide, edit: twoCards, steps: []goldenStep{k("新建环境"), k("按 enter 选择框架", "enter")}},
		{name: "framework", steps: toSources[:3]},
		{name: "channel", steps: toSources[:4]},
		{name: "channel_wide", size: wide, steps: toSources[:4]},
		{name: "channel_shared_notes", edit: sharedNotes,
			steps: []goldenStep{k("新建环境"), k("按 enter 选择框架", "enter"), k("个版本", "enter"), k("2.10.0", "right"), k("未验证：根据", "enter")}},
		{name: "change_channel_shared_notes", edit: sharedNotes,
			steps: []goldenStep{k("新建环境"), k("选择哪个 Python 环境？", "2"), k("cu118）", typed("/work/old")...), k("按 enter 选择新的", "enter"), k("[3]", "enter"), k("cu126 2.9.1，或按", "down")}},
		{name: "venv", steps: toSources[:5]},
		{name: "venv_bad_path", steps: append(append([]goldenStep{}, toSources[:5]...), k("✗", append(backspaces(12), typed("/etc/x")...)...))},
		{name: "sources", steps: toSources[:7]},
		{name: "sources_mirror", edit: mirrorSources, steps: toSources[:7]},
		{name: "sources_none", edit: func(f *fakeBackend) {
			f.sources, f.proposed = defaultSources(), -1
			f.sources[0].HasBuild, f.sources[0].File, f.sources[0].Why = false, "", "has torch 2.7.1+cu126 but no wheel for Python 3.11 on windows/amd64 (only cp312-win_amd64, cp313-win_amd64)"
		}, steps: append(append([]goldenStep{}, toSources[:6]...), k("没有任何安装源", "enter"))},
		{name: "sources_custom", steps: append(append([]goldenStep{}, toSources[:7]...), k("自定义地址", "down", "down", "down"),
			k("35 ms", append(typed("https://good.example/whl/cu126"), "enter")...))},
		{name: "change_venv", steps: []goldenStep{k("新建环境"), k("选择哪个 Python 环境？", "2"), k("cu118）", typed("/work/old")...)}},
		{name: "change_channel", steps: []goldenStep{k("新建环境"), k("选择哪个 Python 环境？", "2"), k("cu118）", typed("/work/old")...), k("按 enter 选择新的", "enter"), k("同一版本排在前面", "enter")}},
		{name: "repair_known_venvs", edit: knownVenvs,
			steps: []goldenStep{k("新建环境"), k("已有：Python 3.11.9，飞桨", "3"), k("已有：Python 3.11.9，PyTorch 2.6.0", "down")}},
		{name: "change_known_venvs", edit: knownVenvs,
			steps: []goldenStep{k("新建环境"), k("已有：Python 3.11.9，飞桨", "2")}},
		{name: "add", steps: toAdd("projx", k("将新增或升级", "enter"))},
		{name: "add_refused", steps: toAdd("needsnew", k("已拒绝", "enter"))},
		{name: "add_source", steps: toAdd("projx", k("其他安装源", "tab"))},
		{name: "add_failed", steps: toAdd("offline", k("安装源没有响应", "enter"))},
		{name: "add_done", steps: toAdd("projx", k("将新增或升级", "enter"), k("按 enter 查看结果", "enter"), k("按 a 继续安装", "enter"))},
	}
}

// goldenCase is one frame of TestGolden: the fake's edit, the window and the steps to reach it.
type goldenCase struct {
	name  string
	edit  func(*fakeBackend)
	ascii bool
	size  [2]int
	steps []goldenStep
}

// TestGoldenChinese draws chineseGoldens with the wizard in Chinese; the frames are
// testdata/TestGolden/<case>.zh-CN.golden (go test ./ui -run TestGoldenChinese -update writes them).
// Not parallel: the language is the process's.
func TestGoldenChinese(t *testing.T) {
	i18n.Set(i18n.Chinese)
	t.Cleanup(func() { i18n.Set(i18n.English) })
	for _, c := range chineseGoldens() {
		t.Run(c.name, func(t *testing.T) {
			fb := newFakeBackend()
			if c.edit != nil {
				c.edit(fb)
			}
			size := c.size
			if size == [2]int{} {
				size = std
			}
			runGoldenAs(t, "TestGolden/"+c.name+".zh-CN", fb, c.ascii, size, c.steps...)
		})
	}
}

// twoCards gives the fake a second card, so the GPU screen offers the choice of card.
func twoCards(f *fakeBackend) {
	g := f.report.GPUs[0]
	g.Index, g.Name, g.MemoryUsedMiB = 1, "NVIDIA GeForce RTX 3090", 0
	f.report.GPUs = append(f.report.GPUs, g)
}

// knownVenvs gives the fake three environments to offer: two it worked on and a ./.venv with no framework.
func knownVenvs(f *fakeBackend) {
	// At noon: the date the list shows is the local one.
	day := func(m time.Month, d int) time.Time { return time.Date(2026, m, d, 12, 0, 0, 0, time.Local) }
	f.known = []app.KnownVenv{
		{Path: "/work/paddle", Framework: "paddle", Found: app.FoundVenv{Path: "/work/paddle", Source: venvs.SourceKnown,
			Holds: venvs.Holds{Framework: "paddle", FrameworkVersion: "3.0.0", Package: "paddlepaddle-gpu", Python: "3.11.9"},
			Known: &venvs.Entry{Path: "/work/paddle", Action: "repair", Result: "repair failed", When: day(12, 3)}}}, // "PaddlePaddle 3.0.0 (GPU), Python 3.11.9 · repair failed on 2026-12-03"
		{Path: "/work/old", Framework: "torch", Found: app.FoundVenv{Path: "/work/old", Source: venvs.SourceKnown,
			Holds: venvs.Holds{Framework: "torch", FrameworkVersion: "2.6.0", Channel: "cu118", Python: "3.11.9"},
			Known: &venvs.Entry{Path: "/work/old", Action: "install", Result: "installed", OK: true, When: day(11, 30)}}}, // "PyTorch 2.6.0 (cu118), Python 3.11.9 · installed on 2026-11-30"
		{Path: "/home/me/proj/.venv", Found: app.FoundVenv{Path: "/home/me/proj/.venv", Source: venvs.SourceHere,
			Holds: venvs.Holds{Python: "3.12.8"}}}, // "no PyTorch or PaddlePaddle, Python 3.12.8 · in this folder"
	}
}

// sharedNotes makes the fake judge the builds of testdata/matrix/shared-notes.toml, whose rows share
// a release note per release and one driver reason on every CUDA 13.0 row.
func sharedNotes(f *fakeBackend) {
	f.matrixFile = filepath.Join("..", "testdata", "matrix", "shared-notes.toml")
	f.report.OS = "linux"
}

var _ tea.Model = (*Model)(nil)

// requireGolden is golden.RequireEqual against testdata/<name>.golden (-update writes it).
func requireGolden(t *testing.T, name string, out []byte) {
	t.Helper()
	golden.RequireEqual(namedTB{t, name}, out)
}

// namedTB is a test under another name, for golden's file name.
type namedTB struct {
	*testing.T
	name string
}

func (n namedTB) Name() string { return n.name }
