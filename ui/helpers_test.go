package ui

import (
	"context"
	"gpuwiz/steps/userpath"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"gpuwiz/steps/app"
)

func TestMain(m *testing.M) {
	lipgloss.SetColorProfile(termenv.Ascii)
	// The list of venvs gpuwiz worked on lives in the user config dir: the tests keep theirs apart.
	dir, err := os.MkdirTemp("", "gpuwiz-ui-config-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CONFIG_HOME", dir)
	os.Setenv("APPDATA", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func testCommon(fb App, ascii bool) *Common {
	c := NewCommon(context.Background(), app.Globals{SimulateFile: "rig.json", ASCII: ascii}, fb)
	c.OS = "linux" // the GPU screen's notes differ per OS: goldens are made for Linux
	// Typed paths are read against a fixed home and working directory: goldens do not depend on
	// where the tests run.
	c.Paths = &userpath.Env{GOOS: "linux", Home: "/home/me", Cwd: "/work",
		Getenv: func(k string) string { return map[string]string{"DATA": "/data"}[k] }}
	return c
}

func newTestRoot(fb App) *Model {
	m := NewModel(testCommon(fb, false))
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	return m
}

func keyMsg(k string) tea.KeyMsg {
	switch k {
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "left":
		return tea.KeyMsg{Type: tea.KeyLeft}
	case "right":
		return tea.KeyMsg{Type: tea.KeyRight}
	case "ctrl+c":
		return tea.KeyMsg{Type: tea.KeyCtrlC}
	case "backspace":
		return tea.KeyMsg{Type: tea.KeyBackspace}
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// runCmd executes cmd and every command of a batch, returning the messages they produced. Spinner
// ticks are dropped so that settling ends.
func runCmd(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	switch msg := msg.(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range msg {
			out = append(out, runCmd(c)...)
		}
		return out
	case tea.QuitMsg:
		return []tea.Msg{msg}
	case spinner.TickMsg:
		return nil
	}
	return []tea.Msg{msg}
}

// settle feeds msg to the model and then every message its commands produce, until none is left;
// it reports whether the model asked to quit.
func settle(t *testing.T, m tea.Model, msgs ...tea.Msg) (quit bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for len(msgs) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("model did not settle; pending %T", msgs[0])
		}
		msg := msgs[0]
		msgs = msgs[1:]
		if _, ok := msg.(tea.QuitMsg); ok {
			return true
		}
		_, cmd := m.Update(msg)
		msgs = append(msgs, runCmd(cmd)...)
	}
	return false
}

func press(t *testing.T, m tea.Model, keys ...string) (quit bool) {
	t.Helper()
	for _, k := range keys {
		if settle(t, m, keyMsg(k)) {
			return true
		}
	}
	return false
}

func typeText(t *testing.T, m tea.Model, s string) {
	t.Helper()
	for _, r := range s {
		settle(t, m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
}

func clearInput(t *testing.T, m tea.Model, n int) {
	for i := 0; i < n; i++ {
		settle(t, m, keyMsg("backspace"))
	}
}

func mustContain(t *testing.T, view string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(view, w) {
			t.Fatalf("view lacks %q:\n%s", w, view)
		}
	}
}

func topIs[T screen](t *testing.T, m *Model) T {
	t.Helper()
	s, ok := m.top().(T)
	if !ok {
		t.Fatalf("top screen is %T", m.top())
	}
	return s
}

// drainInstall is the install screen's next batch without waiting for the tick.
func drainInstall(job *installJob) installBatchMsg { return job.drain() }
