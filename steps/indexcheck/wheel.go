// Package indexcheck asks a package index whether the wheels a matrix row declares exist: for each
// package of a build, each OS it names and each Python of its range. It reads the index pages as pip
// does (PEP 503 HTML, PEP 691 JSON, or a flat find-links page) and looks at file names only.
package indexcheck

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"gpuwiz/steps/i18n"
)

// Wheel is a parsed wheel file name (PEP 427 / the binary distribution format):
// {name}-{version}(-{build})?-{python tags}-{abi tags}-{platform tags}.whl
type Wheel struct {
	File      string   // as served, "torch-2.6.0+cu126-cp312-cp312-win_amd64.whl"
	Name      string   // normalized (PEP 503): "torch", "paddlepaddle-gpu"
	Version   string   // "2.6.0+cu126"
	Python    []string // "cp312"
	ABI       []string // "cp312", "abi3", "none"
	Platforms []string // "win_amd64", "manylinux_2_28_x86_64"
}

var (
	nameRun   = regexp.MustCompile(`[-_.]+`)
	wheelPart = regexp.MustCompile(`^[A-Za-z0-9_.!+]+$`)
)

// Normalize is PEP 503's project name normalization: lower case, runs of -_. become one -.
func Normalize(name string) string { return strings.ToLower(nameRun.ReplaceAllString(name, "-")) }

// ParseWheel parses a wheel file name; an error says why it is not one.
func ParseWheel(file string) (Wheel, error) {
	base := file
	if !strings.HasSuffix(strings.ToLower(base), ".whl") {
		return Wheel{}, errors.New(i18n.T("indexcheck.wheel.no_whl", i18n.D{"File": file}))
	}
	parts := strings.Split(base[:len(base)-4], "-")
	if len(parts) != 5 && len(parts) != 6 {
		return Wheel{}, errors.New(i18n.T("indexcheck.wheel.parts", i18n.D{"File": file}))
	}
	for _, p := range parts {
		if p == "" || !wheelPart.MatchString(p) {
			return Wheel{}, errors.New(i18n.T("indexcheck.wheel.bad_part", i18n.D{"File": file, "Part": p}))
		}
	}
	if len(parts) == 6 && (parts[2][0] < '0' || parts[2][0] > '9') {
		return Wheel{}, errors.New(i18n.T("indexcheck.wheel.build_tag", i18n.D{"File": file, "Tag": parts[2]}))
	}
	n := len(parts)
	return Wheel{
		File:      file,
		Name:      Normalize(parts[0]),
		Version:   parts[1],
		Python:    strings.Split(parts[n-3], "."),
		ABI:       strings.Split(parts[n-2], "."),
		Platforms: strings.Split(parts[n-1], "."),
	}, nil
}

// ForOS reports whether the wheel installs on goos ("windows", "linux") on x86-64.
func (w Wheel) ForOS(goos string) bool {
	for _, p := range w.Platforms {
		p = strings.ToLower(p)
		switch goos {
		case "windows":
			if p == "win_amd64" {
				return true
			}
		case "linux":
			if strings.Contains(p, "linux") && strings.HasSuffix(p, "_x86_64") {
				return true
			}
		}
		if p == "any" {
			return true
		}
	}
	return false
}

// ForPython reports whether the wheel installs on CPython minor (e.g. "3.12"), the regular (not
// free-threaded) build: a cp312 wheel, an abi3 wheel for cp3Y with Y <= 12, or a py3 pure wheel.
func (w Wheel) ForPython(minor string) bool {
	maj, min, ok := splitMinor(minor)
	if !ok {
		return false
	}
	exact := fmt.Sprintf("cp%d%d", maj, min)
	for _, py := range w.Python {
		py = strings.ToLower(py)
		for _, abi := range w.ABI {
			abi = strings.ToLower(abi)
			switch {
			case py == exact && (abi == exact || abi == exact+"m" || abi == "none" || abi == "abi3"):
				return true
			case abi == "abi3" && strings.HasPrefix(py, fmt.Sprintf("cp%d", maj)):
				if y, err := strconv.Atoi(py[len(fmt.Sprintf("cp%d", maj)):]); err == nil && y <= min {
					return true
				}
			case abi == "none" && (py == fmt.Sprintf("py%d", maj) || py == fmt.Sprintf("py%d%d", maj, min)):
				return true
			}
		}
	}
	return false
}

func splitMinor(s string) (int, int, bool) {
	a, b, ok := strings.Cut(s, ".")
	if !ok {
		return 0, 0, false
	}
	maj, err1 := strconv.Atoi(a)
	min, err2 := strconv.Atoi(b)
	return maj, min, err1 == nil && err2 == nil
}

// Pythons lists the CPython minors from lo to hi: "3.10", "3.11", ... (nil when the range is bad).
func Pythons(lo, hi string) []string {
	lmaj, lmin, ok1 := splitMinor(lo)
	hmaj, hmin, ok2 := splitMinor(hi)
	if !ok1 || !ok2 || lmaj != hmaj || hmin < lmin {
		return nil
	}
	var out []string
	for m := lmin; m <= hmin; m++ {
		out = append(out, fmt.Sprintf("%d.%d", lmaj, m))
	}
	return out
}

// SameVersion compares two versions as pip's == does for these indexes: exact, case-insensitive
// (the local label included: "2.6.0+cu126" is not "2.6.0+cu124").
func SameVersion(a, b string) bool { return strings.EqualFold(a, b) }
