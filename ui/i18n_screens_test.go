package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"gpuwiz/steps/gpu"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/i18n/i18ntest"
)

// inChinese switches the wizard's messages to Chinese for the rest of the test. Tests that call it
// are not parallel: the language is the process's.
// fromElsewhere is English in the Chinese goldens that this part of the wizard does not write: what
// the fake backend answers (the real backend's words come from steps/venvs, steps/pyenv,
// steps/sources and the matrix, each converted with its own package) and the test matrix's reasons
// and notes. The check below removes these before it looks for English.
var fromElsewhere = []string{
	// the matrix's reasons and notes (matrix.RowTexts, Reasons)
	"needs driver 570.26 for CUDA 12.8; this driver 560.94 supports CUDA 12.6", "needs driver 570.26 for CUDA 12.8; this driv", "needs driver 570.26 for CUDA 12.8; this dri…",
	"driver 560.94 runs CUDA 12.6", "sm_86 is in the wheel", "the Windows kernel list is read from the build scripts",
	"the last release with CUDA 12.6 wheels for Windows", "torchaudio stays at 2.10.0: it is no longer released with every torch",
	"driver 560.94 supports CUDA 12.6; cu130 needs driver ≥ 580 on Linux", "driver 560.94 supports CUDA 12.6;",
	// the fake's Pythons, venvs, path check and sources
	"Microsoft Store Python: torch DLLs fail to load from its sandbox; use py", "Microsoft Store Python: torch DLLs fail to load from its sandbox; use p…",
	"cannot create /etc/x: /etc is not writable; choose a directory you own",
	"has torch 2.7.1+cu126 but no wheel for Python 3.11 on windows/amd64", "has torch 2.7.1+cu126 but no wheel for Python",
	"torch 2.7.1+cu126 for Python", "3.11 on windows/amd64",
	"official cu126 index", "Aliyun PyTorch wheels (flat page) + Aliyun PyPI", "wheels https://mirrors.aliyun.com/pytorch-wheels/cu126/ + dependencies",
	"Nanjing University mirror of download.pytorch.o", "your URL (a package index)",
	"(only cp312-win_amd64, cp313-win_amd64)",
	"PaddlePaddle 3.0.0 (GPU), Python 3.11.9 · repair failed on 2026-12-03", "PyTorch 2.6.0 (cu118), Python 3.11.9 · installed on",
	"no PyTorch or PaddlePaddle, Python 3.12.8 · in this folder",
	"simulated",
	// the fake's plan notes, step titles, pip output, verification and doctor findings (the real
	// ones come from steps/install, steps/verify and steps/doctor, each tested in Chinese there)
	"PIP_INDEX_URL and PIP_EXTRA_INDEX_URL are cleared for these commands", "Create the venv",
	"restoring the previous packages", "one matmul on the GPU matches the CPU", "rel err",
	"paddlepaddle and paddlepaddle-gpu are both installed", "remove both and the paddle/ directory, reinstall paddlepaddle-gpu",
	"remove both and the paddle/ directory, reinstall", // the same, wrapped at 80 columns
}

// TestChineseGoldensHaveNoEnglish: the Chinese frames of every screen hold no English sentence of
// their own.
func TestChineseGoldensHaveNoEnglish(t *testing.T) {
	for _, c := range chineseGoldens() {
		b, err := os.ReadFile(filepath.Join("testdata", "TestGolden", c.name+".zh-CN.golden"))
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		for _, s := range fromElsewhere {
			text = strings.ReplaceAll(text, s, "")
		}
		i18ntest.NoEnglishOnScreen(t, c.name+".zh-CN.golden", text)
		if !strings.Contains(text, "退出") && !strings.Contains(text, "返回") && !strings.Contains(text, "继续") {
			t.Errorf("%s: the help bar is not in Chinese:\n%s", c.name, b)
		}
	}
}

