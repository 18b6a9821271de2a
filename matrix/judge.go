package matrix

import (
	"fmt"
	"slices"
)

// machine is Facts parsed once for judging every build.
type machine struct {
	f         Facts
	cudaMax   majorMinor
	hasCUDA   bool
	hasDriver bool
	caps      []majorMinor
	python    majorMinor
	hasPython bool
	notes     []string
}

func newMachine(f Facts) *machine {
	m := &machine{f: f}
	m.cudaMax, m.hasCUDA = parseMajorMinor(f.CUDAMax)
	m.hasDriver = f.DriverVersion != "" && ValidateDriverVersion(f.DriverVersion) == nil
	if f.DriverVersion != "" && !m.hasDriver {
		m.notes = append(m.notes, fmt.Sprintf("driver version %q is not understood: ignored", f.DriverVersion))
	}
	if f.CUDAMax != "" && !m.hasCUDA {
		m.notes = append(m.notes, fmt.Sprintf("CUDA version %q is not understood: ignored", f.CUDAMax))
	}
	for _, s := range f.ComputeCaps {
		c, ok := parseMajorMinor(s)
		if !ok || ValidateComputeCap(s) != nil {
			m.notes = append(m.notes, fmt.Sprintf("compute capability %q is not understood: ignored", s))
			continue
		}
		if !slices.Contains(m.caps, c) {
			m.caps = append(m.caps, c)
		}
	}
	m.python, m.hasPython = pythonMajorMinor(f.PythonVersion)
	if !m.hasPython {
		m.notes = append(m.notes, "Python version unknown: builds are not filtered by Python version")
	}
	if !f.NoGPU && !m.gpuUsable() && len(m.caps) > 0 {
		m.notes = append(m.notes, "a compute capability was given but no driver: GPU builds need the driver's facts too (--driver and --cuda-max)")
	}
	if m.gpuUsable() && len(m.caps) == 0 {
		m.notes = append(m.notes, "GPU compute capability unknown: builds are not checked for the GPU's architecture")
	}
	return m
}

func (m *machine) gpuUsable() bool { return !m.f.NoGPU && (m.hasDriver || m.hasCUDA) }

func (m *machine) noGPUReason() string {
	if m.f.NoGPU {
		return "no NVIDIA GPU to use (no_gpu)"
	}
	return "no NVIDIA driver found"
}

// judge checks one build against the machine; every failed check adds a reason in plain words.
func (mx *Matrix) judge(m *machine, framework string, r *Release, b *Build) judged {
	j := judged{c: candidateOf(framework, r, b), release: r, build: b, gpu: b.Channel != "cpu"}
	var reasons []string
	otherProblems := false
	fail := func(format string, a ...any) {
		reasons = append(reasons, fmt.Sprintf(format, a...))
		otherProblems = true
	}
	if m.f.PythonBits == 32 {
		fail("32-bit Python: %s publishes 64-bit wheels only; install a 64-bit Python", framework)
	}
	if m.hasPython {
		lo, _ := pythonMajorMinor(r.PythonMin)
		hi, _ := pythonMajorMinor(r.PythonMax)
		if m.python.less(lo) || hi.less(m.python) {
			fail("%s %s supports Python %s–%s, not %s", framework, r.Version, r.PythonMin, r.PythonMax, m.python)
		}
	}
	osList := b.OS
	if len(osList) == 0 {
		osList = r.OS
	}
	if m.f.OS != "" && !slices.Contains(osList, m.f.OS) {
		fail("%s %s has no %s build for %s", framework, r.Version, b.Channel, OSName(m.f.OS))
	}
	if j.gpu {
		if !m.gpuUsable() {
			fail("%s", m.noGPUReason())
		} else {
			for _, c := range m.caps {
				if msg, ptx := mx.archProblem(b, c, m.f.OS, framework, r.Version); msg != "" {
					fail("%s", msg)
				} else if ptx != "" {
					if !slices.Contains(j.c.NoteParts, ptx) {
						j.c.NoteParts = append(j.c.NoteParts, ptx)
						j.c.Note = joinNotes(j.c.NoteParts)
					}
				}
			}
			minor, need, msg := mx.driverCheck(m, b)
			j.c.MinorCompat = minor
			if msg != "" {
				reasons = append(reasons, msg)
				j.needDriver = need
				j.driverOnly = !otherProblems
			}
		}
	}
	j.c.Reasons = append(j.c.Reasons, reasons...)
	j.c.Compatible = len(reasons) == 0
	if !j.c.Compatible {
		j.c.MinorCompat = false
	}
	return j
}

