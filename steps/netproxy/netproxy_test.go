package netproxy

import (
	"net/url"
	"testing"
)

func proxyFor(t *testing.T, r *Resolver, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	p, err := r.ForURL(u)
	if err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	if p == nil {
		return ""
	}
	return p.String()
}

// The order pip follows: its own setting (nothing else then counts, NO_PROXY included), else any
// *_proxy variable (NO_PROXY alone is enough to keep the registry out, as getproxies() returns the
// environment's dict when it is not empty), else the system proxy.
func TestOrderIsPipThenEnvironmentThenSystem(t *testing.T) {
	sys := &System{Enable: true, Server: "127.0.0.1:7890"}
	cases := []struct {
		name     string
		s        Settings
		url      string
		want     string
		from     From
		settings string
	}{
		{"pip wins", Settings{Pip: "corp:3128", Environ: []string{"HTTPS_PROXY=http://env:1", "NO_PROXY=pypi.org"}, System: sys}, "https://pypi.org/simple/", "http://corp:3128", FromPip, "http://corp:3128 (pip's proxy setting)"},
		{"environment over the system", Settings{Environ: []string{"HTTPS_PROXY=http://u:pw@env:1"}, System: sys}, "https://pypi.org/simple/", "http://u:pw@env:1", FromEnv, "HTTPS_PROXY=http://***@env:1"},
		{"lower case wins", Settings{Environ: []string{"https_proxy=http://low:1", "HTTPS_PROXY=http://up:1"}, System: sys}, "https://pypi.org/", "http://low:1", FromEnv, "https_proxy=http://low:1"},
		{"ALL_PROXY", Settings{Environ: []string{"ALL_PROXY=http://all:1"}, System: sys}, "https://pypi.org/", "http://all:1", FromEnv, "ALL_PROXY=http://all:1"},
		{"NO_PROXY alone keeps the registry out", Settings{Environ: []string{"NO_PROXY=example.com"}, System: sys}, "https://pypi.org/", "", FromEnv, ""},
		{"an empty variable does not count", Settings{Environ: []string{"HTTPS_PROXY="}, System: sys}, "https://pypi.org/", "http://127.0.0.1:7890", FromSystem, "ProxyServer=127.0.0.1:7890 (the Windows system proxy)"},
		{"system proxy off", Settings{Environ: []string{}, System: &System{Server: "127.0.0.1:7890"}}, "https://pypi.org/", "", FromNone, ""},
		{"nothing", Settings{Environ: []string{}, System: &System{}}, "https://pypi.org/", "", FromNone, ""},
		{"loopback never", Settings{Environ: []string{}, System: sys}, "http://127.0.0.1:8080/simple/", "", FromSystem, "ProxyServer=127.0.0.1:7890 (the Windows system proxy)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := New(c.s)
			if got := proxyFor(t, r, c.url); got != c.want {
				t.Errorf("proxy %q, want %q", got, c.want)
			}
			if r.From() != c.from || r.Configured() != (c.from != FromNone) {
				t.Errorf("from %v, want %v", r.From(), c.from)
			}
			if got := r.Settings(); got != c.settings {
				t.Errorf("settings %q, want %q", got, c.settings)
			}
		})
	}
}

// ProxyServer in each form Windows and proxy software write, read as CPython's
// getproxies_registry() reads it.
func TestProxyServerForms(t *testing.T) {
	cases := []struct {
		server      string
		http, https string
	}{
		{"127.0.0.1:7890", "http://127.0.0.1:7890", "http://127.0.0.1:7890"},
		{"http=127.0.0.1:8080;https=127.0.0.1:8443", "http://127.0.0.1:8080", "http://127.0.0.1:8443"},
		{"https=proxy.corp:8443", "", "http://proxy.corp:8443"},
		{"http=https://secure.corp:443;https=https://secure.corp:443", "https://secure.corp:443", "https://secure.corp:443"},
		{"socks=127.0.0.1:1080", "socks4://127.0.0.1:1080", "socks4://127.0.0.1:1080"},
		{"http=h:1;socks=s:2", "http://h:1", "socks4://s:2"},
		// A malformed entry ends the list (CPython's ValueError), keeping what came before.
		{"http=h:1;junk;https=x:2", "http://h:1", ""},
		{"http=h:1;", "http://h:1", ""},
	}
	for _, c := range cases {
		r := New(Settings{Environ: []string{}, System: &System{Enable: true, Server: c.server}})
		if got := proxyFor(t, r, "http://pypi.org/"); got != c.http {
			t.Errorf("%q http: %q, want %q", c.server, got, c.http)
		}
		if got := proxyFor(t, r, "https://pypi.org/"); got != c.https {
			t.Errorf("%q https: %q, want %q", c.server, got, c.https)
		}
	}
}

// ProxyOverride as requests' proxy_bypass_registry() applies it: <local> for dotless hosts, globs
// matched from the start of the host, any case.
func TestProxyOverride(t *testing.T) {
	sys := &System{Enable: true, Server: "127.0.0.1:7890", Override: "localhost;127.*;10.*;*.internal.corp;Mirrors.Example.?om;<local>"}
	r := New(Settings{Environ: []string{}, System: sys})
	for host, bypass := range map[string]bool{
		"intranet":                  true,  // <local>: no dot
		"10.1.2.3":                  true,  // 10.*
		"build.internal.corp":       true,  // *.internal.corp
		"mirrors.example.com":       true,  // case and '?'
		"download.pytorch.org":      false, // through the proxy
		"pypi.tuna.tsinghua.edu.cn": false,
		"110.1.2.3":                 false, // anchored at the start
	} {
		got := proxyFor(t, r, "https://"+host+"/simple/") == ""
		if got != bypass {
			t.Errorf("%s: bypassed %v, want %v", host, got, bypass)
		}
	}
}
