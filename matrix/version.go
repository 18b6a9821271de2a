package matrix

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/hashicorp/go-version"

	"gpuwiz/steps/i18n"
)

// majorMinor is a two-part version: a CUDA version, a compute capability, a Python version.
type majorMinor struct{ Major, Minor int }

func (v majorMinor) less(o majorMinor) bool {
	return v.Major < o.Major || (v.Major == o.Major && v.Minor < o.Minor)
}

func (v majorMinor) String() string { return fmt.Sprintf("%d.%d", v.Major, v.Minor) }

// parseMajorMinor reads "X.Y" with one to three digits each (no signs, no spaces). It runs for every
// arch entry of every build at load, so it is hand-written rather than a regexp.
func parseMajorMinor(s string) (majorMinor, bool) {
	a, b, ok := strings.Cut(s, ".")
	x, okA := smallUint(a)
	y, okB := smallUint(b)
	if !ok || !okA || !okB {
		return majorMinor{}, false
	}
	return majorMinor{x, y}, true
}

// smallUint parses 1 to 3 ASCII digits.
func smallUint(s string) (int, bool) {
	if len(s) == 0 || len(s) > 3 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

var (
	driverRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d{3,4}(\.\d{1,3}){0,2}$`) })
	releaseRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d+\.\d+\.\d+$`) })
	channelRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^cu(\d{2})(\d)$`) })
)

// ValidateDriverVersion accepts an NVIDIA driver version such as "566.36" or "580.65.06".
func ValidateDriverVersion(s string) error {
	if !driverRE().MatchString(s) {
		return errors.New(i18n.T("matrix.value.bad_driver", i18n.D{"Driver": s}))
	}
	return nil
}

// ValidateComputeCap accepts a compute capability such as "8.6" or "12.0".
func ValidateComputeCap(s string) error {
	a, b, _ := strings.Cut(s, ".")
	major, okA := smallUint(a)
	_, okB := smallUint(b)
	if !okA || !okB || len(a) > 2 || len(b) != 1 {
		return errors.New(i18n.T("matrix.value.bad_cap", i18n.D{"Cap": s}))
	}
	if major < 1 || major > 15 {
		return errors.New(i18n.T("matrix.value.cap_major", i18n.D{"Cap": s, "Major": major}))
	}
	return nil
}

// ValidatePythonVersion accepts "3.12" or "3.12.7".
func ValidatePythonVersion(s string) error {
	v, ok := pythonMajorMinor(s)
	if !ok {
		return errors.New(i18n.T("matrix.value.bad_python", i18n.D{"Python": s}))
	}
	if v.Major != 3 {
		return errors.New(i18n.T("matrix.value.python_not_3", i18n.D{"Python": s}))
	}
	return nil
}

// ValidateCUDAVersion accepts the highest CUDA version a driver supports, "12.8".
func ValidateCUDAVersion(s string) error {
	if v, ok := parseMajorMinor(s); !ok || v.Major < 1 || v.Major > 99 {
		return errors.New(i18n.T("matrix.value.bad_cuda", i18n.D{"CUDA": s}))
	}
	return nil
}

// pythonMajorMinor reads "3.12" out of "3.12.7" (two or three dot-separated numbers).
func pythonMajorMinor(s string) (majorMinor, bool) {
	parts := strings.Split(s, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return majorMinor{}, false
	}
	var n [3]int
	for i, p := range parts {
		v, ok := smallUint(p)
		if !ok {
			return majorMinor{}, false
		}
		n[i] = v
	}
	return majorMinor{n[0], n[1]}, true
}

// arch is one compute capability in a wheel's arch list; ptx when PTX for it ships too.
type arch struct {
	cap majorMinor
	ptx bool
}

func parseArch(s string) (arch, bool) {
	ptx := strings.HasSuffix(s, "+PTX")
	v, ok := parseMajorMinor(strings.TrimSuffix(s, "+PTX"))
	return arch{v, ptx}, ok
}

// driverLess compares NVIDIA driver versions numerically ("528.33" < "560.35.05"); a missing part
// counts as 0. It runs for every build of every selection, so it does not go through go-version.
func driverLess(a, b string) bool {
	pa, okA := driverParts(a)
	pb, okB := driverParts(b)
	if !okA || !okB {
		return a < b
	}
	return slices.Compare(pa[:], pb[:]) < 0
}

func driverParts(s string) ([3]int, bool) {
	var out [3]int
	for i := 0; i < 3 && s != ""; i++ {
		var p string
		p, s, _ = strings.Cut(s, ".")
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return out, false
		}
		out[i] = n
	}
	return out, s == ""
}

// versionMatches reports whether want ("2.6" or "2.6.0") names release v: a shorter want is a prefix.
func versionMatches(v *version.Version, want string) bool {
	w, err := version.NewVersion(want)
	if err != nil {
		return false
	}
	ws, vs := w.Segments(), v.Segments()
	n := len(strings.Split(strings.TrimPrefix(want, "v"), "."))
	for i := 0; i < n && i < len(ws) && i < len(vs); i++ {
		if ws[i] != vs[i] {
			return false
		}
	}
	return true
}
