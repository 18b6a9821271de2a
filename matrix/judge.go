package matrix

import (
	"slices"

	"gpuwiz/steps/i18n"
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
		m.notes = append(m.notes, i18n.T("matrix.facts.bad_driver", i18n.D{"Driver": f.DriverVersion}))
	}
	if f.CUDAMax != "" && !m.hasCUDA {
		m.notes = append(m.notes, i18n.T("matrix.facts.bad_cuda", i18n.D{"CUDA": f.CUDAMax}))
	}
	for _, s := range f.ComputeCaps {
		c, ok := parseMajorMinor(s)
		if !ok || ValidateComputeCap(s) != nil {
			m.notes = append(m.notes, i18n.T("matrix.facts.bad_cap", i18n.D{"Cap": s}))
			continue
		}
		if !slices.Contains(m.caps, c) {
			m.caps = append(m.caps, c)
		}
	}
	m.python, m.hasPython = pythonMajorMinor(f.PythonVersion)
	if !m.hasPython {
		m.notes = append(m.notes, i18n.T("matrix.facts.python_unknown"))
	}
	if !f.NoGPU && !f.DriverMissing && !m.gpuUsable() && len(m.caps) > 0 {
		m.notes = append(m.notes, i18n.T("matrix.facts.cap_without_driver"))
	}
	if m.gpuUsable() && len(m.caps) == 0 {
		m.notes = append(m.notes, i18n.T("matrix.facts.cap_unknown"))
	}
	return m
}

func (m *machine) gpuUsable() bool { return !m.f.NoGPU && (m.hasDriver || m.hasCUDA) }

// cardWithoutDriver: a card known from its PCI id, with no driver yet.
func (m *machine) cardWithoutDriver() bool {
	return m.f.DriverMissing && !m.f.NoGPU && !m.hasDriver && !m.hasCUDA && len(m.caps) > 0
}

// judgeForDriver judges a GPU build for a card that has no driver yet: the architecture as usual,
// then the driver to install (the one NVIDIA shipped with the build's CUDA toolkit when the matrix
// has it, else the minimum by minor-version compatibility), which is then the only thing missing.
func (mx *Matrix) judgeForDriver(m *machine, j *judged, b *Build, r *Release, framework string, reasons *[]string, other *bool) {
	for _, c := range m.caps {
		if msg, _ := mx.archProblem(b, c, m.f.OS, framework, r.Version); msg != "" {
			*reasons = append(*reasons, msg)
			*other = true
		}
	}
	row := mx.cudaRows[b.CUDA]
	need := fullDriver(row, m.f.OS)
	if need == "" && row != nil {
		need = row.MinorCompatLinux
		if m.f.OS == "windows" {
			need = row.MinorCompatWindows
		}
	}
	if need == "" {
		*reasons = append(*reasons, i18n.T("matrix.reason.no_cuda_row", i18n.D{"CUDA": b.CUDA}))
		*other = true
		return
	}
	*reasons = append(*reasons, i18n.T("matrix.reason.driver_missing", i18n.D{"MinDriver": need, "OS": OSName(m.f.OS), "Channel": b.Channel}))
	j.needDriver = need
	j.driverOnly = !*other
}

func (m *machine) noGPUReason() string {
	if m.f.NoGPU {
		return i18n.T("matrix.reason.no_gpu")
	}
	return i18n.T("matrix.reason.no_driver")
}