// Pressing l on the welcome switches the whole wizard to Chinese and back: the screen, the help bar
// and the next screens' keys.
func TestWelcomeLanguageSwitch(t *testing.T) {
	t.Cleanup(func() { i18n.Set(i18n.English) })
	m := newTestRoot(newFakeBackend())
	press(t, m, "down") // the cursor stays where it was across the switch
	en := ansi.Strip(m.View())
	mustContain(t, en, "Set up a new environment", "Language: English. Press l for 中文.", "l 中文", "q quit")

	press(t, m, "l")
	if !i18n.IsChinese() {
		t.Fatal("l did not switch to Chinese")
	}
	zh := ansi.Strip(m.View())
	mustContain(t, zh, "欢迎", "新建环境", "只检查本机", "界面语言：简体中文。按 l 切换到 English。", "l English", "q 退出", "? 更多按键", "▸ 2. 更换现有环境")
	i18ntest.NoEnglishProse(t, "the welcome after l", zh)

	press(t, m, "enter") // the second journey: change a channel, in Chinese
	v := ansi.Strip(m.View())
	mustContain(t, v, "现有 Python 环境", "选择哪个 Python 环境？", "ctrl+c 退出", "esc 返回")

	press(t, m, "esc", "l")
	if i18n.IsChinese() {
		t.Fatal("l did not switch back to English")
	}
	back := ansi.Strip(m.View())
	if back != en {
		t.Fatalf("the welcome after l, l is not the English one:\n%s\nwant:\n%s", back, en)
	}
}

// The keys' help is built from the catalog: in Chinese every key's words are Chinese, ASCII too.
func TestKeyMapInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	for _, ascii := range []bool{false, true} {
		k := keyMapFor(ascii)
		for _, b := range []struct{ name, want string }{{"up", "上移"}, {"back", "返回"}, {"quit", "退出"}, {"more", "更多按键"}, {"select", "继续"}, {"lang", "English"}} {
			var got string
			switch b.name {
			case "up":
				got = k.Up.Help().Desc
			case "back":
				got = k.Back.Help().Desc
			case "quit":
				got = k.Quit.Help().Desc
			case "more":
				got = k.Help.Help().Desc
			case "select":
				got = k.Select.Help().Desc
			case "lang":
				got = k.Lang.Help().Desc
			}
			if got != b.want {
				t.Errorf("ascii=%v %s: %q, want %q", ascii, b.name, got, b.want)
			}
		}
		if ascii && k.Up.Help().Key != "up/k" {
			t.Errorf("--ascii key name: %q", k.Up.Help().Key)
		}
	}
}

// The GPU screen in Chinese: the card's note from the matrix, the driver sentence and the choice of
// card keep their numbers; the probe's architecture warning (made in English, before a switch) is
// still left out, as the screen says it in its own words.
func TestGPUScreenInChinese(t *testing.T) {
	fb := newFakeBackend()
	card := &fb.report.GPUs[0]
	card.Name, card.ComputeCapability = "NVIDIA GeForce GTX 1080", "6.1"
	fb.report.Warnings = []string{gpu.ArchWarningIn(i18n.English, *card), "nvmlDeviceGetPowerUsage not exported"}
	i18ntest.Chinese(t)
	m := newTestRoot(fb)
	m.Update(tea.WindowSizeMsg{Width: 400, Height: 40})
	press(t, m, "enter")
	v := ansi.Strip(m.View())
	mustContain(t, v, "显卡与驱动", "显卡驱动 560.94", "最高支持 CUDA 12.6",
		"显卡 0（NVIDIA GeForce GTX 1080，算力 6.1）：在 Linux 上，支持这块显卡的最新 PyTorch 是 2.14（cu126）。cu128 及更新通道的版本都不支持这块显卡；从 torch 2.15 起，所有版本都不支持这块显卡。",
		"nvmlDeviceGetPowerUsage not exported", "按 enter 选择框架。")
	if strings.Count(v, "6.1") != 2 { // the table's column and the note, not the probe's warning too
		t.Fatalf("the card is described more than once:\n%s", v)
	}
	i18ntest.NoEnglishProse(t, "GPU screen", strings.ReplaceAll(v, "nvmlDeviceGetPowerUsage not exported", ""))
}

