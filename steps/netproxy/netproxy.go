// Package netproxy decides which proxy one HTTP request goes through, by the rules pip follows, so
// that gpuwiz's own requests (the wheel downloader, the index check, the source probe) reach the
// index the way pip will:
//
//  1. pip's own proxy setting (--proxy, PIP_PROXY, proxy= in pip's config) for every http and https
//     URL; pip then ignores the environment and the system proxy altogether (pypa/pip
//     src/pip/_internal/cli/index_command.py: session.trust_env = False).
//  2. Else the environment: any non-empty *_proxy variable (HTTPS_PROXY, HTTP_PROXY, ALL_PROXY,
//     NO_PROXY, lower case winning) means the environment decides, as CPython's
//     urllib.request.getproxies() does (getproxies_environment() or getproxies_registry()).
//  3. Else, on Windows, the system proxy under HKCU\Software\Microsoft\Windows\CurrentVersion\Internet
//     Settings (ProxyEnable, ProxyServer, ProxyOverride), parsed as CPython's getproxies_registry()
//     does, with hosts bypassed as requests' proxy_bypass_registry() does (psf/requests
//     src/requests/utils.py, the function pip's vendored requests calls on Windows).
//
// One deliberate difference: a loopback host (localhost, 127.0.0.1, ::1) is never proxied, as in Go's
// own rules (golang.org/x/net/http/httpproxy); gpuwiz only talks to loopback to reach itself.
package netproxy

import (
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync"

	"golang.org/x/net/http/httpproxy"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pipconf"
	"gpuwiz/steps/urls"
)

// InternetSettings is the registry key (under HKCU) that holds the Windows system proxy.
const InternetSettings = `Software\Microsoft\Windows\CurrentVersion\Internet Settings` //i18n:raw a registry path

// System is the Windows system proxy as the registry holds it (what Clash, v2rayN and company
// proxy software set, and the Settings app's "Use a proxy server").
type System struct {
	Enable   bool   // ProxyEnable != 0
	Server   string // ProxyServer: "127.0.0.1:7890" or "http=host:port;https=host:port;socks=host:port"
	Override string // ProxyOverride: "localhost;127.*;10.*;<local>"
}

// Settings are the inputs of one resolution.
type Settings struct {
	Pip     string   // pip's own proxy setting; "" none
	Environ []string // the environment ("KEY=value"); nil: the process's
	// System is the system proxy; nil: the machine's (ReadSystem: the registry on Windows, none
	// elsewhere).
	System *System
}

// From says which of the three places decided.
type From int

const (
	FromNone   From = iota // no proxy configured anywhere
	FromPip                // pip's proxy setting
	FromEnv                // the environment's *_PROXY variables
	FromSystem             // the Windows system proxy (registry)
)

// Resolver answers, for each URL, the proxy pip would use.
type Resolver struct {
	from     From
	vars     []string // the variables set, for messages ("HTTPS_PROXY")
	varVals  []string // the same with their values, redacted ("HTTPS_PROXY=http://***@proxy:3128")
	pip      *url.URL
	env      func(*url.URL) (*url.URL, error)
	noProxy  string
	system   map[string]string // scheme → proxy URL, from ProxyServer
	override []string          // ProxyOverride entries
	sys      System
	client   func() *http.Client
}

// ForPip is the one place a run's proxy rules come from: pip's own proxy setting as pip reads it for
// the Python whose sys.prefix is prefix ("" for none: the global and user files and PIP_PROXY, see
// pipconf), else the environment's variables, else the Windows system proxy; environ nil is this
// process's environment. A run builds it once (steps/app, per target Python) and hands it, with its
// Client, to every request it makes.
func ForPip(prefix string, environ []string) *Resolver {
	return New(Settings{Pip: pipconf.Read(pipconf.Source{Prefix: prefix, Environ: environ}).Net().Proxy, Environ: environ})
}

