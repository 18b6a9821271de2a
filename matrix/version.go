package matrix

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/hashicorp/go-version"
)

// majorMinor is a two-part version: a CUDA version, a compute capability, a Python version.
type majorMinor struct{ Major, Minor int }

func (v majorMinor) less(o majorMinor) bool {
	return v.Major < o.Major || (v.Major == o.Major && v.Minor < o.Minor)
}

func (v majorMinor) String() string { return fmt.Sprintf("%d.%d", v.Major, v.Minor) }

var majorMinorRE = regexp.MustCompile(`^(\d{1,3})\.(\d{1,3})$`)

func parseMajorMinor(s string) (majorMinor, bool) {
	m := majorMinorRE.FindStringSubmatch(s)
	if m == nil {
		return majorMinor{}, false
	}
	a, _ := strconv.Atoi(m[1])
	b, _ := strconv.Atoi(m[2])
	return majorMinor{a, b}, true
}

var (
	driverRE  = regexp.MustCompile(`^\d{3,4}(\.\d{1,3}){0,2}$`)
	capRE     = regexp.MustCompile(`^(\d{1,2})\.(\d)$`)
	pythonRE  = regexp.MustCompile(`^(\d+)\.(\d+)(\.\d+)?$`)
	releaseRE = regexp.MustCompile(`^\d+\.\d+\.\d+$`)
	channelRE = regexp.MustCompile(`^cu(\d{2})(\d)$`)
)

// ValidateDriverVersion accepts an NVIDIA driver version such as "566.36" or "580.65.06".
func ValidateDriverVersion(s string) error {
	if !driverRE.MatchString(s) {
		return fmt.Errorf("driver version %q is not a version like 566.36 or 580.65.06 (nvidia-smi prints it as \"Driver Version\")", s)
	}
	return nil
}

// ValidateComputeCap accepts a compute capability such as "8.6" or "12.0".
func ValidateComputeCap(s string) error {
	m := capRE.FindStringSubmatch(s)
	if m == nil {
		return fmt.Errorf("compute capability %q is not of the form X.Y, e.g. 8.6 for an RTX 3080 or 12.0 for an RTX 5090 (nvidia-smi --query-gpu=compute_cap --format=csv)", s)
	}
	if major, _ := strconv.Atoi(m[1]); major < 1 || major > 15 {
		return fmt.Errorf("compute capability %q: no NVIDIA GPU has major version %d (known: 1 to 12)", s, major)
	}
	return nil
}

// ValidatePythonVersion accepts "3.12" or "3.12.7".
func ValidatePythonVersion(s string) error {
	m := pythonRE.FindStringSubmatch(s)
	if m == nil {
		return fmt.Errorf("python version %q is not of the form X.Y, e.g. 3.12", s)
	}
	if m[1] != "3" {
		return fmt.Errorf("python version %q: only Python 3 has framework builds", s)
	}
	return nil
}

// ValidateCUDAVersion accepts the highest CUDA version a driver supports, "12.8".
func ValidateCUDAVersion(s string) error {
	if v, ok := parseMajorMinor(s); !ok || v.Major < 1 || v.Major > 99 {
		return fmt.Errorf("CUDA version %q is not of the form X.Y, e.g. 12.8 (nvidia-smi prints it as \"CUDA Version\")", s)
	}
	return nil
}

// pythonMajorMinor reads "3.12" out of "3.12.7".
func pythonMajorMinor(s string) (majorMinor, bool) {
	m := pythonRE.FindStringSubmatch(s)
	if m == nil {
		return majorMinor{}, false
	}
	a, _ := strconv.Atoi(m[1])
	b, _ := strconv.Atoi(m[2])
	return majorMinor{a, b}, true
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

// driverLess compares NVIDIA driver versions numerically ("528.33" < "560.35.05").
func driverLess(a, b string) bool {
	va, err1 := version.NewVersion(a)
	vb, err2 := version.NewVersion(b)
	if err1 != nil || err2 != nil {
		return a < b
	}
	return va.LessThan(vb)
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
