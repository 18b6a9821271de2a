package ui

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n/i18ntest"
	"gpuwiz/steps/userpath"
)

// What the project step's field takes: a pasted path (spaces, quotes, ~, relative), -r FILE, paths
// and package names mixed; a file that is not there is said before pip runs.
func TestParseAddInputReadsPathsAndPackages(t *testing.T) {
	home := t.TempDir()
	cwd := filepath.Join(home, "my project")
	os.MkdirAll(cwd, 0o755)
	req := filepath.Join(cwd, "requirements.txt")
	dev := filepath.Join(cwd, "dev.txt")
	os.WriteFile(req, []byte("projx\n"), 0o644)
	os.WriteFile(dev, []byte("pytest\n"), 0o644)
	env := userpath.Env{GOOS: "linux", Home: home, Cwd: cwd, Getenv: os.Getenv}
	for _, c := range []struct {
		in        string
		files     []string
		pkgs      []string
		errSubstr string
	}{
		{in: req, files: []string{req}},
		{in: `"` + req + `"`, files: []string{req}},
		{in: "~/my project/requirements.txt", files: []string{req}},
		{in: "requirements.txt", files: []string{req}},
		{in: "-r dev.txt ultralytics opencv-python<5", files: []string{dev}, pkgs: []string{"ultralytics", "opencv-python<5"}},
		{in: "ultralytics", pkgs: []string{"ultralytics"}},
		{in: "nope.txt", errSubstr: "nope.txt does not exist"},
		{in: "projx -r", errSubstr: "-r needs a file"},
	} {
		got, err := parseAddInput(c.in, env)
		if c.errSubstr != "" {
			if err == nil || !strings.Contains(err.Error(), c.errSubstr) {
				t.Errorf("%q: error %v, want %q", c.in, err, c.errSubstr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got.Requirements, c.files) || !reflect.DeepEqual(got.Packages, c.pkgs) {
			t.Errorf("%q: %+v %v, want files %v packages %v", c.in, got, err, c.files, c.pkgs)
		}
	}
}

// The add screen says where the project's packages will come from before the preview runs (the
// mirror the venv's build was installed with, by name and URL) and where the framework's own
// packages stay; tab opens the chooser, and the source chosen there (the pip settings, or a typed
// index) is said on the screen and reaches the add's request as its typed Source.
func TestAddScreenSaysWhereThePackagesComeFromAndTakesAnother(t *testing.T) {
	fb := newFakeBackend()
	m := newJourneyToPlan(t, fb)
	press(t, m, "y", "enter", "enter", "a")
	topIs[*addScreen](t, m)
	mustContain(t, flat(m.View()), "come from Aliyun PyPI mirror (https://mirrors.aliyun.com/pypi/simple/), the mirror the venv's build was installed with",
		"The framework's own packages stay on https://download.pytorch.org/whl/cu126", "tab change where packages come from")

	press(t, m, "tab")
	topIs[*addSourceScreen](t, m)
	mustContain(t, m.View(), "▸ Aliyun PyPI mirror", "Your pip settings: PyPI", "Tsinghua TUNA PyPI mirror", "https://pypi.tuna.tsinghua.edu.cn/simple", "Another index:")
	press(t, m, "down", "enter")
	topIs[*addScreen](t, m)
	mustContain(t, flat(m.View()), "Your project's packages come from PyPI", "stay as installed: the venv's constraints hold them")
	typeText(t, m, "projx")
	press(t, m, "enter")
	mustContain(t, m.View(), "would be added")
	if got := fb.adds[len(fb.adds)-1].Source; got.Kind != app.AddFromPipSettings {
		t.Fatalf("the add asked for source %+v, want the pip settings", got)
	}

	// Back to the field (tab), to the chooser (tab), down to the URL row: a URL that is no index is
	// refused there, a typed one is taken, with the framework's index beside it.
	press(t, m, "tab", "tab", "down", "down", "down")
	typeText(t, m, "ftp://mirror.example/simple")
	press(t, m, "enter")
	topIs[*addSourceScreen](t, m)
	clearInput(t, m, len("ftp://mirror.example/simple"))
	typeText(t, m, "https://my.example/simple")
	press(t, m, "enter")
	topIs[*addScreen](t, m)
	mustContain(t, flat(m.View()), "Your project's packages come from https://my.example/simple.", "stay on https://download.pytorch.org/whl/cu126")
	press(t, m, "enter")
	want := app.AddSource{Kind: app.AddFromMirror, IndexURL: "https://my.example/simple", Beside: "https://download.pytorch.org/whl/cu126"}
	if got := fb.adds[len(fb.adds)-1].Source; got != want {
		t.Fatalf("the add asked for source %+v, want %+v", got, want)
	}
}

// flat is a view's words on one line, one space between them: a sentence the screen wrapped reads whole.
func flat(view string) string { return strings.Join(strings.Fields(view), " ") }

// A preview pip could not make is said in the interface's words: what failed, what to do, where
// pip's whole output is; pip's own lines (a retry warning per try) stay in the log. In Chinese the
// screen holds no English.
func TestAddFailureIsSaidInWordsNotInPipsLines(t *testing.T) {
	for _, zh := range []bool{false, true} {
		if zh {
			i18ntest.Chinese(t)
		}
		m := newJourneyToPlan(t, newFakeBackend())
		press(t, m, "y", "enter", "enter", "a")
		typeText(t, m, "offline")
		press(t, m, "enter")
		v := ansi.Strip(m.View())
		for _, raw := range []string{"Retrying", "WARNING", "ERROR", "NewConnectionError", "No matching distribution", "pip said"} {
			if strings.Contains(v, raw) {
				t.Errorf("the screen shows pip's %q:\n%s", raw, v)
			}
		}
		if zh {
			mustContain(t, flat(v), "安装源没有响应", "请检查网络连接和代理设置", "/home/me/.cache/gpuwiz/logs/add-20261203-101500.log")
			i18ntest.NoEnglishOnScreen(t, "the failed preview", v)
		} else {
			mustContain(t, flat(v), "pip got no answer from the package source", "Check the network connection and proxy settings",
				"pip's whole output is in /home/me/.cache/gpuwiz/logs/add-20261203-101500.log")
		}
	}
}