// Every sentence about old cards and old drivers, in Chinese, for each OS and architecture the
// matrix speaks of.
func TestArchNotesInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	for _, c := range []struct{ cc, goos, want string }{
		{"6.1", "windows", "：在 Windows 上，支持这块显卡的最新 PyTorch 是 2.14（cu126）。更新的 CUDA 通道：cu128 只到 torch 2.7；cu129 及更新的通道从来不支持这块显卡；从 torch 2.15 起，所有版本都不支持这块显卡。"},
		{"7.0", "linux", "：在 Linux 上，支持这块显卡的最新 PyTorch 是 2.14（cu126）。更新的 CUDA 通道：cu128 只到 torch 2.10、cu129 只到 torch 2.10；cu130 及更新的通道从来不支持这块显卡；从 torch 2.15 起，所有版本都不支持这块显卡。"},
		{"3.5", "linux", "：在 Linux 上，PyTorch 2.4 到 2.15 的 GPU 版都不支持这块显卡，请使用 CPU 版。"},
		{"8.6", "windows", ""},
	} {
		got := archFactsOf(c.cc, c.goos).words("", osWord(c.goos))
		if got != c.want {
			t.Errorf("%s on %s:\n got %q\nwant %q", c.cc, c.goos, got, c.want)
		}
		i18ntest.NoEnglishProse(t, c.cc+" "+c.goos, got)
	}
	for _, r := range []gpu.Report{
		{Available: false},
		{Available: true, DriverVersion: "452.39", CUDAMax: "11.0", GPUs: []gpu.GPU{{Name: "RTX 2060", ComputeCapability: "7.5"}}},
		{Available: true, DriverVersion: "531.14", CUDAMax: "12.1", GPUs: []gpu.GPU{{Name: "RTX 2060", ComputeCapability: "7.5"}}},
		{Available: true, DriverVersion: "560.94", CUDAMax: "12.6", GPUs: []gpu.GPU{{Name: "Mystery"}}},
		{Available: true, DriverVersion: "560.94", CUDAMax: "12.6"},
	} {
		words := strings.Join(driverWords(r, "windows", true), "\n")
		if words == "" {
			t.Errorf("no words for %+v", r)
		}
		i18ntest.NoEnglishProse(t, "driver words", words)
	}
}

// wrap breaks Chinese between characters, never before a closing mark, and within the width in
// display columns.
func TestWrapChinese(t *testing.T) {
	text := "在你确认安装计划之前，本机不会有任何改动。请安装 NVIDIA 显卡驱动（nvidia.com/drivers）后重新运行 gpuwiz。"
	for _, w := range []int{10, 17, 24, 40} {
		out := wrap(text, w)
		if strings.ReplaceAll(out, "\n", "") != strings.ReplaceAll(text, "\n", "") && strings.ReplaceAll(strings.ReplaceAll(out, "\n", ""), " ", "") != strings.ReplaceAll(text, " ", "") {
			t.Errorf("width %d lost text:\n%s", w, out)
		}
		for _, l := range strings.Split(out, "\n") {
			if i18n.Width(l) > w {
				t.Errorf("width %d: %q is %d columns", w, l, i18n.Width(l))
			}
			if w >= 24 && (strings.HasPrefix(l, "，") || strings.HasPrefix(l, "。") || strings.HasPrefix(l, "）")) { // narrower, a long word is cut
				t.Errorf("width %d: a line starts with a closing mark: %q", w, l)
			}
		}
	}
	// English is broken at spaces only, as before.
	if got := wrap("Nothing changes on this machine until you confirm a plan.", 20); got != "Nothing changes on\nthis machine until\nyou confirm a plan." {
		t.Errorf("English wrap changed: %q", got)
	}
}

// The channel list's columns line up by display width when a cell is Chinese (仅 CPU).
func TestChannelColumnsByDisplayWidth(t *testing.T) {
	i18ntest.Chinese(t)
	fb := newFakeBackend()
	sharedNotes(fb)
	m := newTestRoot(fb)
	press(t, m, "enter", "enter", "right", "enter")
	v := ansi.Strip(m.View())
	var cols []int
	for _, l := range strings.Split(v, "\n") {
		if i := strings.Index(l, "2.10.0"); i >= 0 && (strings.Contains(l, "cu126") || strings.Contains(l, "仅 CPU")) {
			cols = append(cols, i18n.Width(l[:i]))
		}
	}
	if len(cols) < 2 || cols[0] != cols[1] {
		t.Fatalf("the version column does not line up (%v):\n%s", cols, v)
	}
}
