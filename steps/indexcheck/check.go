// Package indexcheck asks a package index whether the wheels a matrix row declares exist: for each
// package of a build, each OS it names and each Python of its range. It reads the index pages as pip
// does (PEP 503 HTML, PEP 691 JSON, or a flat find-links page) and looks at file names only, read by
// steps/pep (wheel names, their tags, local labels).
package indexcheck

import (
	"context"
	"errors"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/hashicorp/go-version"

	"gpuwiz/matrix"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pep"
	"gpuwiz/steps/urls"
)

// Source says where the pages of a build are. The zero value reads each build's own index_url
// (PEP 503/691: <index_url>/<project>/).
type Source struct {
	// IndexURL replaces every build's index: "{channel}" in it becomes the channel ("cu126"); without
	// it every build is looked for on that one index.
	IndexURL string
	// Mirror replaces the scheme and host of every build's index and keeps its path: a mirror of
	// download.pytorch.org at http://127.0.0.1:8080 serves /whl/cu126/torch/ there.
	Mirror string
	// FindLinks is a flat page listing the files (pip --find-links); "{channel}" as above.
	FindLinks string
}

// Validate checks that at most one way is given and that each passes urls.Check ("{channel}" read as cu126).
func (s Source) Validate() error {
	n := 0
	for name, u := range map[string]string{"--index-url": s.IndexURL, "--mirror": s.Mirror, "--find-links": s.FindLinks} {
		if u == "" {
			continue
		}
		n++
		if _, err := urls.Check(strings.ReplaceAll(u, "{channel}", "cu126")); err != nil {
			return errors.New(i18n.T("indexcheck.source.bad_url", i18n.D{"Flag": name, "Err": err}))
		}
	}
	if n > 1 {
		return errors.New(i18n.T("indexcheck.source.one_way"))
	}
	return nil
}

// pageURL is the page that lists project's files for build c, and whether it is a flat page
// (every project's files on one page).
func (s Source) pageURL(c matrix.Candidate, project string) (string, bool) {
	withChannel := func(t string) string { return strings.ReplaceAll(t, "{channel}", c.Channel) }
	switch {
	case s.FindLinks != "":
		return withChannel(s.FindLinks), true
	case s.IndexURL != "":
		return projectURL(withChannel(s.IndexURL), project), false
	case s.Mirror != "":
		base := c.IndexURL
		if u, err := url.Parse(base); err == nil {
			base = strings.TrimRight(s.Mirror, "/") + u.Path
		}
		return projectURL(base, project), false
	}
	return projectURL(c.IndexURL, project), false
}

// projectURL is the PEP 503 page of project under index, its query (a token) kept.
func projectURL(index, project string) string {
	u, err := url.Parse(index)
	if err != nil {
		return strings.TrimRight(index, "/") + "/" + project + "/"
	}
	u.Path = strings.TrimRight(u.Path, "/") + "/" + project + "/"
	u.RawPath = ""
	return u.String()
}

// Missing is one package of a build the index does not serve for an OS, with the Pythons that lack it.
type Missing struct {
	Package string   `json:"package"`
	Version string   `json:"version"` // as pip asks for it: "2.6.0+cu126"
	OS      string   `json:"os"`
	Pythons []string `json:"pythons"`
}

// Problem is a page gpuwiz could not read, and why.
type Problem struct {
	Package string `json:"package"`
	URL     string `json:"url"`
	Reason  string `json:"reason"`
}

// Status of one build on the index.
const (
	Served       = "ok"             // every declared wheel is there
	Phantom      = "phantom"        // a declared wheel is not there
	CouldNotLook = "could not look" //i18n:raw a status value of --json output; a page did not answer or could not be read; nothing is known missing
)

// Result is what the index serves of one build.
type Result struct {
	Framework string    `json:"framework"`
	Version   string    `json:"version"`
	Channel   string    `json:"channel"`
	OS        []string  `json:"os"`
	Pythons   []string  `json:"pythons"`
	Status    string    `json:"status"`
	Missing   []Missing `json:"missing,omitempty"`
	// Optional packages (torchaudio where the matrix marks it optional) that are not there: no phantom.
	OptionalMissing []Missing `json:"optional_missing,omitempty"`
	CouldNotLook    []Problem `json:"could_not_look,omitempty"`
	// Systems the index serves the framework's wheels for although the build does not name them.
	ExtraOS []string `json:"extra_os,omitempty"`
	// WheelsFrom is the host a mirror's or override's page links the framework's wheels on when it
	// is not the page's own (a mirrored index page pointing at download-r2.pytorch.org or a PyPI
	// CDN): the bytes come from there, not from this source. Not set for the build's own index.
	WheelsFrom string `json:"wheels_from,omitempty"`
}

