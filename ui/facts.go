package ui

import (
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gpuwiz/matrix"
	"gpuwiz/steps/gpu"
)

// factsFor turns the probe's report into the matrix's facts for one framework.
func factsFor(r gpu.Report, framework, version string) matrix.Facts {
	f := matrix.Facts{Framework: framework, FrameworkVersion: version, OS: reportOS(r, runtime.GOOS),
		DriverVersion: r.DriverVersion, CUDAMax: r.CUDAMax}
	for _, g := range r.GPUs {
		if g.ComputeCapability != "" {
			f.ComputeCaps = append(f.ComputeCaps, g.ComputeCapability)
		}
	}
	f.NoGPU = !r.Available || len(r.GPUs) == 0
	return f
}

// reportOS is the OS builds are judged for: the one the report was made on (a simulated Windows rig
// is judged as Windows), else fallback.
func reportOS(r gpu.Report, fallback string) string {
	if r.OS != "" {
		return r.OS
	}
	return fallback
}

// driverWords are the plain sentences about the driver and cards that head the GPU screen; goos is
// the OS the builds are judged for.
func driverWords(r gpu.Report, goos string) []string {
	var out []string
	if !r.Available {
		out = append(out, "No NVIDIA driver answered on this machine.")
		if r.Message != "" {
			out = append(out, r.Message)
		}
		out = append(out, "Install the NVIDIA driver (nvidia.com/drivers) and run gpuwiz again. No CUDA toolkit is needed: the pip wheels carry their own CUDA. You can still continue with a CPU build.")
		return out
	}
	if len(r.GPUs) == 0 {
		return append(out, "The driver answered but reported no NVIDIA card. On a laptop, check that the NVIDIA GPU is enabled in the BIOS and Windows graphics settings.")
	}
	if cuda, ok := parseMajorMinor(r.CUDAMax); ok && cuda < 1108 {
		out = append(out, fmt.Sprintf("Your driver %s supports CUDA up to %s. Current PyTorch and PaddlePaddle GPU builds need CUDA 11.8 or newer: update the NVIDIA driver to use the GPU.", r.DriverVersion, r.CUDAMax))
	} else if ok && cuda < 1206 {
		out = append(out, fmt.Sprintf("Your driver %s supports CUDA up to %s: only older channels (cu118, cu12x) fit. Updating the driver opens the newer builds.", r.DriverVersion, r.CUDAMax))
	}
	for _, g := range r.GPUs {
		if _, ok := parseMajorMinor(g.ComputeCapability); !ok {
			out = append(out, fmt.Sprintf("GPU %d (%s): compute capability unknown; gpuwiz cannot tell which builds carry kernels for it.", g.Index, g.Name))
		} else if note := archNote(g, goos); note != "" {
			out = append(out, note)
		}
	}
	return out
}

// archNotes caches archNote by compute capability and OS: the GPU screen redraws often.
var archNotes sync.Map

// archNote is the one sentence, derived from the embedded matrix, on which PyTorch builds carry
// kernels for card g on goos: the newest release and channel that do, what newer channels did, and
// from which release none does. It is "" when every channel of the newest release carries them.
func archNote(g gpu.GPU, goos string) string {
	if goos != "linux" && goos != "windows" {
		return ""
	}
	key := g.ComputeCapability + "/" + goos
	words, ok := archNotes.Load(key)
	if !ok {
		words = archWords(g.ComputeCapability, goos)
		archNotes.Store(key, words)
	}
	if words == "" {
		return ""
	}
	return cardLabel(g) + words.(string)
}

func cardLabel(g gpu.GPU) string {
	return fmt.Sprintf("GPU %d (%s, compute capability %s)", g.Index, g.Name, g.ComputeCapability)
}

// archWords is archNote after the card's label. Only the architecture is judged: the driver is
// taken as new enough (the driver has its own sentence) and no Python is given.
func archWords(cc, goos string) string {
	mx, err := matrix.Embedded()
	if err != nil {
		return ""
	}
	sel := mx.Select(matrix.Facts{Framework: "torch", OS: goos, CUDAMax: "99.0", ComputeCaps: []string{cc}})
	type release struct {
		version string
		ok      []matrix.Candidate // the GPU builds with kernels for the card
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
		return ""
	}
	slices.SortFunc(rels, func(a, b *release) int { return compareVersions(b.version, a.version) }) // newest first
	on := osWord(goos)
	newest := -1
	for i, r := range rels {
		if len(r.ok) > 0 {
			newest = i
			break
		}
	}
	if newest < 0 {
		return fmt.Sprintf(": no PyTorch GPU build from %s to %s has kernels for it on %s; use a CPU build.",
			shortVersion(rels[len(rels)-1].version), shortVersion(rels[0].version), on)
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
		return ""
	}
	lastWith := map[string]string{}
	for i := len(rels) - 1; i >= 0; i-- { // oldest first, so the newest release wins
		for _, c := range rels[i].ok {
			lastWith[c.Channel] = rels[i].version
		}
	}
	var had, never []string
	for _, ch := range newer {
		if v, ok := lastWith[ch]; ok {
			had = append(had, fmt.Sprintf("%s up to torch %s only", ch, shortVersion(v)))
		} else {
			never = append(never, ch)
		}
	}
	// never is "X and newer" when it is every channel from its first on.
	neverWords := strings.Join(never, ", ")
	suffix := len(never) > 1 && slices.Equal(never, newer[len(newer)-len(never):])
	if suffix {
		neverWords = never[0] + " and newer"
	}
	var channels string
	switch {
	case len(had) > 0 && len(never) > 0:
		channels = fmt.Sprintf("Newer channels: %s, %s never", strings.Join(had, ", "), neverWords)
	case len(had) > 0:
		channels = "Newer channels: " + strings.Join(had, ", ")
	case suffix:
		channels = fmt.Sprintf("No %s or newer build has them", never[0])
	case len(never) > 0:
		channels = fmt.Sprintf("No %s build has them", neverWords)
	}
	s := fmt.Sprintf(": the newest PyTorch with kernels for it on %s is %s on %s.", on, shortVersion(best.FrameworkVersion), best.Channel)
	switch {
	case newest > 0 && channels != "":
		s += fmt.Sprintf(" %s; from torch %s on, no build at all.", channels, shortVersion(rels[newest-1].version))
	case newest > 0:
		s += fmt.Sprintf(" From torch %s on, no build has them.", shortVersion(rels[newest-1].version))
	default:
		s += " " + channels + "."
	}
	return s
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

func frameworkName(f string) string {
	switch f {
	case "torch":
		return "PyTorch"
	case "paddle":
		return "PaddlePaddle"
	}
	return f
}

// forCards is the report narrowed to the chosen card (index ≥ 0), so every later judgement (which
// builds carry kernels for it) is about that card alone; -1 keeps every card.
func forCards(r gpu.Report, index int) gpu.Report {
	if index < 0 {
		return r
	}
	for _, g := range r.GPUs {
		if g.Index == index {
			r.GPUs = []gpu.GPU{g}
			return r
		}
	}
	return r
}
