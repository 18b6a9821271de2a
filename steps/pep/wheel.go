package pep

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"gpuwiz/steps/i18n"
)

// Wheel is a parsed wheel file name (PEP 427, the binary distribution format):
// {distribution}-{version}(-{build tag})?-{python tag}-{abi tag}-{platform tag}.whl, each tag
// possibly a "."-joined set (PEP 425's compressed tag sets).
type Wheel struct {
	File      string   // as given: "torch-2.6.0+cu126-cp312-cp312-win_amd64.whl"
	Dist      string   // the distribution as written in the file name: "paddlepaddle_gpu"
	Name      string   // normalised (PEP 503): "paddlepaddle-gpu"
	Version   string   // "2.6.0+cu126"
	Build     string   // the optional build tag, starting with a digit: "1"; "" for none
	Python    []string // interpreter tags, lower case: "cp312"; "py3"
	ABI       []string // "cp312", "abi3", "none"
	Platforms []string // "win_amd64", "manylinux_2_28_x86_64", "any"
}

// ParseWheel parses a wheel's file name (not a path); the error says in the user's language why
// it is not one.
func ParseWheel(file string) (Wheel, error) {
	if len(file) < 4 || !strings.EqualFold(file[len(file)-4:], ".whl") {
		return Wheel{}, errors.New(i18n.T("pep.wheel.no_whl", i18n.D{"File": file}))
	}
	parts := strings.Split(file[:len(file)-4], "-")
	if len(parts) != 5 && len(parts) != 6 {
		return Wheel{}, errors.New(i18n.T("pep.wheel.parts", i18n.D{"File": file}))
	}
	for _, p := range parts {
		if !wheelPart(p) {
			return Wheel{}, errors.New(i18n.T("pep.wheel.bad_part", i18n.D{"File": file, "Part": p}))
		}
	}
	w := Wheel{File: file, Dist: parts[0], Name: Normalize(parts[0]), Version: parts[1]}
	if len(parts) == 6 {
		if parts[2][0] < '0' || parts[2][0] > '9' {
			return Wheel{}, errors.New(i18n.T("pep.wheel.build_tag", i18n.D{"File": file, "Tag": parts[2]}))
		}
		w.Build = parts[2]
	}
	n := len(parts)
	w.Python = strings.Split(strings.ToLower(parts[n-3]), ".")
	w.ABI = strings.Split(strings.ToLower(parts[n-2]), ".")
	w.Platforms = strings.Split(strings.ToLower(parts[n-1]), ".")
	return w, nil
}

// wheelPart is one "-"-separated field: not empty, letters, digits and _ . ! + only.
func wheelPart(p string) bool {
	if p == "" {
		return false
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '!' || c == '+') {
			return false
		}
	}
	return true
}

// Filename writes the wheel's file name back as PEP 427 spells it: the distribution with "-" as
// "_" (Dist, else Name), the build tag when there is one, the tag sets joined by ".".
func (w Wheel) Filename() string {
	dist := w.Dist
	if dist == "" {
		dist = w.Name
	}
	fields := []string{strings.ReplaceAll(dist, "-", "_"), w.Version}
	if w.Build != "" {
		fields = append(fields, w.Build)
	}
	fields = append(fields, strings.Join(w.Python, "."), strings.Join(w.ABI, "."), strings.Join(w.Platforms, "."))
	return strings.Join(fields, "-") + ".whl"
}

// IsMetadata says whether name, a member of a wheel's archive, is the wheel's own METADATA: the
// one in a top-level *.dist-info folder (not a vendored package's, deeper down).
func IsMetadata(name string) bool {
	dir, base, _ := strings.Cut(name, "/")
	return base == "METADATA" && strings.HasSuffix(dir, ".dist-info")
}

// ForOS reports whether the wheel installs on goos ("windows", "linux") on x86-64.
func (w Wheel) ForOS(goos string) bool { return w.ForPlatform(goos, "amd64") }

