package install

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"gpuwiz/steps/fetch"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/urls"
)

// errUsePip says the stage cannot be done by resolving with pip and fetching in Go, and why:
// the stage then runs today's `pip download`.
var errUsePip error = i18n.Lazy(func() string { return i18n.T("install.fallback") })

// usePip is errUsePip with why (a catalog message): the stage is left to pip for that reason.
func usePip(why string) error {
	return &reasonError{of: errUsePip, msg: i18n.T("install.fallback.err", i18n.D{"Why": why}), why: why}
}

// reportFrom is the first pip with `pip install --dry-run --report`.
const reportFrom = "22.2"

// reportArgs turns a stage's download (a) into the resolve that downloads nothing:
// `pip install --dry-run --ignore-installed --report FILE …` with the same requirements,
// constraints and find-links/no-index choices, no destination and no progress bar, and every
// index and find-links page replaced by its stand-in: the shim's index i for a.indexes()[i], its
// find-links page i for a.FindLinks[i].
func reportArgs(a PipArgs, report string, index func(int) string, links func(int) string) (PipArgs, error) {
	if a.Sub != "download" {
		return PipArgs{}, usePip(i18n.T("install.fallback.not_download", i18n.D{"Argv": "pip " + a.Sub}))
	}
	r := *a.clone()
	r.Sub, r.DryRun, r.IgnoreInstalled, r.NoCacheDir, r.Report, r.Quiet = "install", true, true, true, report, true
	r.Dest, r.Progress = "", ""
	n := 0
	if r.IndexURL != "" {
		r.IndexURL = index(0)
		n = 1
	}
	for i := range r.ExtraIndexURLs {
		r.ExtraIndexURLs[i] = index(n + i)
	}
	for i := range r.FindLinks {
		r.FindLinks[i] = links(i)
	}
	return r, nil
}

// pipReport is the part of pip's installation report (https://pip.pypa.io/en/stable/reference/installation-report/) the stage reads.
type pipReport struct {
	Version    string `json:"version"`
	PipVersion string `json:"pip_version"`
	Install    []struct {
		DownloadInfo struct {
			URL         string `json:"url"`
			ArchiveInfo *struct {
				Hash   string            `json:"hash"`
				Hashes map[string]string `json:"hashes"`
			} `json:"archive_info"`
			DirInfo *json.RawMessage `json:"dir_info"`
			VCSInfo *json.RawMessage `json:"vcs_info"`
		} `json:"download_info"`
		downloadInfo json.RawMessage // download_info as pip wrote it: what pip writes as direct_url.json
		Requested    bool            `json:"requested"` // named on pip's command line, not pulled in as a dependency
		IsDirect     bool            `json:"is_direct"` // a direct URL: a file, a folder or a URL given itself
		Metadata     struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"metadata"`
	} `json:"install"`
}

// readReport reads the installation report pip wrote to path.
func readReport(path string) (pipReport, error) {
	var r pipReport
	b, err := os.ReadFile(path)
	if err != nil {
		return r, err
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return r, err
	}
	var raw struct {
		Install []struct {
			DownloadInfo json.RawMessage `json:"download_info"`
		} `json:"install"`
	}
	if json.Unmarshal(b, &raw) == nil && len(raw.Install) == len(r.Install) {
		for i := range r.Install {
			r.Install[i].downloadInfo = raw.Install[i].DownloadInfo
		}
	}
	return r, nil
}

var hexSHA256 = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-fA-F]{64}$`) })

// parseReport turns pip's report into the files to fetch; anything the downloader cannot take
// (a file:// link, a local folder, VCS, a source archive) leaves it to pip. A wheel without a
// sha256 is taken: the downloader checks its zip and computes one. lookup is the shim's File;
// kept are the files the shim already downloaded whole and checked.
func parseReport(b []byte, lookup func(string) (f fetch.File, kept, ok bool)) (files, kept []fetch.File, err error) {
	var r pipReport
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, nil, usePip(i18n.T("install.fallback.report_unreadable", i18n.D{"Err": err}))
	}
	if r.Version != "1" && r.Version != "0" {
		return nil, nil, usePip(i18n.T("install.fallback.report_version", i18n.D{"Version": strconv.Quote(r.Version)}))
	}
	if len(r.Install) == 0 {
		return nil, nil, usePip(i18n.T("install.fallback.report_empty"))
	}
	var out []fetch.File
	for _, it := range r.Install {
		d := it.DownloadInfo
		what := it.Metadata.Name + " " + it.Metadata.Version
		if d.DirInfo != nil || d.VCSInfo != nil || d.ArchiveInfo == nil {
			return nil, nil, usePip(i18n.T("install.fallback.not_archive", i18n.D{"What": what}))
		}
		sf, isKept, viaShim := lookup(d.URL)
		rawURL := sf.URL
		if !viaShim {
			rawURL = d.URL
		}
		u, err := url.Parse(rawURL)
		if err != nil || u.Scheme != "http" && u.Scheme != "https" {
			return nil, nil, usePip(i18n.T("install.fallback.not_http", i18n.D{"What": what, "URL": urls.Redact(d.URL)}))
		}
		name, err := url.PathUnescape(path.Base(u.EscapedPath()))
		if err != nil || !strings.HasSuffix(name, ".whl") || name != filepath.Base(name) {
			return nil, nil, usePip(i18n.T("install.fallback.not_wheel", i18n.D{"What": what, "File": path.Base(u.Path)}))
		}
		sum := d.ArchiveInfo.Hashes["sha256"]
		if viaShim { // pip hashed the stub: the real source's sha256 is the one that counts
			sum = sf.SHA256
		} else if sum == "" {
			if algo, h, ok := strings.Cut(d.ArchiveInfo.Hash, "="); ok && algo == "sha256" {
				sum = h
			}
		}
		if !hexSHA256().MatchString(sum) {
			sum = "" // the downloader checks the zip and computes it
		}
		u.Fragment, u.RawFragment = "", ""
		f := fetch.File{URL: u.String(), Name: name, SHA256: strings.ToLower(sum), Size: sf.Size, Ranges: sf.Ranges}
		out = append(out, f)
		if isKept {
			kept = append(kept, f)
		}
	}
	return out, kept, nil
}

