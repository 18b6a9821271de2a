package sources

import (
	"context"
	"crypto/x509"
	"errors"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/indexpage"
	"gpuwiz/steps/netproxy"
	"gpuwiz/steps/pep"
	"gpuwiz/steps/urls"
)

// DefaultTimeout bounds each probe: a source slower than this to list one project is not a good
// place to download gigabytes from.
const DefaultTimeout = 3 * time.Second

// depsProbeProject is the project asked of a dependency index to see that it answers: every
// PyPI mirror has pip, and its page is small.
const depsProbeProject = "pip"

// Options tune a probe.
type Options struct {
	Timeout time.Duration // per probe, all at once; 0: DefaultTimeout
	// Net is the run's proxy rules, whose client makes the requests (netproxy.ForPip for the target
	// Python); nil: netproxy.ForPip("", nil).
	Net *netproxy.Resolver
}

// Result is what the probe found for one candidate.
type Result struct {
	Candidate Candidate     `json:"candidate"`
	Answers   bool          `json:"answers"`   // every URL it needs answered over HTTP
	HasBuild  bool          `json:"has_build"` // it carries the framework's wheel for this build
	File      string        `json:"file,omitempty"`
	Elapsed   time.Duration `json:"elapsed_ns"`
	// Why is, when it cannot be used, the reason in plain words (credentials redacted).
	Why string `json:"why,omitempty"`
	// Proxy is the proxy its requests went through, redacted, with where it was set; "" for none.
	Proxy string `json:"proxy,omitempty"`
	// TimedOut says the source (or its dependency index) gave no answer within the timeout: too slow
	// rather than down. Why says so in words; this is for code that must tell the two apart.
	TimedOut bool `json:"timed_out,omitempty"`
	// Redirected names the host that answered when the source sent the request elsewhere (a mirror
	// that hands pip back to the official host); "" when it answered itself.
	Redirected string `json:"redirected,omitempty"`
	// WheelsFrom names the host a mirror's page links the framework's wheel on when it is not the
	// mirror's own (mirrored index pages often point at download-r2.pytorch.org or a PyPI CDN):
	// the bytes would come from there, however fast the mirror's page answers. Not set for the
	// official index, whose wheels may live on its own storage (Paddle's object store).
	WheelsFrom string `json:"wheels_from,omitempty"`
}

// Usable reports a source that answers and has the build.
func (r Result) Usable() bool { return r.Answers && r.HasBuild }

// Millis is the elapsed time in whole milliseconds.
func (r Result) Millis() int64 { return r.Elapsed.Milliseconds() }

// Probe checks every candidate at once, each within the timeout, and returns the results in the
// candidates' order. Pages several candidates share (the official index's project page for
// Paddle's mirrors) are fetched once.
func Probe(ctx context.Context, cands []Candidate, b Build, o Options) []Result {
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	p := &prober{ctx: ctx, timeout: timeout, build: b, proxy: o.Net}
	if p.proxy == nil {
		p.proxy = netproxy.ForPip("", nil)
	}
	p.pages.Client = p.proxy.Client()
	return inParallel(cands, p.probe)
}

// inParallel is f of every item, the calls run side by side, the answers in the items' order.
func inParallel[T, R any](items []T, f func(T) R) []R {
	out := make([]R, len(items))
	var wg sync.WaitGroup
	for i, it := range items {
		wg.Go(func() { out[i] = f(it) })
	}
	wg.Wait()
	return out
}

// Propose is the index of the fastest usable result that serves the wheels itself (else the
// fastest usable one), or -1 when none is usable. Equal times go to the earlier candidate (the
// official index comes first).
func Propose(results []Result) int {
	best := -1
	for _, own := range []bool{true, false} {
		for i, r := range results {
			if r.Usable() && (!own || r.WheelsFrom == "") && (best < 0 || r.Elapsed < results[best].Elapsed) {
				best = i
			}
		}
		if best >= 0 {
			return best
		}
	}
	return best
}

type prober struct {
	ctx     context.Context
	timeout time.Duration
	build   Build
	proxy   *netproxy.Resolver
	pages   indexpage.Reader
}

// fetch is the page at u, fetched once for every candidate that needs it.
func (p *prober) fetch(u string) *indexpage.Page { return p.pages.Get(p.ctx, u) }