// Reason says in one line why a build is not served (Phantom) or could not be checked.
func (r Result) Reason() string {
	switch r.Status {
	case Phantom:
		return i18n.T("indexcheck.reason.phantom", i18n.D{"Missing": r.MissingList()})
	case CouldNotLook:
		// one clause per reason: "torch, torchvision (https://host/whl/cu126/torch/, ...): connection refused"
		var reasons []string
		pkgs, urls := map[string][]string{}, map[string][]string{}
		for _, p := range r.CouldNotLook {
			if _, ok := pkgs[p.Reason]; !ok {
				reasons = append(reasons, p.Reason)
			}
			pkgs[p.Reason] = append(pkgs[p.Reason], p.Package)
			urls[p.Reason] = append(urls[p.Reason], p.URL)
		}
		var parts []string
		for _, why := range reasons {
			parts = append(parts, i18n.T("indexcheck.reason.could_not_look_item", i18n.D{"Packages": i18n.Join(pkgs[why]), "URL": urls[why][0], "Why": why}))
		}
		return i18n.T("indexcheck.reason.could_not_look", i18n.D{"Items": i18n.JoinClauses(parts)})
	}
	return ""
}

// MissingList names the declared wheels the index lacks, in one line: "torch==2.6.0+cu126 for
// Windows (Python 3.12, 3.13); ...". Reason says the same as a sentence.
func (r Result) MissingList() string {
	var parts []string
	for _, m := range r.Missing {
		parts = append(parts, i18n.T("indexcheck.reason.missing_item", i18n.D{"Package": m.Package, "Version": m.Version, "OS": matrix.OSName(m.OS), "Pythons": i18n.Join(m.Pythons)}))
	}
	return i18n.JoinClauses(parts)
}

// Check asks the index for every package of build c, on each of oses and each of pythons.
func Check(ctx context.Context, f *Fetcher, src Source, c matrix.Candidate, oses, pythons []string) Result {
	res := Result{Framework: c.Framework, Version: c.FrameworkVersion, Channel: c.Channel, OS: oses, Pythons: pythons}
	// the packages' pages at the same time: a silent index costs one timeout, not one per package
	type got struct {
		wheels []pep.Wheel
		prob   *Problem
	}
	pages := make([]got, len(c.Packages))
	var wg sync.WaitGroup
	for i, p := range c.Packages {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pages[i].wheels, pages[i].prob = projectWheels(ctx, f, src, c, p.Name)
		}()
	}
	wg.Wait()
	for i, p := range c.Packages {
		wheels, prob := pages[i].wheels, pages[i].prob
		if prob != nil {
			res.CouldNotLook = append(res.CouldNotLook, *prob)
			continue
		}
		want := p.Version + p.LocalLabel
		for _, goos := range oses {
			var lacking []string
			for _, py := range pythons {
				if !slices.ContainsFunc(wheels, func(w pep.Wheel) bool { return pep.SameVersion(w.Version, want) && w.ForOS(goos) && w.ForPython(py) }) {
					lacking = append(lacking, py)
				}
			}
			if len(lacking) == 0 {
				continue
			}
			m := Missing{Package: p.Name, Version: want, OS: goos, Pythons: lacking}
			if p.Optional {
				res.OptionalMissing = append(res.OptionalMissing, m)
			} else {
				res.Missing = append(res.Missing, m)
			}
		}
		if i == 0 { // the framework itself: where its wheels are linked
			res.WheelsFrom = wheelsFrom(f, src, c, p.Name, wheels, want)
		}
		if i == 0 { // the framework itself: wheels for a system the build does not name
			for _, goos := range []string{"linux", "windows"} {
				if !slices.Contains(c.OS, goos) && slices.ContainsFunc(wheels, func(w pep.Wheel) bool { return pep.SameVersion(w.Version, want) && w.ForOS(goos) }) {
					res.ExtraOS = append(res.ExtraOS, goos)
				}
			}
		}
	}
	switch {
	case len(res.Missing) > 0:
		res.Status = Phantom
	case len(res.CouldNotLook) > 0:
		res.Status = CouldNotLook
	default:
		res.Status = Served
	}
	return res
}

// wheelsFrom is the host project's page links the wanted wheels on, when it is not the page's own.
func wheelsFrom(f *Fetcher, src Source, c matrix.Candidate, project string, wheels []pep.Wheel, want string) string {
	if src == (Source{}) { // the build's own index: its wheels may live on its own storage (Paddle's object store)
		return ""
	}
	pageURL, _ := src.pageURL(c, project)
	page, err := url.Parse(pageURL)
	if err != nil {
		return ""
	}
	for _, w := range wheels {
		if !pep.SameVersion(w.Version, want) {
			continue
		}
		if h := f.LinkHost(pageURL, w.File); h != "" && !strings.EqualFold(h, page.Host) {
			return h
		}
	}
	return ""
}

// projectWheels lists the wheels of project on build c's channel; a page that does not answer or
// cannot be read is a Problem. A page the index does not have (404) lists nothing.
func projectWheels(ctx context.Context, f *Fetcher, src Source, c matrix.Candidate, project string) ([]pep.Wheel, *Problem) {
	pageURL, flat := src.pageURL(c, project)
	files, err := f.Files(ctx, pageURL)
	if errors.Is(err, ErrNotServed) {
		return nil, nil
	}
	if err != nil {
		return nil, &Problem{Package: project, URL: urls.Redact(pageURL), Reason: err.Error()}
	}
	norm := pep.Normalize(project)
	var out []pep.Wheel
	for _, file := range files {
		w, err := pep.ParseWheel(file)
		if err != nil || (flat && w.Name != norm) {
			continue
		}
		if w.Name == norm {
			out = append(out, w)
		}
	}
	return out, nil
}

