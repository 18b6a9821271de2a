package pyenv

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"gpuwiz/steps/i18n/i18ntest"
	"gpuwiz/steps/runner"
)

// fakePython is a script that fails the way a broken interpreter does: it prints to stderr and exits 1.
func fakePython(t *testing.T) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("a shell script stands in for python")
	}
	p := filepath.Join(t.TempDir(), "python")
	if err := os.WriteFile(p, []byte("#!/bin/sh\necho 'Error: ensurepip is not available' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// A real venv is created and reused in Chinese; a real failing creation, a path that is a file and
// an interpreter that does not run are reported in Chinese, with the facts (paths, exit code, the
// child's last line) kept.
func TestVenvCreationInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	r := runner.New(nil)
	if py, err := exec.LookPath("python3"); err == nil {
		root := filepath.Join(t.TempDir(), "venv")
		if err := Create(context.Background(), r, py, root); err != nil {
			t.Fatal(err)
		}
		if err := Create(context.Background(), r, py, root); err != nil {
			t.Fatalf("reuse: %v", err)
		}
		if k := (Venv{Root: root}).Kind(); k != "虚拟环境" {
			t.Fatalf("kind %q", k)
		}
	}

	root := filepath.Join(t.TempDir(), "venv")
	err := Create(context.Background(), r, fakePython(t), root)
	if err == nil {
		t.Fatal("created with a failing python")
	}
	msg := err.Error()
	for _, want := range []string{"无法在 " + root + " 创建虚拟环境", "“创建虚拟环境”退出，退出码 1", "：Error: ensurepip is not available"} {
		if !strings.Contains(msg, want) {
			t.Errorf("missing %q in %q", want, msg)
		}
	}
	var ee *runner.ExitCodeError
	if !errors.As(err, &ee) || ee.Code != 1 {
		t.Errorf("the exit code is lost: %v", err)
	}
	// The child's own English line is data, not ours: check the rest.
	i18ntest.NoEnglishProse(t, "create failed", strings.Replace(msg, "Error: ensurepip is not available", "", 1))

	file := filepath.Join(t.TempDir(), "a-file")
	os.WriteFile(file, []byte("x"), 0o644)
	err = Create(context.Background(), r, "python3", file)
	if err == nil || !strings.Contains(err.Error(), file+" 是文件而不是目录") {
		t.Fatalf("file as venv: %v", err)
	}
	i18ntest.NoEnglishProse(t, "file as venv", err.Error())

	_, err = DescribeWith(context.Background(), r, fakePython(t), "linux")
	if err == nil || !strings.Contains(err.Error(), "无法作为 Python 运行") || !strings.Contains(err.Error(), "退出码 1") {
		t.Fatalf("describe: %v", err)
	}
	i18ntest.NoEnglishProse(t, "describe", strings.Replace(err.Error(), "Error: ensurepip is not available", "", 1))
}

func TestVenvPathChecksInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "stuff.txt"), nil, 0o644)
	long := filepath.Join(dir, strings.Repeat("x", 100), strings.Repeat("y", 100), "深度学习")
	checks := map[string]PathCheck{
		"empty":        CheckVenvPath(" ", "linux"),
		"not empty":    CheckVenvPath(dir, "linux"),
		"under a file": CheckVenvPath(filepath.Join(dir, "stuff.txt", "venv"), "linux"),
		"windows":      CheckVenvPath(long, "windows"),
	}
	for what, pc := range checks {
		all := append(append([]string{}, pc.Errors...), pc.Warnings...)
		if len(all) == 0 {
			t.Errorf("%s: nothing said", what)
		}
		for _, m := range all {
			i18ntest.NoEnglishProse(t, what, m)
		}
	}
	if e := checks["windows"].Errors; len(e) != 0 {
		t.Errorf("windows errors %q", e)
	}
	if w := checks["windows"].Warnings; len(w) != 2 || !strings.Contains(w[0], "非 ASCII") || !strings.Contains(w[1], "WinError 206") || !strings.Contains(w[1], "C:\\venvs\\torch") {
		t.Errorf("windows warnings %q", w)
	}
	if e := checks["not empty"].Errors; len(e) != 1 || !strings.Contains(e[0], filepath.Join(dir, "venv")) {
		t.Errorf("not empty: %q", e)
	}
}

func TestAdviceAndWarningsInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	texts := map[string]string{
		"windows":       NoPythonAdviceFor("windows", "3.12", Distro{}),
		"ubuntu":        NoPythonAdviceFor("linux", "3.12", Distro{ID: "ubuntu"}),
		"fedora":        NoPythonAdviceFor("linux", "3.12", Distro{ID: "fedora"}),
		"arch":          NoPythonAdviceFor("linux", "3.12", Distro{ID: "arch"}),
		"unknown":       NoPythonAdviceFor("linux", "3.12", Distro{ID: "gentoo"}),
		"novenv debian": NoVenvWarning(Interpreter{Version: "3.12.3", Kind: "system", VenvMissing: []string{"ensurepip"}, debianLayout: true}, Distro{ID: "ubuntu"}),
		"novenv both":   NoVenvWarning(Interpreter{Version: "3.12.3", Kind: "unknown", VenvMissing: []string{"venv", "ensurepip"}}, Distro{ID: "gentoo"}),
		"novenv fedora": NoVenvWarning(Interpreter{Version: "3.12.3", Kind: "system", VenvMissing: []string{"ensurepip"}}, Distro{ID: "fedora"}),
	}
	for _, w := range SupportWarnings(Interpreter{Version: "3.14.0", Bits: 32, Kind: "store"}, "3.9", "3.13") {
		texts["support "+w[:6]] = w
	}
	for _, w := range SupportWarnings(Interpreter{Version: "3.8.0", Bits: 64}, "3.9", "") {
		texts["too old"] = w
	}
	for _, w := range SupportWarnings(Interpreter{Version: "3.14.0", Bits: 64}, "", "3.13") {
		texts["too new"] = w
	}
	for what, s := range texts {
		i18ntest.NoEnglishProse(t, what, s)
	}
	for what, want := range map[string]string{
		"windows":       "gpuwiz python install 3.12",
		"ubuntu":        "python3.12-venv",
		"novenv both":   "venv 和 ensurepip",
		"novenv debian": "python3.12-venv",
		"too old":       "3.9 或更高",
		"too new":       "3.13 或更低",
	} {
		if !strings.Contains(texts[what], want) {
			t.Errorf("%s: %q lacks %q", what, texts[what], want)
		}
	}
	if n := len(SupportWarnings(Interpreter{Version: "3.14.0", Bits: 32, Kind: "store"}, "3.9", "3.13")); n != 3 {
		t.Errorf("%d support warnings", n)
	}

	env := t.TempDir()
	os.MkdirAll(filepath.Join(env, "conda-meta"), 0o755)
	os.WriteFile(filepath.Join(env, "conda-meta", "pytorch-2.5.1-py3.12_cuda12.4_0.json"), []byte(`{"name":"pytorch","version":"2.5.1"}`), 0o644)
	os.WriteFile(filepath.Join(env, "conda-meta", "cudnn-9.1.json"), []byte(`{"name":"cudnn","version":"9.1"}`), 0o644)
	w := CondaConflictWarnings(env, "torch")
	if len(w) != 2 {
		t.Fatalf("conda warnings %q", w)
	}
	for _, s := range w {
		i18ntest.NoEnglishProse(t, "conda", s)
		if !strings.Contains(s, "conda remove -p "+env) {
			t.Errorf("no command in %q", s)
		}
	}

	hints := Venv{Root: `C:\venvs\torch`, GOOS: "windows"}.ActivateHints()
	if len(hints) != 3 || !strings.Contains(hints[1], "Set-ExecutionPolicy") {
		t.Fatalf("hints %q", hints)
	}
	i18ntest.NoEnglishProse(t, "activate", hints[1])
}

// Another gpuwiz holding the venv: the error says so in Chinese, names its pid, and is still ErrLocked.
func TestLockHeldInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	root := filepath.Join(t.TempDir(), "venv")
	holder := exec.Command(os.Args[0])
	holder.Env = append(os.Environ(), "GPUWIZ_LOCK_HOLDER="+root)
	stdin, _ := holder.StdinPipe()
	stdout, _ := holder.StdoutPipe()
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	defer holder.Wait()
	defer stdin.Close()
	if line, _ := bufio.NewReader(stdout).ReadString('\n'); strings.TrimSpace(line) != "locked" {
		t.Fatalf("holder said %q", line)
	}
	_, err := Lock(root)
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "进程号 ") || !strings.Contains(err.Error(), root) {
		t.Fatalf("second lock: %v", err)
	}
	i18ntest.NoEnglishProse(t, "lock", err.Error())
}

// English stays as it was.
func TestEnglishUnchanged(t *testing.T) {
	got := NoVenvWarning(Interpreter{Version: "3.12.3", Kind: "unknown", VenvMissing: []string{"venv", "ensurepip"}}, Distro{ID: "gentoo"})
	want := "this Python cannot create a venv: its venv and ensurepip modules are missing: install a Python that has them (from python.org, pyenv or conda) and pass it with --python"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	got = SupportWarnings(Interpreter{Version: "3.14.0", Bits: 64}, "3.9", "3.13")[0]
	want = `Python 3.14 is not supported by this build (it needs 3.9 to 3.13): pip would say "from versions: none"; pick a Python in that range`
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