// wheelsFrom is the host the page at u links file on, when it is not u's own host.
func wheelsFrom(u string, pg *indexpage.Page, file string) string {
	asked, err := url.Parse(u)
	if l, ok := pg.Link(file); err == nil && ok && !strings.EqualFold(l.URL.Host, asked.Host) {
		return l.URL.Host
	}
	return ""
}

// redirectedHost is the host that answered u's request when it is not u's own.
func redirectedHost(u string, pg *indexpage.Page) string {
	asked, err := url.Parse(u)
	if err != nil || pg.Final == nil || pg.Final.Host == asked.Host {
		return ""
	}
	return pg.Final.Host
}

// join is index + "/" + project + "/", PEP 503's project page.
func join(index, project string) string {
	return strings.TrimRight(index, "/") + "/" + pep.Normalize(project) + "/"
}

func (p *prober) probe(c Candidate) Result {
	res := Result{Candidate: c}
	var main, deps string // main: the page that must list the wheel; deps: an index that must answer
	switch c.Kind {
	case KindOfficial, KindIndex:
		main = join(c.IndexURL, p.build.Project)
	case KindDeps:
		main, deps = join(c.IndexURL, p.build.Project), join(c.Mirror, depsProbeProject)
	case KindFlat:
		main, deps = c.FindLinks, join(c.Mirror, depsProbeProject)
	case KindCustom:
		return p.probeCustom(c)
	default:
		res.Why = i18n.T("sources.probe.unknown_kind", i18n.D{"Kind": c.Kind})
		return res
	}
	pages := p.fetchAll(main, deps)
	res.Proxy = p.proxyFor(main)
	res.Elapsed = slowest(pages)
	mp := pages[0]
	if mp.Err != nil {
		res.Why = p.explain(main, mp.Err, false)
		res.TimedOut = errors.Is(mp.Err, context.DeadlineExceeded)
		return res
	}
	if len(pages) > 1 && pages[1].Err != nil {
		res.Why = p.explain(deps, pages[1].Err, true)
		res.TimedOut = errors.Is(pages[1].Err, context.DeadlineExceeded)
		res.Proxy = p.proxyFor(deps)
		return res
	}
	res.Answers = true
	res.Redirected = redirectedHost(main, mp)
	switch {
	case mp.Status == http.StatusNotFound:
		res.Why = i18n.T("sources.probe.not_found", i18n.D{"Project": p.build.Project, "URL": urls.Redact(main)})
		return res
	case mp.Status != http.StatusOK:
		res.Why = i18n.T("sources.probe.status", i18n.D{"Status": mp.Status, "StatusText": http.StatusText(mp.Status), "URL": urls.Redact(main)})
		return res
	}
	v := judge(mp.Files(), p.build)
	if v.file == "" {
		res.Why = v.why
		return res
	}
	res.HasBuild, res.File = true, v.file
	if c.Kind != KindOfficial { // the official index's own storage (Paddle's object store) is the official source
		res.WheelsFrom = wheelsFrom(main, mp, v.file)
	}
	// A dependency index answers when it lists pip or says it has no such project (404, a local
	// index of the framework's own dependencies); anything else (401, 403, 5xx) stops pip too.
	if len(pages) > 1 && pages[1].Status != http.StatusOK && pages[1].Status != http.StatusNotFound {
		res.HasBuild = false
		res.Why = i18n.T("sources.probe.deps_status", i18n.D{"Status": pages[1].Status, "StatusText": http.StatusText(pages[1].Status), "URL": urls.Redact(deps)})
	}
	return res
}

// probeCustom finds out whether a typed URL is a PEP 503 index (it has a project page) or a flat
// page (it lists the wheel itself), asking both at once.
func (p *prober) probeCustom(c Candidate) Result {
	res := Result{Candidate: c, Proxy: p.proxyFor(c.URL)}
	asIndex, asFlat := join(c.URL, p.build.Project), c.URL
	pages := p.fetchAll(asIndex, asFlat)
	res.Elapsed = slowest(pages)
	ip, fp := pages[0], pages[1]
	if ip.Err != nil && fp.Err != nil {
		res.Why = p.explain(c.URL, fp.Err, false)
		res.TimedOut = errors.Is(fp.Err, context.DeadlineExceeded)
		return res
	}
	res.Answers = true
	if ip.Err == nil && ip.Status == http.StatusOK {
		if v := judge(ip.Files(), p.build); v.file != "" {
			res.HasBuild, res.File = true, v.file
			res.WheelsFrom = wheelsFrom(asIndex, ip, v.file)
			res.Candidate.IndexURL = c.URL
			res.Candidate.Name = i18n.T("sources.name.custom_index")
			return res
		} else {
			res.Why = v.why
		}
	}
	if fp.Err == nil && fp.Status == http.StatusOK {
		if v := judge(fp.Files(), p.build); v.file != "" {
			res.HasBuild, res.File, res.Why = true, v.file, ""
			res.WheelsFrom = wheelsFrom(asFlat, fp, v.file)
			res.Candidate.FindLinks = c.URL
			res.Candidate.Name = i18n.T("sources.name.custom_flat")
			return res
		} else if res.Why == "" {
			res.Why = v.why
		}
	}
	if res.Why == "" {
		res.Why = i18n.T("sources.probe.custom_not_listed", i18n.D{"Index": urls.Redact(asIndex), "Project": p.build.Project})
	}
	return res
}

