package pep

import (
	"fmt"
	"strconv"
	"strings"
)

// SplitLocal splits a version at its local label (PEP 440): "2.6.0+cu126" → "2.6.0", "cu126";
// "3.0.0" → "3.0.0", "".
func SplitLocal(v string) (public, local string) {
	public, local, _ = strings.Cut(v, "+")
	return public, local
}

// Public is a version without its local label: "2.6.0+cu126" → "2.6.0".
func Public(v string) string { p, _ := SplitLocal(v); return p }

// LocalLabel is the local label with its "+", as pip prints it after a version: "+cu126", or "".
func LocalLabel(v string) string {
	if i := strings.IndexByte(v, '+'); i >= 0 {
		return v[i:]
	}
	return ""
}

// Channel is the channel a local label names, without its "+": "+cu126" → "cu126"; "" stays "".
func Channel(label string) string { return strings.TrimPrefix(label, "+") }

// normalVersion is a version as PEP 440 compares it here: lower case, the local label's
// separators ("-", "_", ".") all ".".
func normalVersion(v string) string {
	v = strings.ToLower(strings.TrimSpace(v))
	if pub, local, ok := strings.Cut(v, "+"); ok {
		return pub + "+" + strings.Map(func(r rune) rune {
			if r == '-' || r == '_' {
				return '.'
			}
			return r
		}, local)
	}
	return v
}

// SameVersion compares two versions as pip's "==" does for the exact builds gpuwiz pins: the local
// label included ("2.6.0+cu126" is not "2.6.0+cu124"), case and the label's separators ignored
// ("2.6.0+CU126" is "2.6.0+cu126").
func SameVersion(a, b string) bool { return normalVersion(a) == normalVersion(b) }

// PinMatches reports whether version satisfies "==pin" (PEP 440): the same version, or, when the
// pin has no local label, the same public version with any label ("2.6.0" matches "2.6.0+cu126").
func PinMatches(version, pin string) bool {
	if SameVersion(version, pin) {
		return true
	}
	if strings.Contains(pin, "+") {
		return false
	}
	return SameVersion(Public(version), pin)
}

// CUDAOfChannel is the CUDA version a channel label names: "cu126" → "12.6", "cu118" → "11.8",
// "+cu130" → "13.0"; "" for "cpu", "rocm6.2" and anything else.
func CUDAOfChannel(ch string) string {
	d, ok := strings.CutPrefix(strings.TrimPrefix(ch, "+"), "cu")
	if !ok || len(d) < 3 {
		return ""
	}
	if _, err := strconv.Atoi(d); err != nil {
		return ""
	}
	return d[:len(d)-1] + "." + d[len(d)-1:]
}

// ParsePython reads the major and minor of a Python version: "3.11", "3.11.7", "3.13.0rc1"; ok is
// false for anything else ("3", "three.eleven", "").
func ParsePython(v string) (major, minor int, ok bool) {
	a, rest, found := strings.Cut(strings.TrimSpace(v), ".")
	if !found {
		return 0, 0, false
	}
	b, _, _ := strings.Cut(rest, ".")
	ma, err1 := strconv.Atoi(a)
	mi, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || ma < 0 || mi < 0 {
		return 0, 0, false
	}
	return ma, mi, true
}

// Minor is a Python version's "major.minor": "3.11.7" → "3.11". A version it cannot read comes back
// as it was.
func Minor(v string) string {
	if ma, mi, ok := ParsePython(v); ok {
		return fmt.Sprintf("%d.%d", ma, mi)
	}
	return v
}

// CPythonTag is the PEP 425 interpreter tag of a CPython version: "3.11" or "3.11.7" → "cp311";
// "" when v is not a version.
func CPythonTag(v string) string {
	ma, mi, ok := ParsePython(v)
	if !ok {
		return ""
	}
	return fmt.Sprintf("cp%d%d", ma, mi)
}

// Pythons lists the minors from lo to hi of one major: "3.10", "3.11", ... (nil when the range is bad).
func Pythons(lo, hi string) []string {
	lmaj, lmin, ok1 := ParsePython(lo)
	hmaj, hmin, ok2 := ParsePython(hi)
	if !ok1 || !ok2 || lmaj != hmaj || hmin < lmin {
		return nil
	}
	var out []string
	for m := lmin; m <= hmin; m++ {
		out = append(out, fmt.Sprintf("%d.%d", lmaj, m))
	}
	return out
}
