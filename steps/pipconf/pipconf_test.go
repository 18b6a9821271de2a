package pipconf_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"gpuwiz/steps/pipconf"
	"gpuwiz/steps/testkit/pyindex"
)

// pyRepr is Python's repr of a str (what `pip config list` prints with %r).
func pyRepr(s string) string {
	q := "'"
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		q = `"`
	}
	var b strings.Builder
	b.WriteString(q)
	for _, r := range s {
		switch {
		case string(r) == q || r == '\\':
			b.WriteString(`\` + string(r))
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x7f || unicode.IsPrint(r):
			b.WriteRune(r)
		case r <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	b.WriteString(q)
	return b.String()
}

// list is c as `pip config list` prints it: key=repr(value), keys sorted.
func list(c pipconf.Config) string {
	items := c.Items()
	keys := make([]string, 0, len(items))
	for k := range items {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k + "=" + pyRepr(items[k]) + "\n")
	}
	return b.String()
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReadMatchesPipConfigList compares Read with the real `pip config list` of a real venv's pip
// for files of every kind, PIP_CONFIG_FILE, PIP_* variables and configparser's syntax.
func TestReadMatchesPipConfigList(t *testing.T) {
	venv := pyindex.NewVenv(t, "")
	type setup struct {
		root, home, xdgHome, xdgDirs1, xdgDirs2, site string
		env                                           []string
	}
	cases := []struct {
		name    string
		prepare func(s *setup)
		fails   bool // pip refuses the configuration
	}{
		{"nothing", func(s *setup) {}, false},
		{"every kind, later beats earlier", func(s *setup) {
			write(t, filepath.Join(s.xdgDirs1, "pip", "pip.conf"), "[global]\nindex-url = https://g1.example/simple\ntimeout = 10\n[install]\nretries = 1\n")
			write(t, filepath.Join(s.xdgDirs2, "pip", "pip.conf"), "[global]\nindex-url = https://g2.example/simple\nproxy = http://g2:3128\n")
			write(t, filepath.Join(s.home, ".pip", "pip.conf"), "[global]\nindex-url = https://legacy.example/simple\ncert = /legacy.pem\n[download]\nproxy = http://dl:1\n")
			write(t, filepath.Join(s.xdgHome, "pip", "pip.conf"), "[global]\nindex-url = https://user.example/simple\n[install]\nproxy = http://inst:2\n")
			write(t, s.site, "[global]\ntimeout = 60\n[install]\nextra-index-url = https://site.example/simple\n")
			s.env = append(s.env, "PIP_PROXY=http://env:3128", "PIP_EXTRA_INDEX_URL=https://a.example/simple https://b.example/simple")
		}, false},
		{"no XDG_CONFIG_HOME: ~/.config", func(s *setup) {
			s.xdgHome = ""
			write(t, filepath.Join(s.home, ".config", "pip", "pip.conf"), "[global]\nindex-url = https://dotconfig.example/simple\n")
			write(t, filepath.Join(s.home, ".pip", "pip.conf"), "[global]\nindex-url = https://legacy.example/simple\nfind-links = /opt/wheels\n")
		}, false},
		{"PIP_CONFIG_FILE drops the user files and beats the site's", func(s *setup) {
			f := filepath.Join(s.root, "custom.conf")
			write(t, f, "[global]\nindex-url = https://custom.example/simple\n[install]\nno-cache-dir = true\n")
			write(t, filepath.Join(s.xdgHome, "pip", "pip.conf"), "[global]\nproxy = http://user:1\n")
			write(t, s.site, "[global]\nindex-url = https://site.example/simple\ntimeout = 3\n")
			s.env = append(s.env, "PIP_CONFIG_FILE="+f)
		}, false},
		{"PIP_CONFIG_FILE missing keeps the user files", func(s *setup) {
			write(t, filepath.Join(s.xdgHome, "pip", "pip.conf"), "[global]\nproxy = http://user:1\n")
			s.env = append(s.env, "PIP_CONFIG_FILE="+filepath.Join(s.root, "nowhere.conf"))
		}, false},
		{"PIP_CONFIG_FILE=os.devnull reads no file", func(s *setup) {
			write(t, filepath.Join(s.xdgHome, "pip", "pip.conf"), "[global]\nproxy = http://user:1\n")
			write(t, s.site, "[global]\ntimeout = 3\n")
			s.env = append(s.env, "PIP_CONFIG_FILE="+os.DevNull, "PIP_TIMEOUT=7")
		}, false},
		{"variables", func(s *setup) {
			s.env = append(s.env, "PIP_INDEX_URL=https://env.example/simple", "PIP_no_deps=1", "pip_lower=x", "PIP_VERSION=1", "PIP_HELP=1",
				"PIP_NO_CACHE_DIR=", "PIP_FIND_LINKS=/a /b", "PIP_CERT=/c.pem")
		}, false},
		{"configparser syntax", func(s *setup) {
			write(t, filepath.Join(s.xdgHome, "pip", "pip.conf"), strings.Join([]string{
				"# a comment",
				"; another",
				"[DEFAULT]",
				"retries = 4",
				"[global]",
				"Index_URL : https://colon.example/simple",
				"index-url = https://later.example/simple",
				"extra-index-url =",
				"    https://one.example/simple",
				"",
				"    # not a value",
				"\thttps://two.example/simple",
				"",
				"",
				"trusted-host = a = b",
				"  --timeout   =   5   ",
				"--timeout   =   6   ",
				"cert=/путь/证书.pem",
				"[install]",
				"retries: 9",
				"index-url = https://dash.example/simple",
				"index_url = https://underscore.example/simple",
				"no-binary = :all:",
				"[Global]",
				"proxy = http://case.example:1",
				"[sec] trailing",
				"k = v",
				"[]]",
				"k = v",
				"",
			}, "\n"))
			write(t, s.site, "[global]\r\nfind-links = /one\r\n  /two\r\n[install]\rtimeout = 30\r")
		}, false},
		{"duplicate option", func(s *setup) {
			write(t, filepath.Join(s.xdgHome, "pip", "pip.conf"), "[global]\nindex-url = a\nINDEX-URL = b\n")
		}, true},
		{"duplicate section", func(s *setup) {
			write(t, s.site, "[global]\na = 1\n[global]\nb = 2\n")
		}, true},
		{"no section header", func(s *setup) {
			write(t, s.site, "index-url = https://x.example/simple\n")
		}, true},
		{"a line without a delimiter", func(s *setup) {
			write(t, s.site, "[global]\nindex-url = https://x.example/simple\nnonsense\n")
		}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			s := &setup{root: root, home: filepath.Join(root, "home"), xdgHome: filepath.Join(root, "xdg-home"),
				xdgDirs1: filepath.Join(root, "xdg-dirs1"), xdgDirs2: filepath.Join(root, "xdg-dirs2"), site: filepath.Join(venv.Root, "pip.conf")}
			t.Cleanup(func() { os.Remove(s.site) })
			s.env = []string{"PATH=" + os.Getenv("PATH"), "LC_ALL=C.UTF-8", "HOME=" + s.home, "XDG_CONFIG_DIRS=" + s.xdgDirs1 + ":" + s.xdgDirs2}
			c.prepare(s)
			if s.xdgHome != "" {
				s.env = append(s.env, "XDG_CONFIG_HOME="+s.xdgHome)
			}
			cmd := exec.Command(venv.Python(), "-m", "pip", "config", "list")
			cmd.Env = s.env
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			got := pipconf.Read(pipconf.Source{Prefix: venv.Root, Environ: s.env})
			if (err != nil) != c.fails || (got.Err != nil) != c.fails {
				t.Fatalf("pip's error %v (%s), Read's %v; want failure %v", err, stderr.String(), got.Err, c.fails)
			}
			if c.fails {
				return
			}
			if want := stdout.String(); list(got) != want {
				t.Fatalf("Read:\n%s\npip config list:\n%s", list(got), want)
			}
		})
	}
}