func (p *prober) fetchAll(urls ...string) []*indexpage.Page {
	var list []string
	for _, u := range urls {
		if u != "" {
			list = append(list, u)
		}
	}
	return inParallel(list, p.fetch)
}

func slowest(pages []*indexpage.Page) time.Duration {
	var d time.Duration
	for _, pg := range pages {
		d = max(d, pg.Elapsed)
	}
	return d
}

// explain turns a failed request into plain words, saying whether a proxy was in the way; deps says
// the request was the dependency index's (a flat page's or Paddle mirror's), not the source's own.
func (p *prober) explain(u string, err error, deps bool) string {
	host := u
	if pu, perr := url.Parse(u); perr == nil {
		host = pu.Host
	}
	var why string
	var dns *net.DNSError
	var certErr *x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		why = i18n.T("sources.net.timeout", i18n.D{"Timeout": p.timeout.String()})
	case errors.Is(err, context.Canceled):
		why = i18n.T("sources.net.cancelled")
	case strings.Contains(err.Error(), "proxyconnect"):
		why = i18n.T("sources.net.proxy_unreachable", i18n.D{"Err": lastPart(err)})
	case errors.As(err, &dns):
		why = i18n.T("sources.net.no_such_host", i18n.D{"Host": host})
	case errors.Is(err, syscall.ECONNREFUSED):
		why = i18n.T("sources.net.refused", i18n.D{"Host": host})
	case errors.As(err, &certErr), errors.As(err, &hostErr), strings.Contains(err.Error(), "x509:"):
		why = i18n.T("sources.net.tls")
	default:
		why = lastPart(err)
	}
	proxy := p.proxyFor(u)
	switch {
	case proxy != "" && deps:
		return urls.Redact(i18n.T("sources.probe.deps_no_answer_proxy", i18n.D{"Proxy": proxy, "Why": why}))
	case proxy != "":
		return urls.Redact(i18n.T("sources.probe.no_answer_proxy", i18n.D{"Proxy": proxy, "Why": why}))
	case p.proxy.Configured() && deps:
		return urls.Redact(i18n.T("sources.probe.deps_no_answer_bypass", i18n.D{"Why": why, "Host": host}))
	case p.proxy.Configured():
		return urls.Redact(i18n.T("sources.probe.no_answer_bypass", i18n.D{"Why": why, "Host": host}))
	case deps:
		return urls.Redact(i18n.T("sources.probe.deps_no_answer_direct", i18n.D{"Why": why, "Places": proxyPlaces()}))
	}
	return urls.Redact(i18n.T("sources.probe.no_answer_direct", i18n.D{"Why": why, "Places": proxyPlaces()}))
}

// proxyPlaces names where a proxy is looked for on this system (the system proxy only on Windows).
func proxyPlaces() string {
	if runtime.GOOS == "windows" {
		return i18n.T("sources.probe.proxy_places_windows")
	}
	return i18n.T("sources.probe.proxy_places")
}

// lastPart is the innermost message of a wrapped network error ("connect: connection refused").
func lastPart(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return err.Error()
}

// proxyFor names the proxy a request to u goes through, redacted, with where it was set.
func (p *prober) proxyFor(u string) string {
	pu, err := url.Parse(u)
	if err != nil {
		return ""
	}
	px, err := p.proxy.ForURL(pu)
	if err != nil || px == nil {
		return ""
	}
	return urls.Redact(px.String()) + " (" + p.proxy.Where() + ")"
}
