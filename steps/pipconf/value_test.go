package pipconf_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"gpuwiz/steps/pipconf"
)

// TestValueOrder: a PIP_* variable beats the command's section, which beats [global]; an empty
// value is skipped, as pip's option parser skips it.
func TestValueOrder(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "pip.conf"), "[global]\nproxy = http://global:1\ncert = /g.pem\ntimeout = 5\n[install]\nproxy = http://install:2\ntimeout =\n")
	env := []string{"HOME=" + root, "XDG_CONFIG_DIRS=" + root, "PIP_CONFIG_FILE=" + filepath.Join(root, "pip.conf"), "PIP_CERT=/env.pem"}
	c := pipconf.Read(pipconf.Source{Environ: env})
	for _, w := range []struct{ command, name, want string }{
		{"install", "proxy", "http://install:2"},
		{"download", "proxy", "http://global:1"},
		{"install", "cert", "/env.pem"},
		{"install", "timeout", "5"},
		{"install", "index-url", ""},
	} {
		if got, _ := c.Value(w.command, w.name); got != w.want {
			t.Errorf("%s %s = %q, want %q", w.command, w.name, got, w.want)
		}
	}
	if s := c.Winning("install.proxy"); s == nil || s.File != filepath.Join(root, "pip.conf") || s.Kind != pipconf.KindEnv {
		t.Errorf("install.proxy from %+v", s)
	}
}

// TestReadCached: the machine's files are parsed once per prefix and environment, and again once
// one of them changes.
func TestReadCached(t *testing.T) {
	root := t.TempDir()
	site := filepath.Join(root, "pip.conf")
	write(t, site, "[global]\nproxy = http://one:1\n")
	src := pipconf.Source{Prefix: root, Environ: []string{"HOME=" + root, "XDG_CONFIG_DIRS=" + root}}
	before := pipconf.Reads()
	for range 3 {
		if v, _ := pipconf.Read(src).Value("install", "proxy"); v != "http://one:1" {
			t.Fatalf("proxy %q", v)
		}
	}
	if n := pipconf.Reads() - before; n != 1 {
		t.Fatalf("parsed %d times, want 1", n)
	}
	write(t, site, "[global]\nproxy = http://two:22\n")
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(site, later, later); err != nil {
		t.Fatal(err)
	}
	if v, _ := pipconf.Read(src).Value("install", "proxy"); v != "http://two:22" {
		t.Fatalf("after the change: proxy %q", v)
	}
}

// The proxy pip takes from its configuration: PIP_PROXY beats the files.
func TestNetProxyFromConfigList(t *testing.T) {
	file := func(sect, name, value string) pipconf.Setting {
		return pipconf.Setting{Kind: pipconf.KindUser, File: "/home/u/.config/pip/pip.conf", Section: sect, Name: name, Value: value}
	}
	out := pipconf.Config{Settings: []pipconf.Setting{file("global", "index-url", "https://pypi.tuna.tsinghua.edu.cn/simple"), file("global", "proxy", "http://u:p@proxy.corp:8080"), file("install", "timeout", "60")}}
	if got := out.Net().Proxy; got != "http://u:p@proxy.corp:8080" {
		t.Fatalf("%q", got)
	}
	withEnv := pipconf.Config{Settings: append(out.Settings, pipconf.Setting{Kind: pipconf.KindEnvVar, Var: "PIP_PROXY", Section: pipconf.EnvSection, Name: "proxy", Value: "http://env:3128"})}
	if got := withEnv.Net().Proxy; got != "http://env:3128" {
		t.Fatalf("env wins: %q", got)
	}
	if got := (pipconf.Config{Settings: []pipconf.Setting{file("global", "index-url", "x")}}).Net().Proxy; got != "" {
		t.Fatalf("%q", got)
	}
}