// archProblem says why a GPU of capability c cannot run build b, or (second) that it runs through PTX JIT.
func (mx *Matrix) archProblem(b *Build, c majorMinor, goos, framework, version string) (string, string) {
	min := b.MinComputeCapLinux
	if goos == "windows" {
		min = b.MinComputeCapWindows
	}
	if lo, ok := parseMajorMinor(min); ok && c.less(lo) {
		return fmt.Sprintf("%s on %s needs compute capability %s or newer; this GPU has %s", framework, OSName(goos), min, c), ""
	}
	if hi, ok := parseMajorMinor(b.MaxComputeCap); ok && hi.less(c) {
		return fmt.Sprintf("%s wheels of %s %s have no kernels for compute capability %s (they stop at %s)", b.Channel, framework, version, c, b.MaxComputeCap), ""
	}
	archs := b.archs[goos]
	if len(archs) == 0 {
		// No arch list recorded: a CUDA version cannot build kernels for GPUs newer than it knows,
		// nor for the ones it dropped.
		if row := mx.cudaRows[b.CUDA]; row != nil {
			if hi, ok := parseMajorMinor(row.MaxComputeCap); ok && hi.less(c) {
				return fmt.Sprintf("CUDA %s predates compute capability %s: %s wheels of %s %s cannot have kernels for it", b.CUDA, c, b.Channel, framework, version), ""
			}
			if lo, ok := parseMajorMinor(row.MinComputeCap); ok && c.less(lo) {
				return fmt.Sprintf("CUDA %s builds kernels only for compute capability %s and newer: %s wheels of %s %s cannot have kernels for %s", b.CUDA, lo, b.Channel, framework, version, c), ""
			}
		}
		return "", ""
	}
	for _, a := range archs {
		if a.cap.Major == c.Major && !c.less(a.cap) {
			return "", ""
		}
	}
	for _, a := range archs {
		if a.ptx && a.cap.less(c) {
			return "", fmt.Sprintf("compute capability %s runs through PTX JIT compilation (a slow first start).", c)
		}
	}
	return fmt.Sprintf("%s wheels of %s %s have no kernels for compute capability %s", b.Channel, framework, version, c), ""
}

// driverCheck applies NVIDIA's rules: full support when the driver's CUDA is at least the build's (or the
// driver reaches the full-toolkit driver); otherwise minor-version compatibility within one CUDA major
// from the minor-compat minimum driver. It returns the driver needed when neither holds.
func (mx *Matrix) driverCheck(m *machine, b *Build) (minor bool, need string, msg string) {
	row := mx.cudaRows[b.CUDA]
	if row == nil {
		return false, "", fmt.Sprintf("CUDA %s has no driver table row in the matrix", b.CUDA)
	}
	goos := m.f.OS
	minDrv := row.MinorCompatLinux
	if goos == "windows" {
		minDrv = row.MinorCompatWindows
	}
	full := fullDriver(row, goos)
	if m.hasCUDA && !m.cudaMax.less(b.cuda) {
		return false, "", ""
	}
	if m.hasDriver && full != "" && !driverLess(m.f.DriverVersion, full) {
		return false, "", ""
	}
	sameMajor := !m.hasCUDA || m.cudaMax.Major == b.cuda.Major
	driverOK := !m.hasDriver || !driverLess(m.f.DriverVersion, minDrv)
	if sameMajor && driverOK {
		return true, "", ""
	}
	switch {
	case m.hasDriver && m.hasCUDA:
		msg = fmt.Sprintf("driver %s supports CUDA %s; %s needs driver ≥ %s on %s", m.f.DriverVersion, m.cudaMax, b.Channel, minDrv, OSName(goos))
	case m.hasDriver:
		msg = fmt.Sprintf("driver %s is older than %s, the minimum for %s on %s", m.f.DriverVersion, minDrv, b.Channel, OSName(goos))
	default:
		msg = fmt.Sprintf("the driver supports CUDA %s; %s needs CUDA %d.x (driver ≥ %s on %s)", m.cudaMax, b.Channel, b.cuda.Major, minDrv, OSName(goos))
	}
	return false, minDrv, msg
}

func fullDriver(row *CUDARow, goos string) string {
	if row == nil {
		return ""
	}
	if goos == "windows" {
		return row.FullWindows
	}
	return row.FullLinux
}

// OSName is goos as a user reads it: "Windows", "Linux".
func OSName(goos string) string {
	switch goos {
	case "windows":
		return "Windows"
	case "linux":
		return "Linux"
	}
	return goos
}
