package pyget

import (
	"context"
	"crypto/sha256"
	"errors"
	"os"
	"strings"
	"testing"

	"gpuwiz/steps/i18n/i18ntest"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
)

// Every plan (winget, the python.org installer from a mirror, a Linux distribution known or not)
// and every refused request says its words in Chinese; the values (commands, URLs, --json method)
// stay as they are.
func TestPlansInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	winget := func(string) (string, error) { return `C:\winget.exe`, nil }
	p, err := MakePlan(Options{Version: "3.12", GOOS: "windows", Env: env(map[string]string{"LOCALAPPDATA": `C:\Users\u\AppData\Local`}), LookPath: winget})
	if err != nil || p.Method != MethodWinget || len(p.Notes) != 1 {
		t.Fatalf("winget plan %+v %v", p, err)
	}
	i18ntest.NoEnglishProse(t, "winget note", p.Notes[0])

	o := Options{Version: "3.12", GOOS: "windows", Mirror: "https://mirrors.huaweicloud.com/python/", Env: env(map[string]string{"LOCALAPPDATA": `C:\Users\u\AppData\Local`}), LookPath: noWinget}
	p, err = MakePlan(o)
	if err != nil || p.Method != MethodInstaller || !strings.Contains(p.ChecksumFrom, "python-3.12.10-amd64.exe") {
		t.Fatalf("installer plan %+v %v", p, err)
	}
	if MethodName(p.Method) != "python.org 安装程序" {
		t.Errorf("method name %q", MethodName(p.Method))
	}
	i18ntest.NoEnglishProse(t, "carried checksum", p.ChecksumFrom)
	o.Version = "3.12.11"
	p, err = MakePlan(o)
	if err != nil || p.ChecksumFrom != OfficialBase+"3.12.11/python-3.12.11-amd64.exe.sigstore" {
		t.Fatalf("unknown release plan %+v %v", p, err)
	}
	i18ntest.NoEnglishProse(t, "checksum from", p.ChecksumFrom)

	for _, id := range []string{"ubuntu", "fedora", "arch", "gentoo"} {
		d := pyenv.Distro{ID: id}
		p, err := MakePlan(Options{Version: "3.12", GOOS: "linux", Distro: &d})
		if err != nil || p.Method != MethodDistro || len(p.Notes) < 1 {
			t.Fatalf("%s: %+v %v", id, p, err)
		}
		for _, n := range p.Notes {
			i18ntest.NoEnglishProse(t, id, n)
		}
		_, err = Run(context.Background(), Options{GOOS: "linux", Distro: &d}, p)
		if err == nil {
			t.Fatal("Run installed something on Linux")
		}
		i18ntest.NoEnglishProse(t, "run on linux", err.Error())
	}

	for what, o := range map[string]Options{
		"no version":      {Version: " "},
		"bad version":     {Version: "2.7"},
		"unknown minor":   {Version: "3.8", GOOS: "windows", Env: env(map[string]string{"LOCALAPPDATA": `C:\x`}), LookPath: noWinget},
		"bad sha256":      {Version: "3.12.11", GOOS: "windows", SHA256: "abc", Env: env(map[string]string{"LOCALAPPDATA": `C:\x`}), LookPath: noWinget},
		"no LOCALAPPDATA": {Version: "3.12", GOOS: "windows", Env: env(nil)},
		"bad mirror":      {Version: "3.12", GOOS: "windows", Mirror: "http://example.com/python/", Env: env(map[string]string{"LOCALAPPDATA": `C:\x`})},
	} {
		_, err := MakePlan(o)
		if !errors.Is(err, ErrBadInput) {
			t.Errorf("%s: %v", what, err)
			continue
		}
		if strings.Contains(err.Error(), "bad input") {
			t.Errorf("%s: %q", what, err)
		}
		i18ntest.NoEnglishProse(t, what, err.Error())
	}
}

// A real run in Chinese: the checksum is fetched from the mirror, the installer downloaded, checked,
// run and the new Python found; each step's message is Chinese. Then a tampered download and an
// installer that fails are refused in Chinese, with the facts kept.
func TestRunInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	f := newFixture(t)
	var events []Event
	o := f.options(t, &events)
	p, err := MakePlan(o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), o, p); err != nil {
		t.Fatalf("run: %v", err)
	}
	steps := map[string]bool{}
	for _, e := range events {
		if e.Message != "" {
			steps[e.Step] = true
			i18ntest.NoEnglishProse(t, "event "+e.Step, e.Message)
		}
	}
	if len(steps) != 4 {
		t.Fatalf("messages from %v only: %+v", steps, events)
	}

	f = newFixture(t)
	other := sha256.Sum256([]byte("another file"))
	f.digest = other[:]
	o = f.options(t, nil)
	p, _ = MakePlan(o)
	res, err := Run(context.Background(), o, p)
	if !errors.Is(err, ErrChecksum) || res.Installed || !strings.HasPrefix(err.Error(), "校验值不符：") || !strings.Contains(err.Error(), p.URL) {
		t.Fatalf("checksum: %v", err)
	}
	i18ntest.NoEnglishProse(t, "checksum", err.Error())

	f = newFixture(t)
	f.body = []byte("#!/bin/sh\necho 'Fatal error during installation.' >&2\nexit 3\n")
	sum := sha256.Sum256(f.body)
	f.digest = sum[:]
	o = f.options(t, nil)
	p, _ = MakePlan(o)
	res, err = Run(context.Background(), o, p)
	var ee *runner.ExitCodeError
	if err == nil || res.Installed || !errors.As(err, &ee) || ee.Code != 3 {
		t.Fatalf("failing installer: %v %+v", err, res)
	}
	msg := err.Error()
	for _, want := range []string{"安装失败（python.org 安装程序）：“安装 Python”退出，退出码 3", "安装程序日志：" + p.InstallLog} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q lacks %q", msg, want)
		}
	}
	i18ntest.NoEnglishProse(t, "failing installer", strings.Replace(msg, "Fatal error during installation.", "", 1))
	if res.Error != msg {
		t.Errorf("result error %q", res.Error)
	}
	os.Remove(p.Installer)
}

// English stays as it was.
func TestEnglishPlanUnchanged(t *testing.T) {
	_, err := MakePlan(Options{Version: "2.7"})
	if err == nil || err.Error() != `bad input: Python version "2.7": give 3.X or 3.X.Y (for example 3.12)` {
		t.Fatalf("%v", err)
	}
	p, _ := MakePlan(Options{Version: "3.12", GOOS: "windows", Env: env(map[string]string{"LOCALAPPDATA": `C:\x`}), LookPath: noWinget})
	if p.ChecksumFrom != "carried by gpuwiz (python.org's published SHA-256 for python-3.12.10-amd64.exe)" {
		t.Fatalf("%q", p.ChecksumFrom)
	}
}
