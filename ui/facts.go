package ui

import (
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

// factsFor turns the probe's report into the matrix's facts for one framework.
func factsFor(r app.GPUReport, framework, version string) app.Facts {
	f := app.Facts{Framework: framework, FrameworkVersion: version, OS: reportOS(r, runtime.GOOS),
		DriverVersion: r.DriverVersion, CUDAMax: r.CUDAMax}
	for _, g := range r.GPUs {
		if g.ComputeCapability != "" {
			f.ComputeCaps = append(f.ComputeCaps, g.ComputeCapability)
		}
	}
	f.NoGPU = !r.Available || len(r.GPUs) == 0
	if !r.Available {
		// A card on the PCI bus without a driver: judge the builds for it, each with the driver it needs.
		for _, a := range r.Adapters {
			if a.ComputeCapability != "" {
				f.ComputeCaps = append(f.ComputeCaps, a.ComputeCapability)
			}
		}
		f.DriverMissing = len(f.ComputeCaps) > 0
		f.NoGPU = !f.DriverMissing
	}
	return f
}

// reportOS is the OS builds are judged for: the one the report was made on (a simulated Windows rig
// is judged as Windows), else fallback.
func reportOS(r app.GPUReport, fallback string) string {
	if r.OS != "" {
		return r.OS
	}
	return fallback
}

// driverWords are the plain sentences about the driver and cards that head the GPU screen; goos is
// the OS the builds are judged for. With age false the sentence on what the driver runs is left out
// (the driver story says it).
func driverWords(r app.GPUReport, goos string, age bool) []string {
	var out []string
	if !r.Available {
		// The probe's own message says what was looked for and what to do; the screen adds only
		// what it leaves out, so no advice is said twice.
		if r.Message != "" {
			return append(out, r.Message, i18n.T("ui.gpu.driver.no_toolkit"))
		}
		return append(out, i18n.T("ui.gpu.driver.none"), i18n.T("ui.gpu.driver.none_hint"))
	}
	if len(r.GPUs) == 0 {
		return append(out, i18n.T("ui.gpu.driver.no_card"))
	}
	if age {
		if w := driverAgeWord(r, goos); w != "" {
			out = append(out, w)
		}
	}
	for _, g := range r.GPUs {
		if _, ok := parseMajorMinor(g.ComputeCapability); !ok {
			out = append(out, i18n.T("ui.gpu.driver.cc_unknown", i18n.D{"Index": g.Index, "Name": g.Name}))
		} else if note := archNote(g, goos); note != "" {
			out = append(out, note)
		}
	}
	return out
}

// driverAgeWord is the sentence on what the driver runs and what a newer one adds, by the matrix's
// rule (the one each build on the channel list is judged by: a CUDA version's builds run from its
// minor-version-compatibility driver on); "" when it runs every CUDA version the matrix knows.
func driverAgeWord(r app.GPUReport, goos string) string {
	mx, err := app.EmbeddedMatrix()
	if err != nil {
		return ""
	}
	var caps []string
	for _, g := range r.GPUs {
		caps = append(caps, g.ComputeCapability)
	}
	reach := app.DriverReachOf(mx, goos, r.DriverVersion, caps)
	if len(reach.Steps) == 0 {
		return ""
	}
	drv := r.DriverVersion
	if r.CUDAMax != "" {
		drv = i18n.T("ui.gpu.driver.label", i18n.D{"Driver": r.DriverVersion, "CUDA": r.CUDAMax})
	}
	if len(reach.Runs) == 0 {
		return i18n.T("ui.gpu.driver.too_old", i18n.D{"Driver": drv, "Oldest": reach.Steps[0].CUDA[0], "Need": reach.Steps[0].Driver, "OS": osWord(goos)})
	}
	var adds []string
	for _, s := range reach.Steps {
		adds = append(adds, i18n.T("ui.gpu.driver.adds", i18n.D{"Need": s.Driver, "CUDA": cudaList(s.CUDA)}))
	}
	runs := cudaList(reach.Runs)
	newest, _ := parseMajorMinor(reach.Runs[len(reach.Runs)-1])
	if most, ok := parseMajorMinor(r.CUDAMax); ok && newest > most {
		return i18n.T("ui.gpu.driver.old_limits", i18n.D{"Driver": drv, "Runs": runs, "CUDA": r.CUDAMax, "Adds": i18n.JoinClauses(adds)})
	}
	return i18n.T("ui.gpu.driver.old", i18n.D{"Driver": drv, "Runs": runs, "Adds": i18n.JoinClauses(adds)})
}

// archNotes caches archFacts by compute capability and OS: the GPU screen redraws often. The facts
// hold no words, so a language switch needs no new cache.
var archNotes sync.Map

// archNote is the one sentence, derived from the embedded matrix, on which PyTorch builds carry
// kernels for card g on goos: the newest release and channel that do, what newer channels did, and
// from which release none does. It is "" when every channel of the newest release carries them.
func archNote(g app.GPU, goos string) string {
	if goos != "linux" && goos != "windows" {
		return ""
	}
	key := g.ComputeCapability + "/" + goos
	f, ok := archNotes.Load(key)
	if !ok {
		f = archFactsOf(g.ComputeCapability, goos)
		archNotes.Store(key, f)
	}
	return f.(archFacts).words(cardLabel(g), osWord(goos))
}

func cardLabel(g app.GPU) string {
	return i18n.T("ui.gpu.card", i18n.D{"Index": g.Index, "Name": g.Name, "CC": g.ComputeCapability})
}

// archFacts is what the matrix says about one compute capability on one OS, in no language.
type archFacts struct {
	quiet     bool   // every channel of the newest release carries kernels for it: nothing to say
	none      bool   // no GPU build carries them: from and to are the oldest and newest releases
	from, to  string // none: the releases looked at
	version   string // the newest release with kernels for it
	channel   string // its channel with the newest CUDA
	goneFrom  string // the release from which no build has them, "" when the newest has them
	had       [][2]string
	never     []string // channels above the best one that never had them
	neverTail bool     // never is every channel from never[0] on
}

// words is the sentence about the card labelled card, on osName.
func (f archFacts) words(card, osName string) string {
	switch {
	case f.quiet:
		return ""
	case f.none:
		return i18n.T("ui.gpu.arch.none", i18n.D{"Card": card, "From": f.from, "To": f.to, "OS": osName})
	}
	var had []string
	for _, h := range f.had {
		had = append(had, i18n.T("ui.gpu.arch.up_to", i18n.D{"Channel": h[0], "Version": h[1]}))
	}
	neverWords := i18n.Join(f.never)
	if f.neverTail {
		neverWords = i18n.T("ui.gpu.arch.and_newer", i18n.D{"Channel": f.never[0]})
	}
	var channels string
	switch {
	case len(had) > 0 && len(f.never) > 0:
		channels = i18n.T("ui.gpu.arch.had_never", i18n.D{"Had": i18n.Join(had), "Never": neverWords})
	case len(had) > 0:
		channels = i18n.T("ui.gpu.arch.had", i18n.D{"Had": i18n.Join(had)})
	case f.neverTail:
		channels = i18n.T("ui.gpu.arch.none_from", i18n.D{"Channel": f.never[0]})
	case len(f.never) > 0:
		channels = i18n.T("ui.gpu.arch.none_of", i18n.D{"Channels": neverWords})
	}
	first := i18n.T("ui.gpu.arch.newest", i18n.D{"Card": card, "OS": osName, "Version": f.version, "Channel": f.channel})
	var second string
	switch {
	case f.goneFrom != "" && channels != "":
		second = i18n.T("ui.gpu.arch.gone_after", i18n.D{"Channels": channels, "Version": f.goneFrom})
	case f.goneFrom != "":
		second = i18n.T("ui.gpu.arch.gone_from", i18n.D{"Version": f.goneFrom})
	default:
		second = i18n.T("ui.gpu.arch.channels_end", i18n.D{"Channels": channels})
	}
	return i18n.T("ui.gpu.arch.two", i18n.D{"First": first, "Second": second})
}

// archFactsOf reads archFacts from the embedded matrix. Only the architecture is judged: the driver
// is taken as new enough (the driver has its own sentence) and no Python is given.
func archFactsOf(cc, goos string) archFacts {
	mx, err := app.EmbeddedMatrix()
	if err != nil {
		return archFacts{quiet: true}
	}
	sel := mx.Select(app.Facts{Framework: "torch", OS: goos, CUDAMax: "99.0", ComputeCaps: []string{cc}})
	type release struct {
		version string
		ok      []app.Candidate // the GPU builds with kernels for the card
	}
	var rels []*release
	byVersion := map[string]*release{}
	cudaOf := map[string]int{} // every GPU channel of any release, by its CUDA version
	for _, c := range sel.Candidates {
		if c.Channel == "cpu" || !slices.Contains(c.OS, goos) {
			continue
		}
		r := byVersion[c.FrameworkVersion]
		if r == nil {
			r = &release{version: c.FrameworkVersion}
			byVersion[c.FrameworkVersion] = r
			rels = append(rels, r)
		}
		v, _ := parseMajorMinor(c.CUDA)
		cudaOf[c.Channel] = v
		if c.Compatible {
			r.ok = append(r.ok, c)
		}
	}
	if len(rels) == 0 {
		return archFacts{quiet: true}
	}
	slices.SortFunc(rels, func(a, b *release) int { return compareVersions(b.version, a.version) }) // newest first
	newest := -1
	for i, r := range rels {
		if len(r.ok) > 0 {
			newest = i
			break
		}
	}
	if newest < 0 {
		return archFacts{none: true, from: shortVersion(rels[len(rels)-1].version), to: shortVersion(rels[0].version)}
	}
	best := rels[newest].ok[0]
	for _, c := range rels[newest].ok {
		if cudaOf[c.Channel] > cudaOf[best.Channel] {
			best = c
		}
	}
	// The channels above the best one: the newest release with kernels on each, if any.
	var newer []string
	for ch, v := range cudaOf {
		if v > cudaOf[best.Channel] {
			newer = append(newer, ch)
		}
	}
	slices.SortFunc(newer, func(a, b string) int { return cudaOf[a] - cudaOf[b] })
	if newest == 0 && len(newer) == 0 {
		return archFacts{quiet: true}
	}
	lastWith := map[string]string{}
	for i := len(rels) - 1; i >= 0; i-- { // oldest first, so the newest release wins
		for _, c := range rels[i].ok {
			lastWith[c.Channel] = rels[i].version
		}
	}
	f := archFacts{version: shortVersion(best.FrameworkVersion), channel: best.Channel}
	for _, ch := range newer {
		if v, ok := lastWith[ch]; ok {
			f.had = append(f.had, [2]string{ch, shortVersion(v)})
		} else {
			f.never = append(f.never, ch)
		}
	}
	// never is "X and newer" when it is every channel from its first on.
	f.neverTail = len(f.never) > 1 && slices.Equal(f.never, newer[len(newer)-len(f.never):])
	if newest > 0 {
		f.goneFrom = shortVersion(rels[newest-1].version)
	}
	return f
}

func osWord(goos string) string {
	if goos == "windows" {
		return "Windows"
	}
	return "Linux"
}

// shortVersion is "2.14" for "2.14.1": release notes and channels speak of torch 2.14.
func shortVersion(v string) string {
	if a, rest, ok := strings.Cut(v, "."); ok {
		b, _, _ := strings.Cut(rest, ".")
		return a + "." + b
	}
	return v
}

// compareVersions orders dotted release numbers ("2.9.1" < "2.10.0").
func compareVersions(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < max(len(as), len(bs)); i++ {
		var x, y int
		if i < len(as) {
			x, _ = strconv.Atoi(as[i])
		}
		if i < len(bs) {
			y, _ = strconv.Atoi(bs[i])
		}
		if x != y {
			return x - y
		}
	}
	return 0
}

// parseMajorMinor reads "12.6" as 1206.
func parseMajorMinor(s string) (int, bool) {
	maj, rest, _ := strings.Cut(strings.TrimSpace(s), ".")
	a, err := strconv.Atoi(maj)
	if err != nil {
		return 0, false
	}
	min, _, _ := strings.Cut(rest, ".")
	b, err := strconv.Atoi(min)
	if err != nil && min != "" {
		return 0, false
	}
	return a*100 + b, true
}

// forCards is the report narrowed to the chosen card (index ≥ 0), so every later judgement (which
// builds carry kernels for it) is about that card alone; -1 keeps every card.
func forCards(r app.GPUReport, index int) app.GPUReport {
	if index < 0 {
		return r
	}
	for _, g := range r.GPUs {
		if g.Index == index {
			r.GPUs = []app.GPU{g}
			return r
		}
	}
	return r
}
