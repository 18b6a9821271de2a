package sources

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"gpuwiz/steps/i18n"
)

// Build is the exact build a source must carry: the framework's wheel for this version and local
// label, for this Python and this OS.
type Build struct {
	Project string // the framework's distribution: "torch", "paddlepaddle-gpu"
	Version string // with the local label: "2.6.0+cu126"
	Python  string // "3.12"
	GOOS    string // "linux", "windows", "darwin"
	GOARCH  string // "amd64", "arm64"
}

// String is the build in words: "torch 2.6.0+cu126 for Python 3.12 on linux/amd64".
func (b Build) String() string {
	return i18n.T("sources.build", i18n.D{"Project": b.Project, "Version": b.Version, "Python": b.Python, "Platform": b.GOOS + "/" + b.GOARCH})
}

// wheel is a parsed wheel file name (PEP 427): name-version(-build)?-py-abi-platform.whl.
type wheel struct {
	name, version      string
	py, abi, platforms []string
}

func parseWheel(file string) (wheel, bool) {
	base, ok := strings.CutSuffix(strings.ToLower(file), ".whl")
	if !ok {
		return wheel{}, false
	}
	parts := strings.Split(base, "-")
	if len(parts) != 5 && len(parts) != 6 {
		return wheel{}, false
	}
	n := len(parts)
	return wheel{name: normalize(parts[0]), version: parts[1],
		py: strings.Split(parts[n-3], "."), abi: strings.Split(parts[n-2], "."), platforms: strings.Split(parts[n-1], ".")}, true
}

var separators = regexp.MustCompile(`[-_.]+`)

// normalize is PEP 503's name normalisation.
func normalize(name string) string { return separators.ReplaceAllString(strings.ToLower(name), "-") }

// sameVersion compares versions as pip would for an exact pin with a local label: case and the
// local label's separators do not matter ("2.6.0+CU126" is "2.6.0+cu126").
func sameVersion(a, b string) bool {
	norm := func(v string) string {
		v = strings.ToLower(v)
		if pub, local, ok := strings.Cut(v, "+"); ok {
			return pub + "+" + separators.ReplaceAllString(local, ".")
		}
		return v
	}
	return norm(a) == norm(b)
}

// pythonTag is "cp312" for "3.12".
func pythonTag(py string) (major, minor int, ok bool) {
	a, b, found := strings.Cut(py, ".")
	if !found {
		return 0, 0, false
	}
	if i := strings.Index(b, "."); i >= 0 {
		b = b[:i]
	}
	ma, err1 := strconv.Atoi(a)
	mi, err2 := strconv.Atoi(b)
	return ma, mi, err1 == nil && err2 == nil
}

// fits reports whether the wheel installs on the build's Python and OS.
func (w wheel) fits(b Build) bool {
	major, minor, ok := pythonTag(b.Python)
	if !ok {
		return false
	}
	cp := fmt.Sprintf("cp%d%d", major, minor)
	pyOK := func(t string) (bool, bool) { // fits, is a CPython tag usable with abi3
		switch {
		case t == cp:
			return true, true
		case t == fmt.Sprintf("py%d", major), t == fmt.Sprintf("py%d%d", major, minor):
			return true, false
		case strings.HasPrefix(t, fmt.Sprintf("cp%d", major)):
			n, err := strconv.Atoi(strings.TrimPrefix(t, fmt.Sprintf("cp%d", major)))
			return false, err == nil && n <= minor // cp39-abi3 runs on 3.12
		}
		return false, false
	}
	for _, p := range w.py {
		exact, abi3able := pyOK(p)
		for _, a := range w.abi {
			abiOK := exact && (a == "none" || a == cp || a == cp+"m") || a == "abi3" && (abi3able || exact)
			if !abiOK {
				continue
			}
			for _, pl := range w.platforms {
				if platformFits(pl, b.GOOS, b.GOARCH) {
					return true
				}
			}
		}
	}
	return false
}

func platformFits(tag, goos, goarch string) bool {
	if tag == "any" {
		return true
	}
	switch goos {
	case "windows":
		return tag == map[string]string{"amd64": "win_amd64", "arm64": "win_arm64", "386": "win32"}[goarch]
	case "linux":
		arch := map[string]string{"amd64": "x86_64", "arm64": "aarch64"}[goarch]
		if arch == "" {
			return false
		}
		return tag == "linux_"+arch || strings.HasPrefix(tag, "manylinux") && strings.HasSuffix(tag, "_"+arch)
	case "darwin":
		arch := map[string]string{"amd64": "x86_64", "arm64": "arm64"}[goarch]
		return strings.HasPrefix(tag, "macosx_") && (strings.HasSuffix(tag, "_"+arch) || strings.HasSuffix(tag, "_universal2"))
	}
	return false
}

// verdict is what a list of file names says about the build.
type verdict struct {
	file string // the wheel that fits
	why  string // when none fits: what is there instead
}

func judge(files []string, b Build) verdict {
	project := normalize(b.Project)
	var versions, tags []string
	for _, f := range files {
		w, ok := parseWheel(f)
		if !ok || w.name != project {
			continue
		}
		if !sameVersion(w.version, b.Version) {
			versions = appendUnique(versions, w.version)
			continue
		}
		if w.fits(b) {
			return verdict{file: f}
		}
		tags = appendUnique(tags, strings.Join(w.py, ".")+"-"+strings.Join(w.platforms, "."))
	}
	switch {
	case len(tags) > 0:
		return verdict{why: i18n.T("sources.wheel.no_wheel_for", i18n.D{"Project": b.Project, "Version": b.Version, "Python": b.Python, "Platform": b.GOOS + "/" + b.GOARCH, "Tags": shortList(tags)})}
	case len(versions) > 0:
		return verdict{why: i18n.T("sources.wheel.other_versions", i18n.D{"Project": b.Project, "Version": b.Version, "Versions": shortList(versions)})}
	}
	return verdict{why: i18n.T("sources.wheel.not_carried", i18n.D{"Project": b.Project})}
}

func appendUnique(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

func shortList(list []string) string {
	const most = 4
	if len(list) <= most {
		return i18n.Join(list)
	}
	return i18n.N("sources.list.more", len(list)-most, i18n.D{"List": i18n.Join(list[len(list)-most:])})
}
