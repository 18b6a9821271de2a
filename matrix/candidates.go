package matrix

import (
	"slices"
	"strings"

	"gpuwiz/steps/i18n"
)

// releases returns the framework's releases, newest first.
func (m *Matrix) releases(framework string) []Release {
	switch framework {
	case "torch":
		return m.Torch
	case "paddle":
		return m.Paddle
	}
	return nil
}

// Frameworks lists the frameworks the matrix knows.
func Frameworks() []string { return []string{"torch", "paddle"} }

// CUDARow returns the driver table row for a CUDA version ("12.6").
func (m *Matrix) CUDARow(v string) (CUDARow, bool) {
	r, ok := m.cudaRows[v]
	if !ok {
		return CUDARow{}, false
	}
	return *r, true
}

// Candidates returns every build of framework, newest release first, unjudged (for printing).
func (m *Matrix) Candidates(framework string) []Candidate {
	var out []Candidate
	for i := range m.releases(framework) {
		r := &m.releases(framework)[i]
		for j := range r.Builds {
			out = append(out, candidateOf(framework, r, &r.Builds[j], ""))
		}
	}
	return out
}

// Lookup finds one build: version "2.6" matches the newest 2.6.x, "2.6.0" only itself.
func (m *Matrix) Lookup(framework, version, channel string) (Candidate, bool) {
	for i := range m.releases(framework) {
		r := &m.releases(framework)[i]
		if !versionMatches(r.parsed, version) {
			continue
		}
		for j := range r.Builds {
			if r.Builds[j].Channel == channel {
				return candidateOf(framework, r, &r.Builds[j], ""), true
			}
		}
	}
	return Candidate{}, false
}

// candidateOf is build b of release r as a candidate; on os ("" any), a build note about another
// system's wheel (note_os) is left out, as it says nothing about the machine.
func candidateOf(framework string, r *Release, b *Build, os string) Candidate {
	buildNote := i18n.Local(b.Note, b.NoteZh)
	if os != "" && len(b.NoteOS) > 0 && !slices.Contains(b.NoteOS, os) {
		buildNote = ""
	}
	var notes []string
	for _, n := range []string{i18n.Local(r.Note, r.NoteZh), buildNote} {
		if n != "" {
			notes = append(notes, n)
		}
	}
	src := r.Source
	if b.Source != "" && b.Source != r.Source {
		src = joinSource(r.Source, b.Source)
	}
	osList := b.OS
	if len(osList) == 0 {
		osList = r.OS
	}
	return Candidate{
		OS:               slices.Clone(osList),
		PythonMin:        r.PythonMin,
		PythonMax:        r.PythonMax,
		Framework:        framework,
		FrameworkVersion: r.Version,
		Channel:          b.Channel,
		CUDA:             b.CUDA,
		CUDNN:            b.CUDNN,
		IndexURL:         b.IndexURL,
		Packages:         packagesOf(framework, r, b),
		Verified:         r.Verified && b.Verified && len(b.UnverifiedOS) == 0, // judge narrows it to one OS
		Note:             joinNotes(notes),
		NoteParts:        notes,
		Source:           src,
		Reasons:          []string{},
	}
}

// packagesOf lists the exact pip requirements of a build. Torch wheels from download.pytorch.org carry
// the channel as a local label (2.6.0+cu126); Paddle's do not, and its GPU package has its own name.
func packagesOf(framework string, r *Release, b *Build) []Package {
	if framework == "paddle" {
		name := "paddlepaddle-gpu"
		if b.Channel == "cpu" {
			name = "paddlepaddle"
		}
		return []Package{{Name: name, Version: r.Version}}
	}
	label := "+" + b.Channel
	pkgs := []Package{
		{Name: "torch", Version: r.Version, LocalLabel: label},
		{Name: "torchvision", Version: r.Torchvision, LocalLabel: label},
	}
	if r.Torchaudio != "" {
		pkgs = append(pkgs, Package{Name: "torchaudio", Version: r.Torchaudio, LocalLabel: label,
			Optional: slices.Contains(r.TorchaudioOptional, b.Channel)})
	}
	return pkgs
}

// HasRelease reports whether the matrix knows a release of framework matching version ("2.6" or "2.6.0").
func (m *Matrix) HasRelease(framework, version string) bool {
	for i := range m.releases(framework) {
		if versionMatches(m.releases(framework)[i].parsed, version) {
			return true
		}
	}
	return false
}

