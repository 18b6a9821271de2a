package winetest

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gpuwiz/steps/testkit/tmux"
)

// startPane is a 100x30 tmux session on a private server, running a plain bash (steps/testkit/tmux),
// read every 200 ms (a Windows program under Wine draws slowly).
func startPane(t *testing.T, w *wineMachine) *tmux.Session {
	t.Helper()
	return tmux.Start(t, tmux.Options{Width: 100, Height: 30, Poll: 200 * time.Millisecond, Dir: w.dir, Env: append([]string{"TERM=xterm-256color", "PS1=$ "}, w.env...)})
}

// boxDrawing reports the first rune of U+2500-U+259F (box drawing, blocks) or U+2800-U+28FF (braille).
func boxDrawing(s string) (rune, bool) {
	for _, r := range s {
		if r >= 0x2500 && r <= 0x259f || r >= 0x2800 && r <= 0x28ff {
			return r, true
		}
	}
	return 0, false
}

// gpuSource puts the fake nvml.dll (testdata/fakenvml, built with mingw-w64) in the prefix's
// System32 and returns no flags; without mingw it falls back to --simulate with the RTX 3060 rig.
func (w *wineMachine) gpuSource(t *testing.T) (flags []string, cards []string) {
	t.Helper()
	src := filepath.Join(w.root, "testdata", "fakenvml", "fakenvml.c")
	_, errSrc := os.Stat(src)
	_, errGCC := exec.LookPath("x86_64-w64-mingw32-gcc")
	if errSrc != nil || errGCC != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but the fake nvml.dll cannot be built: source %v, mingw %v", errSrc, errGCC)
		}
		t.Logf("no fake nvml.dll (source %v, mingw %v): using --simulate", errSrc, errGCC)
		return []string{"--simulate", w.rig(t)}, []string{"NVIDIA GeForce RTX 3060"}
	}
	dll := filepath.Join(w.prefix, "drive_c", "windows", "system32", "nvml.dll")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if out, err := exec.CommandContext(ctx, "x86_64-w64-mingw32-gcc", "-shared", "-O2", "-o", dll, src).CombinedOutput(); err != nil {
		t.Fatalf("building the fake nvml.dll: %v\n%s", err, out)
	}
	t.Cleanup(func() { os.Remove(dll) })
	return nil, []string{"NVIDIA GeForce RTX 4090", "NVIDIA GeForce GTX 1080"}
}

