package ui

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"gpuwiz/steps/i18n/i18ntest"
	"gpuwiz/steps/testkit/pylayout"
)

// A portable bundle in the folder the user starts gpuwiz from (ComfyUI_windows_portable with its
// python_embeded: an embedded Python beside its ._pth, no venv, no pip), holding a cu118 torch: the
// wizard, at 80×24, in English and in Chinese, lists it as found there, picks it with the arrow key
// and switches it to cu126; the bundle's own interpreter imports the new build afterwards.
func TestE2EBundleSwitchInTmux(t *testing.T) {
	for _, lang := range []string{"en", "zh-CN"} {
		t.Run(lang, func(t *testing.T) { bundleSwitch(t, lang) })
	}
}

func bundleSwitch(t *testing.T, lang string) {
	r := newE2ERig(t, 0)
	root, py := pylayout.Embedded(t, true)
	bundle := filepath.Join(r.dir, "ComfyUI_windows_portable")
	embedded := filepath.Join(bundle, "python_embeded")
	if err := os.MkdirAll(bundle, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(root, embedded); err != nil {
		t.Fatal(err)
	}
	py = filepath.Join(embedded, filepath.Base(py))
	// The bundle's maker put the build in, not gpuwiz: pip run from outside against its interpreter.
	idx := strings.SplitN(readMatrixIndex(t, r.matrix), "/whl/", 2)[0]
	run(t, r.env, "python3", "-m", "pip", "--python", py, "install", "--index-url", idx+"/whl/cu118",
		"torch==2.6.0+cu118", "torchvision==0.21.0+cu118", "torchaudio==2.6.0+cu118")
	if got := strings.TrimSpace(run(t, r.env, py, "-c", "import torch; print(torch.__version__)")); got != "2.6.0+cu118" {
		t.Fatalf("the bundle holds %q before the switch", got)
	}

	words := map[string][]string{ // English, Chinese
		"welcome":    {"Set up a new environment", "新建环境"},
		"embedded":   {"embedded Python", "嵌入式 Python"},
		"holds":      {"holds: Python", "已有：Python"},
		"which":      {"Which Python environment?", "选择哪个"},
		"nearby":     {"found nearby", "在附近找到"},
		"next":       {"Press enter to choose the new channel", "按 enter 选择新的 CUDA 通道"},
		"channels":   {"Same version first", "同一版本排在前面"},
		"sources":    {"your URL:", "自定义地址"},
		"plan":       {"Run this plan?", "执行这个计划吗"},
		"installed":  {"Press enter to verify", "按 enter 开始验证"},
		"failed":     {"Install failed", "安装失败"},
		"passed":     {"Every check passed", "全部检查通过"},
		"done":       {"installed and verified", "已安装并通过验证"},
		"more":       {"more lines below", "下面还有"},
		"keeps":      {"This environment keeps its build by itself", "这个环境会自己保住版本"},
		"venv keeps": {"This venv keeps", "这个虚拟环境会自己保住"},
	}
	w := func(k string) string {
		if lang == "en" {
			return words[k][0]
		}
		return words[k][1]
	}
	// The bundle's path, wherever the screen wrapped it (a wrap may fall anywhere in it, and
	// unwrapping puts a space there): a path is no English.
	var pathRE strings.Builder
	for _, r := range embedded {
		pathRE.WriteString(regexp.QuoteMeta(string(r)) + `\s*`)
	}
	bundlePath := regexp.MustCompile(pathRE.String() + `[^\s]*`)
	check := func(what, scr string) {
		t.Helper()
		if lang != "en" {
			i18ntest.NoEnglishOnScreen(t, what, bundlePath.ReplaceAllString(unwrapped(scr), "PATH"))
		}
		t.Logf("%s:\n%s", what, scr)
	}

	t.Setenv("LC_CTYPE", "C.UTF-8") // tmux draws Chinese only when its client's locale is UTF-8
	s := startShell(t, bundle, r.env)
	s.Text(strings.Join([]string{r.bin, "--lang", lang, "--simulate", r.rig, "--matrix", r.matrix, "--sources", r.sources}, " ") + "; echo EXIT=$?")
	s.Keys("Enter")
	s.WaitFor(w("welcome"), 30*time.Second)
	s.Keys("2")
	s.WaitFor(w("which"), 15*time.Second)
	scr := s.WaitFor(w("nearby"), 30*time.Second)
	if !strings.Contains(scr, "ComfyUI_windows_portable") || !strings.Contains(scr, w("embedded")) {
		t.Fatalf("the bundle in the folder gpuwiz runs from is not listed:\n%s", scr)
	}
	check("the environment screen", scr)
	s.Keys("Down") // the arrow picks the found bundle into the path field
	s.WaitFor(w("holds"), 30*time.Second)
	s.Keys("Enter")
	s.WaitFor(w("next"), 30*time.Second)
	s.Keys("Enter")
	scr = s.WaitFor(w("channels"), 30*time.Second)
	if !strings.Contains(scr, "cu118") {
		t.Fatalf("the channel screen does not show the bundle's cu118:\n%s", scr)
	}
	s.Keys("Enter")
	s.WaitFor(w("sources"), 30*time.Second)
	s.Keys("Enter")
	scr = s.WaitFor(w("plan"), 60*time.Second)
	if !strings.Contains(scr, "cu126") {
		t.Fatalf("the plan is not a switch to cu126:\n%s", scr)
	}
	s.Keys("y")
	s.WaitFor(w("installed"), 180*time.Second, w("failed"))
	s.Keys("Enter")
	s.WaitFor(w("passed"), 120*time.Second)
	s.Keys("Enter")
	s.WaitFor(w("done"), 30*time.Second)
	scr = wholeScreenUntil(s, w("more"))
	check("the done screen", scr)
	// The bundle is no venv: the done screen says the environment keeps its build (issue 41).
	if !strings.Contains(unwrapped(scr), w("keeps")) || strings.Contains(scr, w("venv keeps")) {
		t.Fatalf("the done screen should say the environment keeps its build:\n%s", scr)
	}
	s.Keys("q")
	s.WaitFor("EXIT=0", 40*time.Second)
	if got := strings.TrimSpace(run(t, r.env, py, "-c", "import torch; print(torch.__version__)")); got != "2.6.0+cu126" {
		t.Fatalf("after the switch the bundle's own Python imports torch %q", got)
	}
	if _, err := os.Stat(filepath.Join(embedded, "pyvenv.cfg")); err == nil {
		t.Fatal("the switch made the bundle a venv")
	}
}
