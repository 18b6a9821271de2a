package pyenv

import (
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pep"
)

// SupportWarnings says why in is a poor choice for a build supporting Python minor..max
// ("3.9", "3.13"; either may be empty): an unsupported version, 32-bit, Microsoft Store.
func SupportWarnings(in Interpreter, minor, max string) []string {
	var w []string
	v := in.MinorVersion()
	if minor != "" && cmpMinor(v, minor) < 0 || max != "" && cmpMinor(v, max) > 0 {
		w = append(w, i18n.T("pyenv.support.version", i18n.D{"Version": v, "Range": rangeText(minor, max)}))
	}
	if in.Bits == 32 {
		w = append(w, i18n.T("pyenv.support.bits32"))
	}
	if in.Kind == "store" {
		w = append(w, i18n.T("pyenv.support.store"))
	}
	return w
}

func rangeText(minor, max string) string {
	switch {
	case minor != "" && max != "":
		return i18n.T("pyenv.range.between", i18n.D{"Min": minor, "Max": max})
	case minor != "":
		return i18n.T("pyenv.range.min", i18n.D{"Min": minor})
	default:
		return i18n.T("pyenv.range.max", i18n.D{"Max": max})
	}
}

// cmpMinor compares "3.9" with "3.11" numerically; unparsable versions compare equal.
func cmpMinor(a, b string) int {
	pa, oka := parseMinor(a)
	pb, okb := parseMinor(b)
	if !oka || !okb {
		return 0
	}
	for i := 0; i < 2; i++ {
		if pa[i] != pb[i] {
			if pa[i] < pb[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

func parseMinor(s string) ([2]int, bool) {
	maj, min, ok := pep.ParsePython(s)
	return [2]int{maj, min}, ok
}