// New resolves settings once; the Resolver is safe for concurrent use.
func New(s Settings) *Resolver {
	r := &Resolver{}
	r.client = sync.OnceValue(func() *http.Client {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.Proxy = r.Proxy
		return &http.Client{Transport: tr}
	})
	if s.Pip != "" {
		p := s.Pip
		if !strings.Contains(p, "://") {
			p = "http://" + p // pip takes a scheme-less "host:port" as an http proxy
		}
		if u, err := url.Parse(p); err == nil {
			r.from, r.pip = FromPip, u
			return r
		}
	}
	environ := s.Environ
	if environ == nil {
		environ = os.Environ()
	}
	env, names := proxyEnv(environ)
	if len(env) > 0 {
		r.from, r.vars, r.noProxy = FromEnv, names, env["no"]
		for _, n := range names {
			if scheme := strings.TrimSuffix(strings.ToLower(n), "_proxy"); scheme != "no" {
				r.varVals = append(r.varVals, n+"="+urls.Redact(env[scheme]))
			}
		}
		cfg := httpproxy.Config{HTTPProxy: env["http"], HTTPSProxy: env["https"], NoProxy: env["no"]}
		if cfg.HTTPProxy == "" {
			cfg.HTTPProxy = env["all"]
		}
		if cfg.HTTPSProxy == "" {
			cfg.HTTPSProxy = env["all"]
		}
		r.env = cfg.ProxyFunc()
		return r
	}
	sys := s.System
	if sys == nil {
		sys = ReadSystem()
	}
	if sys != nil && sys.Enable {
		if m := parseProxyServer(sys.Server); len(m) > 0 {
			r.from, r.system, r.sys = FromSystem, m, *sys
			for _, o := range strings.Split(sys.Override, ";") {
				if o != "" {
					r.override = append(r.override, o)
				}
			}
		}
	}
	return r
}

// From is where the proxy settings came from (FromNone: none is set).
func (r *Resolver) From() From { return r.from }

// Configured reports that some proxy is set (pip's, the environment's or the system's).
func (r *Resolver) Configured() bool { return r.from != FromNone }

// Proxy is the proxy for req, for http.Transport.Proxy.
func (r *Resolver) Proxy(req *http.Request) (*url.URL, error) { return r.ForURL(req.URL) }

// ForURL is the proxy a request to u goes through; nil for none.
func (r *Resolver) ForURL(u *url.URL) (*url.URL, error) {
	if u == nil || urls.IsLoopback(u.Hostname()) {
		return nil, nil
	}
	switch r.from {
	case FromPip:
		if u.Scheme == "http" || u.Scheme == "https" {
			return r.pip, nil
		}
	case FromEnv:
		return r.env(u)
	case FromSystem:
		if r.bypassed(u.Hostname()) {
			return nil, nil
		}
		p, ok := r.system[u.Scheme]
		if !ok {
			return nil, nil
		}
		return url.Parse(p)
	}
	return nil, nil
}

// InUse names the proxy a request to rawURL goes through, credentials hidden; "" for none.
func (r *Resolver) InUse(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	p, err := r.ForURL(u)
	if err != nil || p == nil {
		return ""
	}
	return urls.Redact(p.String())
}

// Where says, in the interface's language, where the proxy was set ("from HTTPS_PROXY").
func (r *Resolver) Where() string {
	switch r.from {
	case FromPip:
		return i18n.T("netproxy.from_pip")
	case FromEnv:
		return i18n.T("netproxy.from_env", i18n.D{"Vars": i18n.Join(r.vars)})
	case FromSystem:
		return i18n.T("netproxy.from_system")
	}
	return ""
}

