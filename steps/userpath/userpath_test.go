package userpath

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"gpuwiz/steps/i18n/i18ntest"
)

func TestNormalize(t *testing.T) {
	vars := map[string]string{"USERPROFILE": `C:\Users\张三`, "HOME": "/home/li", "WORK": "/srv/w"}
	get := func(k string) string { return vars[k] }
	linux := Env{GOOS: "linux", Home: "/home/li", Cwd: "/tmp/here", Getenv: get}
	win := Env{GOOS: "windows", Home: `C:\Users\张三`, Cwd: `D:\work`, Getenv: get}
	for _, c := range []struct {
		env     Env
		in, out string
	}{
		{linux, "", ""},
		{linux, "   ", ""},
		{linux, "~/x", "/home/li/x"},
		{linux, "~", "/home/li"},
		{linux, "venv-torch", "/tmp/here/venv-torch"},
		{linux, "./a/../b", "/tmp/here/b"},
		{linux, `"/tmp/quoted venv"`, "/tmp/quoted venv"},
		{linux, `  '/tmp/x y'  `, "/tmp/x y"},
		{linux, "$WORK/env", "/srv/w/env"},
		{linux, "${HOME}/env", "/home/li/env"},
		{linux, "/a//b/", "/a/b"},
		{linux, "~user/x", "/tmp/here/~user/x"}, // only ~ alone is the home directory
		{win, `"C:\Users\张三\My venv"`, `C:\Users\张三\My venv`},
		{win, `%USERPROFILE%\envs\torch`, `C:\Users\张三\envs\torch`},
		{win, `$env:USERPROFILE\envs`, `C:\Users\张三\envs`},
		{win, `~\envs`, `C:\Users\张三\envs`},
		{win, `venv-torch`, `D:\work\venv-torch`},
		{win, `..\x`, `D:\x`},
		{win, `c:/a/b`, `C:\a\b`},
		{win, `\x`, `D:\x`},
		{win, `\\server\share\v`, `\\server\share\v`},
	} {
		got, err := Normalize(c.in, c.env)
		if err != nil || got != c.out {
			t.Errorf("%s: Normalize(%q) = %q, %v; want %q", c.env.GOOS, c.in, got, err, c.out)
		}
	}
}

func TestNormalizeUnsetVariableIsAnError(t *testing.T) {
	for _, c := range []struct {
		goos, in string
	}{{"windows", `%NOPE%\x`}, {"linux", "$NOPE/x"}} {
		_, err := Normalize(c.in, Env{GOOS: c.goos, Cwd: "/", Getenv: func(string) string { return "" }})
		if !errors.Is(err, ErrUnset) {
			t.Errorf("%s %q: err %v, want ErrUnset", c.goos, c.in, err)
		}
	}
	i18ntest.Chinese(t)
	_, err := Normalize("$NOPE/x", Env{GOOS: "linux", Cwd: "/"})
	if err == nil {
		t.Fatal("no error in Chinese")
	}
	i18ntest.NoEnglishProse(t, "unset variable", err.Error())
}

func TestFlagNormalisesWhatIsSet(t *testing.T) {
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip(err)
	}
	var v string
	f := NewFlag(&v)
	if err := f.Set(`"~/envs/a b"`); err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(home, "envs", "a b"); v != want || f.String() != want {
		t.Fatalf("flag holds %q, want %q", v, want)
	}
}
