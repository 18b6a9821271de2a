package install

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"gpuwiz/steps/pipconf"
	"gpuwiz/steps/testkit/pyindex"
)

// One install reads pip's configuration without starting pip for it: its log holds pip's steps
// but no `pip config list`, and a setting in the venv's own pip.conf (its sys.prefix, as pip reads
// it) is still named among the plan's warnings, with the file.
func TestInstallStartsNoPipConfigList(t *testing.T) {
	ix := serve(t)
	v := pyindex.NewVenv(t, "")
	home := t.TempDir()
	site := filepath.Join(v.Root, "pip.conf")
	if err := os.WriteFile(site, []byte("[install]\nno-binary = :none:\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := options(t, v, torchTarget(ix, "cu126"), t.TempDir())
	var env []string
	for _, kv := range o.Environ {
		if !strings.HasPrefix(kv, "PIP_CONFIG_FILE=") { // pip's files are read here, the venv's among them
			env = append(env, kv)
		}
	}
	o.Environ = append(env, "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, "config"), "XDG_CONFIG_DIRS="+filepath.Join(home, "xdg"))
	if cfg := pipconf.Read(pipconf.Source{Prefix: v.Root, Environ: o.Environ}); cfg.Items()["install.no-binary"] != ":none:" {
		t.Fatalf("the venv's pip.conf is not read: %+v", cfg)
	}
	plan, out, _ := install(t, context.Background(), o, nil)
	if !out.OK() {
		t.Fatalf("install: %+v", out)
	}
	named := false
	for _, w := range plan.Warnings {
		named = named || strings.Contains(w, "no-binary") && strings.Contains(w, site)
	}
	if !named {
		t.Errorf("the venv's no-binary setting is not named with its file: %q", plan.Warnings)
	}
	log, err := os.ReadFile(o.LogPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), " -m pip install ") {
		t.Fatalf("the log holds no pip step:\n%s", log)
	}
	if strings.Contains(string(log), "config list") {
		t.Fatalf("the install started pip config list:\n%s", log)
	}
}

// The user's pip configuration cannot pull the framework's pip steps to another index: an
// extra-index-url and a find-links in the venv's pip.conf are never asked (an empty PIP_* variable
// would not cancel them: pip skips empty values), while its network settings still reach pip as
// variables.
func TestFrameworkPipAsksNoIndexFromTheUsersConfig(t *testing.T) {
	var asked atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		http.NotFound(w, r)
	}))
	defer other.Close()
	ix := serve(t)
	v := pyindex.NewVenv(t, "")
	home := t.TempDir()
	conf := "[global]\nextra-index-url = " + other.URL + "/simple\nfind-links = " + other.URL + "/links\ntimeout = 7\ntrusted-host =\n    a.example\n    b.example\n"
	if err := os.WriteFile(filepath.Join(v.Root, "pip.conf"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	o := options(t, v, torchTarget(ix, "cu126"), t.TempDir())
	var env []string
	for _, kv := range o.Environ {
		if !strings.HasPrefix(kv, "PIP_CONFIG_FILE=") {
			env = append(env, kv)
		}
	}
	o.Environ = append(env, "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, "config"), "XDG_CONFIG_DIRS="+filepath.Join(home, "xdg"))

	// What pip itself makes of the framework's environment.
	fw := frameworkEnv(o.Environ, ix.ChannelURL("cu126"), pipconf.Read(pipconf.Source{Prefix: v.Root, Environ: o.Environ}))
	cmd := exec.Command(v.Python(), "-m", "pip", "config", "list")
	cmd.Env = fw
	got, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("pip config list: %v\n%s", err, got)
	}
	for _, want := range []string{":env:.timeout='7'", ":env:.trusted-host='a.example b.example'"} {
		if !strings.Contains(string(got), want) {
			t.Errorf("pip does not see %s:\n%s", want, got)
		}
	}
	if strings.Contains(string(got), other.URL) {
		t.Errorf("pip still sees the user's index settings:\n%s", got)
	}

	_, out, _ := install(t, context.Background(), o, nil)
	if !out.OK() {
		t.Fatalf("install: %+v", out)
	}
	if n := asked.Load(); n != 0 {
		t.Fatalf("the framework's pip steps asked the pip.conf's other index %d times", n)
	}
}