// Extra is a build the index serves that the matrix lacks: a framework version on a channel.
type Extra struct {
	Framework string   `json:"framework"`
	Version   string   `json:"version"`
	Channel   string   `json:"channel"`
	OS        []string `json:"os"`
}

// Report is the check of a whole matrix.
type Report struct {
	Rows  []Result `json:"rows"`
	Extra []Extra  `json:"extra"`
}

// Phantoms counts the rows with a declared wheel missing; Unknown the rows that could not be checked.
func (r Report) Phantoms() (phantoms, unknown int) {
	for _, row := range r.Rows {
		switch row.Status {
		case Phantom:
			phantoms++
		case CouldNotLook:
			unknown++
		}
	}
	return
}

// CheckMatrix checks every build of the frameworks (all when empty) on the OSes and Pythons it
// declares, parallel at most `parallel` pages at a time, and lists the extra builds the channels serve.
func CheckMatrix(ctx context.Context, m *matrix.Matrix, frameworks []string, f *Fetcher, src Source, parallel int) Report {
	if len(frameworks) == 0 {
		frameworks = matrix.Frameworks()
	}
	if parallel < 1 {
		parallel = 1
	}
	var cands []matrix.Candidate
	for _, fw := range frameworks {
		cands = append(cands, m.Candidates(fw)...)
	}
	rep := Report{Rows: make([]Result, len(cands)), Extra: []Extra{}}
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for i, c := range cands {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			rep.Rows[i] = Check(ctx, f, src, c, c.OS, pep.Pythons(c.PythonMin, c.PythonMax))
		}()
	}
	wg.Wait()
	rep.Extra = extras(ctx, m, cands, f, src)
	return rep
}

// extras lists the stable framework versions a channel serves that the matrix has no build for on
// that channel. Versions older than the matrix's oldest release, and patch releases the matrix has
// replaced by a newer patch of the same minor, are left out.
func extras(ctx context.Context, m *matrix.Matrix, cands []matrix.Candidate, f *Fetcher, src Source) []Extra {
	type key struct{ fw, ch string }
	probe := map[key]matrix.Candidate{}
	have := map[key][]string{}
	var order []key
	for _, c := range cands {
		k := key{c.Framework, c.Channel}
		if _, ok := probe[k]; !ok {
			probe[k] = c
			order = append(order, k)
		}
		have[k] = append(have[k], c.FrameworkVersion)
	}
	out := []Extra{}
	for _, k := range order {
		c := probe[k]
		if len(c.Packages) == 0 {
			continue
		}
		wheels, prob := projectWheels(ctx, f, src, c, c.Packages[0].Name)
		if prob != nil {
			continue
		}
		versions := m.Versions(k.fw)
		oldest, _ := version.NewVersion(versions[0])
		found := map[string][]string{}
		for _, w := range wheels {
			v := pep.Public(w.Version)
			if c.Packages[0].LocalLabel != "" && pep.LocalLabel(w.Version) != c.Packages[0].LocalLabel {
				continue
			}
			pv, err := version.NewVersion(v)
			if err != nil || pv.Prerelease() != "" || pv.Metadata() != "" || strings.ContainsAny(strings.ToLower(v), "abcdefghijklmnopqrstuvwxyz") || pv.LessThan(oldest) {
				continue
			}
			if slices.Contains(have[k], v) || superseded(pv, versions) {
				continue
			}
			for _, goos := range []string{"linux", "windows"} {
				if w.ForOS(goos) && !slices.Contains(found[v], goos) {
					found[v] = append(found[v], goos)
				}
			}
		}
		vs := make([]string, 0, len(found))
		for v := range found {
			vs = append(vs, v)
		}
		sort.Slice(vs, func(i, j int) bool {
			a, _ := version.NewVersion(vs[i])
			b, _ := version.NewVersion(vs[j])
			return a.LessThan(b)
		})
		for _, v := range vs {
			if len(found[v]) > 0 {
				sort.Strings(found[v])
				out = append(out, Extra{Framework: k.fw, Version: v, Channel: k.ch, OS: found[v]})
			}
		}
	}
	return out
}

// superseded: the matrix holds a newer patch of v's minor (2.9.1 replaces 2.9.0).
func superseded(v *version.Version, versions []string) bool {
	seg := v.Segments()
	for _, s := range versions {
		mv, err := version.NewVersion(s)
		if err != nil {
			continue
		}
		ms := mv.Segments()
		if len(seg) >= 2 && len(ms) >= 2 && ms[0] == seg[0] && ms[1] == seg[1] && v.LessThan(mv) {
			return true
		}
	}
	return false
}
