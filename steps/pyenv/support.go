package pyenv

import (
	"fmt"
	"strconv"
	"strings"
)

// SupportWarnings says why in is a poor choice for a build supporting Python minor..max
// ("3.9", "3.13"; either may be empty): an unsupported version, 32-bit, Microsoft Store.
func SupportWarnings(in Interpreter, minor, max string) []string {
	var w []string
	v := in.MinorVersion()
	if minor != "" && cmpMinor(v, minor) < 0 || max != "" && cmpMinor(v, max) > 0 {
		w = append(w, fmt.Sprintf("Python %s is not supported by this build (it needs %s): pip would say \"from versions: none\"; pick a Python in that range", v, rangeText(minor, max)))
	}
	if in.Bits == 32 {
		w = append(w, "this Python is 32-bit and no GPU build exists for it: install the 64-bit Python from python.org")
	}
	if in.Kind == "store" {
		w = append(w, "Microsoft Store Python breaks GPU builds (shm.dll errors, long paths): install Python from python.org and make the venv with it")
	}
	return w
}

func rangeText(minor, max string) string {
	switch {
	case minor != "" && max != "":
		return minor + " to " + max
	case minor != "":
		return minor + " or newer"
	default:
		return max + " or older"
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
	p := strings.Split(s, ".")
	if len(p) < 2 {
		return [2]int{}, false
	}
	maj, err1 := strconv.Atoi(p[0])
	min, err2 := strconv.Atoi(p[1])
	return [2]int{maj, min}, err1 == nil && err2 == nil
}