// TestWizardUnderWineInTmux drives the real gpuwiz.exe wizard in a tmux pane under Wine: welcome,
// the GPU screen (cards from nvml.dll), the framework screen, the channel screen judged for Windows,
// all in --ascii, then q and the shell again.
func TestWizardUnderWineInTmux(t *testing.T) {
	w := windows(t)
	flags, cards := w.gpuSource(t)

	// What the same binary, judging for Windows, recommends: the channel screen must show that row.
	r := w.gpuwiz(t, nil, append(flags, "channels", "--json", "--framework", "torch")...)
	var sel struct {
		Facts       struct{ OS string }
		Recommended *struct {
			FrameworkVersion string `json:"framework_version"`
			Channel          string
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &sel); err != nil || sel.Recommended == nil || sel.Facts.OS != "windows" {
		t.Fatalf("channels --json (exit %d): %v %+v\n%s%s", r.code, err, sel, r.stdout, r.stderr)
	}

	p := startPane(t, w)
	p.WaitFor("$", 10*time.Second) // capture-pane trims the prompt's space
	cmd := append([]string{"wine", w.exe, "--ascii"}, flags...)
	p.Text(strings.Join(tmux.QuoteAll(cmd), " ") + "; echo EXIT=$?")
	p.Keys("Enter")
	screens := []string{p.WaitFor("Set up a new environment", 60*time.Second)}

	p.Keys("Enter")
	gpu := p.WaitFor("Press enter to choose a framework", 30*time.Second)
	screens = append(screens, gpu)
	for _, c := range cards {
		if !strings.Contains(gpu, c) {
			t.Errorf("the GPU screen lacks %s:\n%s", c, gpu)
		}
	}
	if flags == nil && !strings.Contains(gpu, "via nvml.dll") {
		t.Errorf("the GPU screen does not name nvml.dll as its source:\n%s", gpu)
	}

	p.Keys("Enter")
	screens = append(screens, p.WaitFor("versions in the matrix", 30*time.Second))
	p.Keys("Enter")
	ch := p.WaitFor("won't run here", 30*time.Second) // the channel screen's legend
	screens = append(screens, ch)
	var row string
	for _, l := range strings.Split(ch, "\n") {
		if strings.Contains(l, "* "+sel.Recommended.Channel+" ") || strings.Contains(l, "★ "+sel.Recommended.Channel+" ") {
			row = l
		}
	}
	if !strings.Contains(row, sel.Recommended.FrameworkVersion) {
		t.Errorf("the recommended row %q does not show torch %s:\n%s", row, sel.Recommended.FrameworkVersion, ch)
	}

	for i, s := range screens {
		if r, ok := boxDrawing(s); ok {
			t.Errorf("--ascii screen %d shows %q (U+%04X):\n%s", i, r, r, s)
		}
	}

	p.Keys("q")
	p.WaitFor("EXIT=0", 30*time.Second)
	n := rand.IntN(1_000_000)
	p.Text(fmt.Sprintf("echo done-$((%d+1))", n))
	p.Keys("Enter")
	p.WaitFor(fmt.Sprintf("done-%d", n+1), 10*time.Second)
}

// TestWizardInChineseUnderWineInTmux drives the real gpuwiz.exe wizard in Chinese (--lang zh-CN, box
// drawing on) in a tmux pane under Wine: welcome, GPU, framework and channel screens, then l on a
// fresh welcome switches to English, and q returns to the shell.
func TestWizardInChineseUnderWineInTmux(t *testing.T) {
	w := windows(t)
	flags, cards := w.gpuSource(t)
	p := startPane(t, w)
	p.WaitFor("$", 10*time.Second)
	cmd := append([]string{"wine", w.exe, "--lang", "zh-CN"}, flags...)
	p.Text(strings.Join(tmux.QuoteAll(cmd), " ") + "; echo EXIT=$?")
	p.Keys("Enter")
	welcome := p.WaitFor("新建环境", 60*time.Second)
	if !strings.Contains(welcome, "界面语言：简体中文") {
		t.Errorf("the welcome does not say its language:\n%s", welcome)
	}
	p.Keys("Enter")
	gpu := p.WaitFor("按 enter 选择框架", 30*time.Second)
	for _, c := range cards {
		if !strings.Contains(gpu, c) {
			t.Errorf("the GPU screen lacks %s:\n%s", c, gpu)
		}
	}
	p.Keys("Enter")
	p.WaitFor("个版本", 30*time.Second)
	p.Keys("Enter")
	ch := p.WaitFor("的 CUDA 通道", 30*time.Second) // the channel screen's title
	if !strings.Contains(ch, "无法在此运行") || !strings.Contains(ch, "esc 返回") || !strings.Contains(ch, "q 退出") {
		t.Errorf("the channel screen's legend or help bar is not Chinese:\n%s", ch)
	}
	// Back one screen at a time: escapes sent in one burst can reach the program as one key
	// sequence (ESC ESC reads as alt+esc), as they would from a user's key repeat. Each screen is
	// told by a line of its own appearing, not by the screen before going: Wine's console can leave
	// lines of the screen before on the next one (seen: the channel screen's legend, and its title
	// above the framework screen's).
	p.Keys("Escape")
	p.WaitFor("选择哪个框架、哪个版本", 30*time.Second)
	p.Keys("Escape")
	p.WaitFor("按 enter 选择框架", 30*time.Second)
	p.Keys("Escape")
	p.WaitFor("新建环境", 30*time.Second)
	p.Keys("l")
	p.WaitFor("Set up a new environment", 30*time.Second)
	p.Keys("q")
	p.WaitFor("EXIT=0", 30*time.Second)
}
