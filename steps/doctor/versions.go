package doctor

import (
	"strconv"
	"strings"
)

// numbers parses "580.65.06" or "12.6" into its numeric parts; ok is false on anything else.
func numbers(s string) ([]int, bool) {
	s = strings.TrimSpace(strings.TrimPrefix(s, "v"))
	if s == "" {
		return nil, false
	}
	var out []int
	for _, p := range strings.Split(s, ".") {
		n, err := strconv.Atoi(p)
		if err != nil {
			return nil, false
		}
		out = append(out, n)
	}
	return out, true
}

// compareVersions compares dotted numeric versions; missing parts count as zero.
func compareVersions(a, b []int) int {
	for i := 0; i < len(a) || i < len(b); i++ {
		var x, y int
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

// versionLess is a < b for dotted numeric strings; unparsable input is never less.
func versionLess(a, b string) bool {
	x, ok1 := numbers(a)
	y, ok2 := numbers(b)
	return ok1 && ok2 && compareVersions(x, y) < 0
}

// majorMinor keeps the first two parts: "3.11.7" -> "3.11".
func majorMinor(v string) string {
	parts := strings.Split(v, ".")
	if len(parts) > 2 {
		parts = parts[:2]
	}
	return strings.Join(parts, ".")
}

// computeCap is a compute capability such as 12.0.
type computeCap struct{ major, minor int }

func parseComputeCap(s string) (computeCap, bool) {
	n, ok := numbers(s)
	if !ok || len(n) != 2 {
		return computeCap{}, false
	}
	return computeCap{n[0], n[1]}, true
}

func (c computeCap) String() string { return strconv.Itoa(c.major) + "." + strconv.Itoa(c.minor) }

// archEntry is one entry of an arch list: kernels (SASS) for one capability, or PTX that JITs forward.
type archEntry struct {
	cap computeCap
	ptx bool
}

// parseArch reads torch's "sm_90", "sm_90a", "compute_90" and the matrix's "9.0", "12.0+PTX".
// Arch-specific "a"/"f" builds run only on their exact capability; they are kept as exact entries.
func parseArch(s string) (archEntry, bool) {
	s = strings.TrimSpace(strings.ToLower(s))
	if strings.HasSuffix(s, "+ptx") {
		c, ok := parseComputeCap(strings.TrimSuffix(s, "+ptx"))
		return archEntry{c, true}, ok
	}
	ptx := false
	switch {
	case strings.HasPrefix(s, "sm_"):
		s = s[3:]
	case strings.HasPrefix(s, "compute_"):
		s, ptx = s[8:], true
	default:
		c, ok := parseComputeCap(s)
		return archEntry{cap: c}, ok
	}
	s = strings.TrimRight(s, "af")
	if len(s) < 2 {
		return archEntry{}, false
	}
	major, err1 := strconv.Atoi(s[:len(s)-1])
	minor, err2 := strconv.Atoi(s[len(s)-1:])
	if err1 != nil || err2 != nil {
		return archEntry{}, false
	}
	return archEntry{computeCap{major, minor}, ptx}, true
}

// archCovers says whether a wheel built for archs runs kernels on a GPU of capability gpuCap:
// SASS for X.y runs on X.z with z >= y; PTX for X.y is JIT-compiled for any newer capability.
func archCovers(archs []string, gpuCap computeCap) (covered, viaPTX bool) {
	// The matrix's "12.0+PTX" is SASS for 12.0 and PTX for 12.0.
	var expanded []string
	for _, a := range archs {
		if strings.HasSuffix(strings.ToLower(a), "+ptx") {
			expanded = append(expanded, a[:len(a)-4])
		}
		expanded = append(expanded, a)
	}
	archs = expanded
	for _, a := range archs {
		e, ok := parseArch(a)
		if !ok {
			continue
		}
		if !e.ptx && e.cap.major == gpuCap.major && e.cap.minor <= gpuCap.minor {
			return true, false
		}
	}
	for _, a := range archs {
		e, ok := parseArch(a)
		if ok && e.ptx && (e.cap.major < gpuCap.major || e.cap.major == gpuCap.major && e.cap.minor <= gpuCap.minor) {
			return true, true
		}
	}
	return false, false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
