package shellquote

import (
	"os/exec"
	"reflect"
	"strings"
	"testing"
)

// hard are arguments that break a command shown unquoted: spaces, Chinese, quotes, shell operators.
var hard = []string{"/tmp/nc 测试 目录/环境 一", "~/x", "it's", `a"b`, "$HOME", "a;b&c|d", "*", "", "-c", "--venv", "plain"}

// TestPosixRoundTripsThroughBash runs the line in a real bash and reads back the argv it got.
func TestPosixRoundTripsThroughBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	line := Posix(append([]string{"printf", `%s\0`}, hard...)...)
	out, err := exec.Command(bash, "--norc", "--noprofile", "-c", line).Output()
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if !reflect.DeepEqual(got, hard) {
		t.Fatalf("bash read %q from %s, want %q", got, line, hard)
	}
}

func TestWindowsLines(t *testing.T) {
	for _, c := range []struct {
		argv             []string
		cmd, ps, windows string
	}{
		{[]string{"gpuwiz", "doctor", "--venv", `C:\Users\张三\my venv`},
			`gpuwiz doctor --venv "C:\Users\张三\my venv"`, `gpuwiz doctor --venv 'C:\Users\张三\my venv'`, `gpuwiz doctor --venv "C:\Users\张三\my venv"`},
		{[]string{"gpuwiz", "doctor", "--venv", `C:\envs\torch`},
			`gpuwiz doctor --venv C:\envs\torch`, `gpuwiz doctor --venv C:\envs\torch`, `gpuwiz doctor --venv C:\envs\torch`},
		{[]string{`C:\Program Files\Python311\python.exe`, "-m", "pip"},
			`"C:\Program Files\Python311\python.exe" -m pip`, `& 'C:\Program Files\Python311\python.exe' -m pip`, `& 'C:\Program Files\Python311\python.exe' -m pip`},
		{[]string{"gpuwiz", "doctor", "--venv", `D:\a$b's (x)`},
			`gpuwiz doctor --venv "D:\a$b's (x)"`, `gpuwiz doctor --venv 'D:\a$b''s (x)'`, `gpuwiz doctor --venv 'D:\a$b''s (x)'`},
		{[]string{"pip", "install", "-c", `C:\a&b\constraints.txt`},
			`pip install -c "C:\a&b\constraints.txt"`, `pip install -c 'C:\a&b\constraints.txt'`, `pip install -c "C:\a&b\constraints.txt"`},
	} {
		if got := Cmd(c.argv...); got != c.cmd {
			t.Errorf("Cmd %q = %s, want %s", c.argv, got, c.cmd)
		}
		if got := PowerShell(c.argv...); got != c.ps {
			t.Errorf("PowerShell %q = %s, want %s", c.argv, got, c.ps)
		}
		if got := Command("windows", c.argv...); got != c.windows {
			t.Errorf("Windows %q = %s, want %s", c.argv, got, c.windows)
		}
	}
}

func TestCommandOnLinuxIsPosix(t *testing.T) {
	got := Command("linux", "gpuwiz", "doctor", "--venv", "/tmp/nc 测试 目录/环境 一")
	if want := "gpuwiz doctor --venv '/tmp/nc 测试 目录/环境 一'"; got != want {
		t.Fatalf("%s, want %s", got, want)
	}
}