// resolve asks pip for the stage's files without downloading them: pip resolves against the
// shim, which serves the real sources' pages, their metadata (read out of the remote wheels when
// they serve none) and a stub for every wheel. kept are wheels the shim had to download whole
// (a server without Range requests) into the stage folder, already checked.
func (e *engine) resolve(ctx context.Context, s Step, early bool) (r resolution, err error) {
	var ahead *fetch.Early
	defer func() {
		if err != nil {
			ahead.Finish(nil) // stops it; what it began for nobody is removed
		} else {
			r.early = ahead
		}
	}()
	if v := e.plan.PipVersion; v != "" && pipOlderThan(v, reportFrom) {
		return resolution{}, usePip(i18n.T("install.fallback.old_pip", i18n.D{"Version": v, "From": reportFrom}))
	}
	indexes, links := s.Pip.indexes(), s.Pip.FindLinks
	if len(indexes) == 0 && len(links) == 0 {
		return resolution{}, usePip(i18n.T("install.fallback.no_index"))
	}
	for _, l := range links {
		if !strings.HasPrefix(l, "http://") && !strings.HasPrefix(l, "https://") {
			return resolution{}, usePip(i18n.T("install.fallback.local_links", i18n.D{"Links": urls.Redact(l)}))
		}
	}
	netw, err := e.network(ctx)
	if err != nil {
		return resolution{}, err
	}
	c := &fetch.Counters{}
	if early {
		// Its bytes are not shown as they come: the fetch of the answer shows the whole download
		// on one line, what the early fetch finished among it.
		ahead = fetch.StartEarly(ctx, e.fetchOptions(netw, &fetch.Counters{}, e.checkedBefore, nil))
	}
	shim, err := fetch.StartShim(netw, indexes, fetch.ShimOptions{FindLinks: links, Keep: e.plan.StageDir, Progress: c, Early: ahead,
		Target: fetch.Target{Python: e.plan.pyVersion, GOOS: hostGOOS(), GOARCH: runtime.GOARCH}, Pins: s.Pip.Pins})
	if err != nil {
		return resolution{}, usePip(err.Error())
	}
	defer shim.Close()
	dir, err := os.MkdirTemp("", "gpuwiz-resolve-")
	if err != nil {
		return resolution{}, err
	}
	defer os.RemoveAll(dir)
	report := filepath.Join(dir, "report.json")
	args, err := reportArgs(*s.Pip, report, shim.IndexURL, shim.FindLinksURL)
	if err != nil {
		return resolution{}, err
	}
	// A source without Range requests: the shim downloads wheels whole while pip resolves; their
	// bytes are shown as they come.
	stop := e.reportProgressIf(s.ID, c)
	res := e.run(ctx, s.ID, runner.Cmd{Name: s.ID + " (resolve)", //i18n:raw the step's label in the log
		Argv: pipArgv(e.plan.pip, args), Env: loopbackEnv(e.plan.env)})
	stop()
	e.out.BytesDownloaded += c.Stats().Fetched
	if n := shim.Lazy(); n > 0 {
		e.emitLine(Event{StepID: s.ID, Line: i18n.N("install.event.lazy_metadata", n, nil)})
	}
	if res.Err != nil {
		if ctx.Err() != nil {
			return resolution{}, res.Err
		}
		return resolution{}, usePip(i18n.T("install.fallback.resolve_failed", i18n.D{"Err": res.Err, "Tail": tailNote(res.Tail)}))
	}
	b, err := os.ReadFile(report)
	if err != nil {
		return resolution{}, usePip(i18n.T("install.fallback.no_report", i18n.D{"Err": err}))
	}
	r.files, r.kept, err = parseReport(b, shim.File)
	return r, err
}

// loopbackEnv is env for a pip that talks to the shim on 127.0.0.1: no proxy in between (the
// shim itself goes through pip's proxy).
func loopbackEnv(env []string) []string {
	out := make([]string, 0, len(env)+3)
	noProxy := ""
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		switch strings.ToUpper(k) {
		case "NO_PROXY":
			if v != "" {
				noProxy = v + ","
			}
			continue
		case "PIP_PROXY":
			continue
		}
		out = append(out, kv)
	}
	return append(out, "NO_PROXY="+noProxy+"127.0.0.1", "no_proxy="+noProxy+"127.0.0.1", "PIP_PROXY=")
}