// judge checks one build against the machine; every failed check adds a reason in plain words.
func (mx *Matrix) judge(m *machine, framework string, r *Release, b *Build) judged {
	j := judged{c: candidateOf(framework, r, b, m.f.OS), release: r, build: b, gpu: b.Channel != "cpu"}
	if m.f.OS != "" {
		// Verified on this system: a build confirmed on Linux may still be unconfirmed on Windows.
		j.c.Verified = r.Verified && b.Verified && !slices.Contains(b.UnverifiedOS, m.f.OS)
	}
	var reasons []string
	otherProblems := false
	fail := func(reason string) {
		reasons = append(reasons, reason)
		otherProblems = true
	}
	if m.f.PythonBits == 32 {
		fail(i18n.T("matrix.reason.python_32bit", i18n.D{"Framework": framework}))
	}
	if m.hasPython {
		lo, _ := pythonMajorMinor(r.PythonMin)
		hi, _ := pythonMajorMinor(r.PythonMax)
		if m.python.less(lo) || hi.less(m.python) {
			fail(i18n.T("matrix.reason.python_range", i18n.D{"Framework": framework, "Version": r.Version, "Min": r.PythonMin, "Max": r.PythonMax, "Python": m.python.String()}))
		}
	}
	osList := b.OS
	if len(osList) == 0 {
		osList = r.OS
	}
	if m.f.OS != "" && !slices.Contains(osList, m.f.OS) {
		fail(i18n.T("matrix.reason.no_build_for_os", i18n.D{"Framework": framework, "Version": r.Version, "Channel": b.Channel, "OS": OSName(m.f.OS)}))
	}
	if j.gpu {
		if m.cardWithoutDriver() {
			mx.judgeForDriver(m, &j, b, r, framework, &reasons, &otherProblems)
		} else if !m.gpuUsable() {
			fail(m.noGPUReason())
		} else {
			var throughPTX []majorMinor // the GPUs that would run this build only through its PTX
			for _, c := range m.caps {
				if msg, ptx := mx.archProblem(b, c, m.f.OS, framework, r.Version); msg != "" {
					fail(msg)
				} else if ptx != "" {
					throughPTX = append(throughPTX, c)
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
			} else if minor {
				// NVIDIA: under minor-version compatibility the driver cannot JIT-compile PTX of a newer
				// CUDA than it supports, so a GPU that needs the PTX has no kernel to run.
				for _, c := range throughPTX {
					fail(i18n.T("matrix.reason.ptx_minor_compat", i18n.D{"Cap": c.String(), "Channel": b.Channel, "CUDA": b.CUDA}))
				}
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
		return i18n.T("matrix.reason.cap_too_old", i18n.D{"Framework": framework, "OS": OSName(goos), "Min": min, "Cap": c.String()}), ""
	}
	if hi, ok := parseMajorMinor(b.MaxComputeCap); ok && hi.less(c) {
		return i18n.T("matrix.reason.cap_above_max", i18n.D{"Channel": b.Channel, "Framework": framework, "Version": version, "Cap": c.String(), "Max": b.MaxComputeCap}), ""
	}
	archs := b.archs[goos]
	if len(archs) == 0 {
		// No arch list recorded: a CUDA version cannot build kernels for GPUs newer than it knows,
		// nor for the ones it dropped.
		if row := mx.cudaRows[b.CUDA]; row != nil {
			if hi, ok := parseMajorMinor(row.MaxComputeCap); ok && hi.less(c) {
				return i18n.T("matrix.reason.cuda_predates_cap", i18n.D{"CUDA": b.CUDA, "Cap": c.String(), "Channel": b.Channel, "Framework": framework, "Version": version}), ""
			}
			if lo, ok := parseMajorMinor(row.MinComputeCap); ok && c.less(lo) {
				return i18n.T("matrix.reason.cuda_dropped_cap", i18n.D{"CUDA": b.CUDA, "Min": lo.String(), "Channel": b.Channel, "Framework": framework, "Version": version, "Cap": c.String()}), ""
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
			return "", i18n.T("matrix.note.ptx_jit", i18n.D{"Cap": c.String()})
		}
	}
	return i18n.T("matrix.reason.no_kernels", i18n.D{"Channel": b.Channel, "Framework": framework, "Version": version, "Cap": c.String()}), ""
}

// driverCheck applies NVIDIA's rules: full support when the driver's CUDA is at least the build's (or the
// driver reaches the full-toolkit driver); otherwise minor-version compatibility within one CUDA major
// from the minor-compat minimum driver. It returns the driver needed when neither holds.
func (mx *Matrix) driverCheck(m *machine, b *Build) (minor bool, need string, msg string) {
	row := mx.cudaRows[b.CUDA]
	if row == nil {
		return false, "", i18n.T("matrix.reason.no_cuda_row", i18n.D{"CUDA": b.CUDA})
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
		msg = i18n.T("matrix.reason.driver_cuda_too_old", i18n.D{"Driver": m.f.DriverVersion, "CUDA": m.cudaMax.String(), "Channel": b.Channel, "MinDriver": minDrv, "OS": OSName(goos)})
	case m.hasDriver:
		msg = i18n.T("matrix.reason.driver_too_old", i18n.D{"Driver": m.f.DriverVersion, "MinDriver": minDrv, "Channel": b.Channel, "OS": OSName(goos)})
	default:
		msg = i18n.T("matrix.reason.cuda_major", i18n.D{"CUDA": m.cudaMax.String(), "Channel": b.Channel, "Major": b.cuda.Major, "MinDriver": minDrv, "OS": OSName(goos)})
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