// Settings describes the configured proxy with where it was set, credentials hidden, for a
// message about an index that could not be reached ("HTTPS_PROXY=http://***@proxy:3128").
func (r *Resolver) Settings() string {
	switch r.from {
	case FromPip:
		return urls.Redact(r.pip.String()) + " (" + r.Where() + ")"
	case FromEnv:
		return strings.Join(r.varVals, ", ")
	case FromSystem:
		s := "ProxyServer=" + urls.Redact(r.sys.Server)
		if r.sys.Override != "" {
			s += ", ProxyOverride=" + r.sys.Override
		}
		return s + " (" + r.Where() + ")"
	}
	return ""
}

// NoProxy is the environment's NO_PROXY when the environment decides; "" otherwise.
func (r *Resolver) NoProxy() string { return r.noProxy }

// Client is r's one HTTP client, over a clone of http.DefaultTransport whose proxy is r's: shared
// by every caller, so its connections are too (copy it to change a field).
func (r *Resolver) Client() *http.Client { return r.client() }

// proxyEnv reads the *_proxy variables as CPython's getproxies_environment() does: every non-empty
// variable whose name ends in _proxy (any case), keyed by the lower-case scheme ("https", "no",
// "all"); a lower-case name wins over the same name in another case.
func proxyEnv(environ []string) (map[string]string, []string) {
	env := map[string]string{}
	name := map[string]string{}
	for pass := 0; pass < 2; pass++ {
		for _, kv := range environ {
			k, v, _ := strings.Cut(kv, "=")
			lk := strings.ToLower(k)
			if !strings.HasSuffix(lk, "_proxy") || v == "" || pass == 1 && k != lk {
				continue
			}
			env[strings.TrimSuffix(lk, "_proxy")], name[strings.TrimSuffix(lk, "_proxy")] = v, k
		}
	}
	var names []string
	for _, scheme := range []string{"https", "http", "all", "no"} {
		if n, ok := name[scheme]; ok {
			names = append(names, n)
		}
	}
	return env, names
}

// parseProxyServer reads ProxyServer as CPython's getproxies_registry() does: one "host:port" for
// http, https and ftp, or "scheme=address" entries separated by ';' (a malformed entry ends the
// list, as CPython's ValueError does, keeping the entries before it); an address without a scheme is
// http:// (socks:// for socks), and a socks entry (SOCKS4 by Windows' default) serves http and https
// when they have none of their own.
func parseProxyServer(server string) map[string]string {
	server = strings.TrimSpace(server)
	if server == "" {
		return nil
	}
	if !strings.ContainsAny(server, "=;") {
		server = "http=" + server + ";https=" + server + ";ftp=" + server
	}
	out := map[string]string{}
	for _, part := range strings.Split(server, ";") {
		protocol, address, ok := strings.Cut(part, "=")
		if !ok {
			break
		}
		if !hasScheme.MatchString(address) {
			switch protocol {
			case "http", "https", "ftp":
				address = "http://" + address
			case "socks":
				address = "socks://" + address
			}
		}
		out[protocol] = address
	}
	if s := out["socks"]; s != "" {
		s = strings.Replace(s, "socks://", "socks4://", 1)
		for _, scheme := range []string{"http", "https"} {
			if out[scheme] == "" {
				out[scheme] = s
			}
		}
	}
	return out
}

var hasScheme = regexp.MustCompile(`^[^/:]+://`)

// bypassed applies ProxyOverride as requests' proxy_bypass_registry() does: "<local>" matches a
// host without a dot; any other entry is a pattern ('*' any run, '?' one character) matched from the
// start of the host name, ignoring case.
func (r *Resolver) bypassed(host string) bool {
	for _, test := range r.override {
		if test == "<local>" && !strings.Contains(host, ".") {
			return true
		}
		var b strings.Builder
		b.WriteString("(?i)^")
		for _, c := range test {
			switch c {
			case '*':
				b.WriteString(".*")
			case '?':
				b.WriteString(".")
			default:
				b.WriteString(regexp.QuoteMeta(string(c)))
			}
		}
		if re, err := regexp.Compile(b.String()); err == nil && re.MatchString(host) {
			return true
		}
	}
	return false
}
