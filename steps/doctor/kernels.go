package doctor

import "gpuwiz/matrix"

// Kernels says, from the matrix's record of a build, whether it has kernels for every card of
// capabilities caps ("12.0"): Known is false when the matrix does not record that build's arch list
// (or it is a CPU build), Missing names the capabilities it lacks. No Python runs.
type Kernels struct {
	Known   bool     `json:"known"`
	All     bool     `json:"all"`               // kernels (or PTX) for every card
	Missing []string `json:"missing,omitempty"` // the cards' capabilities without kernels
}

// KernelsFor judges the matrix's build of framework version on channel for the cards.
func KernelsFor(m *matrix.Matrix, goos, framework, version, channel string, caps []string) Kernels {
	b := buildOf(releaseOf(m, framework, version), channel)
	if b == nil || len(caps) == 0 {
		return Kernels{}
	}
	archs, minCap := archOf(b, goos), minCapOf(b, goos)
	if len(archs) == 0 && minCap == "" {
		return Kernels{}
	}
	k := Kernels{Known: true, All: true}
	for _, s := range caps {
		cc, ok := parseComputeCap(s)
		if !ok {
			continue
		}
		covered := true
		if len(archs) > 0 {
			covered, _ = archCovers(archs, cc)
		} else if m, ok := parseComputeCap(minCap); ok {
			covered = cc.major > m.major || cc.major == m.major && cc.minor >= m.minor
		}
		if !covered {
			k.All = false
			k.Missing = append(k.Missing, s)
		}
	}
	return k
}