// Versions lists framework's releases as the matrix holds them, oldest first.
func (m *Matrix) Versions(framework string) []string {
	var out []string
	for _, r := range m.releases(framework) {
		out = append(out, r.Version)
	}
	slices.Reverse(out) // releases are kept newest first
	return out
}

// Channels lists every channel any release of framework has: CUDA channels oldest first, then "cpu".
func (m *Matrix) Channels(framework string) []string {
	var out []string
	for _, r := range m.releases(framework) {
		for _, b := range r.Builds {
			if !slices.Contains(out, b.Channel) {
				out = append(out, b.Channel)
			}
		}
	}
	// "cu118" < "cu126" < "cu130" as strings too, and every CUDA channel has the same length; "cpu" last.
	slices.SortFunc(out, func(a, b string) int {
		if (a == "cpu") != (b == "cpu") {
			if a == "cpu" {
				return 1
			}
			return -1
		}
		return strings.Compare(a, b)
	})
	return out
}

// joinSource joins two source lists, "a; b", leaving out b's parts that a already names.
func joinSource(a, b string) string {
	if a == "" {
		return b
	}
	parts := strings.Split(a, "; ")
	for _, p := range strings.Split(b, "; ") {
		if p != "" && !slices.Contains(parts, p) {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, "; ")
}

// joinNotes joins a row's notes: sentences with a space, fragments without a final period with "; ".
func joinNotes(parts []string) string {
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			switch {
			case strings.HasSuffix(parts[i-1], "。"):
				// A Chinese sentence ends with its full stop: the next one follows it directly.
			case strings.HasSuffix(parts[i-1], "."):
				b.WriteString(" ")
			case i18n.IsChinese():
				b.WriteString("；")
			default:
				b.WriteString("; ")
			}
		}
		b.WriteString(p)
	}
	return b.String()
}

// DriverLess reports whether NVIDIA driver version a is older than b ("528.33" < "560.35.05").
func DriverLess(a, b string) bool { return driverLess(a, b) }

// DriverNeed is what NVIDIA's driver needs on one OS for one CUDA version of the matrix.
type DriverNeed struct {
	CUDA     string `json:"cuda"`             // "12.8"
	Minimum  string `json:"minimum"`          // minor-version compatibility: the least driver that runs it
	Full     string `json:"full,omitempty"`   // the driver shipped with the full toolkit ("" not recorded)
	MinCap   string `json:"min_compute_cap"`  // the oldest compute capability it builds kernels for
	Verified bool   `json:"verified"`         // the row is checked against its sources
	Source   string `json:"source,omitempty"` // public references
}

// DriverNeeds lists, oldest CUDA first, the driver each CUDA version of the matrix needs on goos.
func (m *Matrix) DriverNeeds(goos string) []DriverNeed {
	out := make([]DriverNeed, 0, len(m.CUDA))
	for _, r := range m.CUDA {
		n := DriverNeed{CUDA: r.Version, Minimum: r.MinorCompatLinux, Full: r.FullLinux, MinCap: r.MinComputeCap, Verified: r.Verified, Source: r.Source}
		if goos == "windows" {
			n.Minimum, n.Full = r.MinorCompatWindows, r.FullWindows
		}
		out = append(out, n)
	}
	slices.SortStableFunc(out, func(a, b DriverNeed) int {
		pa, _ := parseMajorMinor(a.CUDA)
		pb, _ := parseMajorMinor(b.CUDA)
		switch {
		case pa.less(pb):
			return -1
		case pb.less(pa):
			return 1
		}
		return 0
	})
	return out
}

// ChannelCUDA is the CUDA version a wheel channel names ("cu128" → "12.8"); false for another name.
func ChannelCUDA(channel string) (string, bool) {
	m := channelRE().FindStringSubmatch(channel)
	if m == nil {
		return "", false
	}
	major := strings.TrimLeft(m[1], "0")
	return major + "." + m[2], true
}

// CapLess reports whether compute capability a is older than b ("6.1" < "7.5"); false when either
// does not read.
func CapLess(a, b string) bool {
	pa, okA := parseMajorMinor(a)
	pb, okB := parseMajorMinor(b)
	return okA && okB && pa.less(pb)
}