// ForPlatform reports whether one of the wheel's platform tags installs on goos/goarch (Go's names).
func (w Wheel) ForPlatform(goos, goarch string) bool {
	for _, p := range w.Platforms {
		if PlatformFits(p, goos, goarch) {
			return true
		}
	}
	return false
}

// PlatformFits reports whether a platform tag installs on goos/goarch, as pip on a glibc Linux,
// Windows or macOS judges it: "any" everywhere; win_amd64, win_arm64, win32; linux_<arch> and every
// manylinux tag of the arch (musllinux is for musl systems, not these); macosx_*_<arch> or universal2.
func PlatformFits(tag, goos, goarch string) bool {
	tag = strings.ToLower(tag)
	if tag == "any" {
		return true
	}
	switch goos {
	case "windows":
		want := map[string]string{"amd64": "win_amd64", "arm64": "win_arm64", "386": "win32"}[goarch]
		return want != "" && tag == want
	case "linux":
		arch := map[string]string{"amd64": "x86_64", "arm64": "aarch64"}[goarch]
		if arch == "" {
			return false
		}
		return tag == "linux_"+arch || strings.HasPrefix(tag, "manylinux") && strings.HasSuffix(tag, "_"+arch)
	case "darwin":
		arch := map[string]string{"amd64": "x86_64", "arm64": "arm64"}[goarch]
		return arch != "" && strings.HasPrefix(tag, "macosx_") && (strings.HasSuffix(tag, "_"+arch) || strings.HasSuffix(tag, "_universal2"))
	}
	return false
}

// ForPython reports whether the wheel installs on CPython minor ("3.12"; "3.12.4" reads as 3.12),
// the regular build, not the free-threaded one. As pip's tag list for CPython 3.M has it:
// cp3M with abi cp3M, abi3 or none; cp3N-abi3 for N < M; py3 and py3N-none for N <= M.
func (w Wheel) ForPython(minor string) bool {
	maj, min, ok := ParsePython(minor)
	if !ok {
		return false
	}
	exact := fmt.Sprintf("cp%d%d", maj, min)
	cpMajor, pyMajor := fmt.Sprintf("cp%d", maj), fmt.Sprintf("py%d", maj)
	for _, py := range w.Python {
		py = strings.ToLower(py)
		for _, abi := range w.ABI {
			abi = strings.ToLower(abi)
			switch {
			case py == exact && (abi == exact || abi == exact+"m" || abi == "abi3" || abi == "none"):
				return true
			case abi == "abi3" && strings.HasPrefix(py, cpMajor):
				if n, err := strconv.Atoi(py[len(cpMajor):]); err == nil && n <= min {
					return true
				}
			case abi == "none" && py == pyMajor:
				return true
			case abi == "none" && strings.HasPrefix(py, pyMajor):
				if n, err := strconv.Atoi(py[len(pyMajor):]); err == nil && n <= min {
					return true
				}
			}
		}
	}
	return false
}

// Installs reports whether a Python pyVersion ("3.12.4"; "" or unreadable when unknown, and then
// only the platform is judged) on goos/goarch can install the wheel, from its tags (PEP 425).
func (w Wheel) Installs(pyVersion, goos, goarch string) bool {
	if !w.ForPlatform(goos, goarch) {
		return false
	}
	if _, _, ok := ParsePython(pyVersion); !ok {
		return true
	}
	return w.ForPython(pyVersion)
}

// DistInfo reads an installed dist's `.dist-info` folder name ("paddlepaddle_gpu-3.3.1.dist-info"):
// its PEP 503 name ("paddlepaddle-gpu") and version; ok is false for any other name.
func DistInfo(folder string) (name, version string, ok bool) {
	nv, ok := strings.CutSuffix(folder, ".dist-info")
	if !ok {
		return "", "", false
	}
	name, version, ok = strings.Cut(nv, "-")
	if !ok || name == "" {
		return "", "", false
	}
	return Normalize(name), version, true
}
