package doctor

import (
	"fmt"
	"strconv"
	"strings"
)

func checkNoDriver(e *Evidence) []Finding {
	if e.GPU.Available {
		return nil
	}
	ev := []string{"probe backend: " + orNone(e.GPU.Backend)}
	if e.GPU.Message != "" {
		ev = append(ev, e.GPU.Message)
	}
	if e.GPUError != "" {
		ev = append(ev, "probe error: "+e.GPUError)
	}
	fix := "Install the NVIDIA driver for your card (Linux: your distribution's nvidia-driver package, then reboot). Pip wheels bring their own CUDA runtime: no CUDA toolkit is needed."
	if e.GOOS == "windows" {
		fix = "Install the NVIDIA driver for your card from nvidia.com (Game Ready or Studio) and reboot. Pip wheels bring their own CUDA runtime: no CUDA toolkit is needed."
	}
	return []Finding{{Code: CodeNoDriver, Severity: SeverityError, Title: "No NVIDIA driver answered", Evidence: ev, Fix: fix}}
}

// buildCUDA is the CUDA version the installed build targets: what it reports, else its channel.
func (e *Evidence) buildCUDA() (cuda, from string) {
	if e.Framework.Imported && e.Framework.CUDA != "" {
		return majorMinor(e.Framework.CUDA), frameworkTitle(e.Framework.Framework) + " reports CUDA " + e.Framework.CUDA
	}
	if t := e.Dist("torch"); t != nil {
		if c := cudaOfChannel(channelOfLabel(t.LocalLabel)); c != "" {
			return c, "torch " + t.Version + t.LocalLabel + " is built for CUDA " + c
		}
	}
	if e.Lock != nil {
		if c := cudaOfChannel(e.Lock.Channel); c != "" {
			return c, "lock file " + e.Lock.File + " names channel " + e.Lock.Channel
		}
	}
	return "", ""
}

func checkDriverTooOld(e *Evidence) []Finding {
	if !e.GPU.Available {
		return nil
	}
	cuda, from := e.buildCUDA()
	if cuda == "" || e.GPU.CUDAMax == "" || !versionLess(e.GPU.CUDAMax, cuda) {
		return nil
	}
	ev := []string{from, fmt.Sprintf("driver %s supports CUDA up to %s", e.GPU.DriverVersion, e.GPU.CUDAMax)}
	// Minor-version compatibility: a 12.x build runs on any driver that runs 12.0.
	if min := minorCompatDriver(e.Matrix, cuda, e.GOOS); min != "" && e.GPU.DriverVersion != "" && !versionLess(e.GPU.DriverVersion, min) {
		return []Finding{{
			Code: CodeDriverTooOld, Severity: SeverityInfo,
			Title:    fmt.Sprintf("The build targets CUDA %s, newer than the driver's %s, and runs through minor-version compatibility", cuda, e.GPU.CUDAMax),
			Evidence: append(ev, fmt.Sprintf("driver %s is at or above %s, the minimum for CUDA %s.x builds", e.GPU.DriverVersion, min, strings.Split(cuda, ".")[0])),
			Fix:      "Nothing needed; a few new-CUDA features (PTX JIT of newer code) need a newer driver. Update the driver if you see \"PTX was compiled with an unsupported toolchain\".",
		}}
	}
	return []Finding{{
		Code: CodeDriverTooOld, Severity: SeverityError,
		Title:    fmt.Sprintf("The NVIDIA driver is too old for this build (CUDA %s needs a newer driver than %s)", cuda, e.GPU.DriverVersion),
		Evidence: ev,
		Fix:      fmt.Sprintf("Update the NVIDIA driver to one that supports CUDA %s, or reinstall a build from a lower channel that your driver supports (the wizard lists them).", cuda),
	}}
}

// archList is the installed build's architectures: the framework's own answer, else the matrix's record.
func (e *Evidence) archList() (archs []string, from string, minCap string) {
	if len(e.Framework.ArchList) > 0 {
		return e.Framework.ArchList, "torch.cuda.get_arch_list()", ""
	}
	fw := e.installedFramework()
	var version, channel string
	switch fw {
	case "torch":
		if t := e.Dist("torch"); t != nil {
			version, channel = t.Version, channelOfLabel(t.LocalLabel)
		}
	case "paddle":
		if p := e.Dist("paddlepaddle-gpu"); p != nil {
			version = p.Version
		}
		if e.Lock != nil {
			channel = e.Lock.Channel
		}
	}
	b := buildOf(releaseOf(e.Matrix, fw, version), channel)
	if b == nil {
		return nil, "", ""
	}
	return archOf(b, e.GOOS), fmt.Sprintf("the version matrix for %s %s %s on %s", fw, version, channel, e.GOOS), minCapOf(b, e.GOOS)
}

func checkArchMissing(e *Evidence) []Finding {
	if !e.GPU.Available || e.installedFramework() == "" {
		return nil
	}
	archs, from, minCap := e.archList()
	var out []Finding
	for _, g := range e.GPU.GPUs {
		cc, ok := parseComputeCap(g.ComputeCapability)
		if !ok {
			continue
		}
		if len(archs) > 0 {
			covered, viaPTX := archCovers(archs, cc)
			if !covered {
				out = append(out, Finding{
					Code: CodeArchMissing, Severity: SeverityError,
					Title:    fmt.Sprintf("The installed build has no kernels for GPU %d (%s, compute capability %s)", g.Index, g.Name, cc),
					Evidence: []string{"architectures (" + from + "): " + strings.Join(archs, ", "), "GPU " + strconv.Itoa(g.Index) + " needs sm_" + strconv.Itoa(cc.major) + strconv.Itoa(cc.minor), "the import works; the first kernel fails with \"no kernel image is available for execution on the device\""},
					Fix:      "Install a build whose channel includes this architecture (for compute capability 12.0, RTX 50 series: torch >= 2.7 with cu128 or newer). The wizard shows only channels that cover your card.",
				})
			} else if viaPTX {
				out = append(out, Finding{
					Code: CodeArchMissing, Severity: SeverityInfo,
					Title:    fmt.Sprintf("GPU %d (compute capability %s) runs this build only through PTX JIT compilation", g.Index, cc),
					Evidence: []string{"architectures (" + from + "): " + strings.Join(archs, ", ")},
					Fix:      "It works, but the first run of each kernel is slow; a build with native kernels for this card avoids that.",
				})
			}
			continue
		}
		if minCap != "" {
			if m, ok := parseComputeCap(minCap); ok && (cc.major < m.major || cc.major == m.major && cc.minor < m.minor) {
				out = append(out, Finding{
					Code: CodeArchMissing, Severity: SeverityError,
					Title:    fmt.Sprintf("GPU %d (%s, compute capability %s) is older than this build supports (%s or newer)", g.Index, g.Name, cc, minCap),
					Evidence: []string{"minimum compute capability from " + from + ": " + minCap},
					Fix:      "Install an older release that still supports this card (the wizard lists them).",
				})
			}
		}
	}
	return out
}

// heldMemoryMiB is the VRAM another process must hold before doctor calls it a problem.
const heldMemoryMiB = 1024

func checkGPUMemoryHeld(e *Evidence) []Finding {
	var warn, info []string
	for _, g := range e.GPU.GPUs {
		for _, p := range g.Processes {
			if p.PID == e.SelfPID && p.PID != 0 {
				continue
			}
			isPython := strings.Contains(strings.ToLower(p.Name), "python")
			switch {
			case p.UsedMemoryMiB != nil && (*p.UsedMemoryMiB >= heldMemoryMiB || g.MemoryTotalMiB > 0 && *p.UsedMemoryMiB*10 >= g.MemoryTotalMiB):
				warn = append(warn, fmt.Sprintf("GPU %d: pid %d %s holds %d MiB of %d MiB", g.Index, p.PID, p.Name, *p.UsedMemoryMiB, g.MemoryTotalMiB))
			case p.UsedMemoryMiB == nil && isPython:
				warn = append(warn, fmt.Sprintf("GPU %d: pid %d %s uses the GPU (the OS does not report how much)", g.Index, p.PID, p.Name))
			case p.UsedMemoryMiB != nil && isPython:
				warn = append(warn, fmt.Sprintf("GPU %d: pid %d %s holds %d MiB", g.Index, p.PID, p.Name, *p.UsedMemoryMiB))
			default:
				used := "unknown"
				if p.UsedMemoryMiB != nil {
					used = strconv.FormatUint(*p.UsedMemoryMiB, 10) + " MiB"
				}
				info = append(info, fmt.Sprintf("GPU %d: pid %d %s (%s)", g.Index, p.PID, p.Name, used))
			}
		}
	}
	if len(warn) > 0 {
		return []Finding{{
			Code: CodeGPUMemoryHeld, Severity: SeverityWarning,
			Title:    "Other processes hold GPU memory",
			Evidence: append(warn, info...),
			Fix:      "Close them (a stale Jupyter kernel or a finished training script often lingers; browser hardware acceleration also takes VRAM), or end the process by its pid. \"CUDA out of memory\" is often this, not a real shortage.",
		}}
	}
	if len(info) > 0 {
		return []Finding{{Code: CodeGPUMemoryHeld, Severity: SeverityInfo, Title: "Processes using the GPU", Evidence: info, Fix: "Nothing needed unless you see \"CUDA out of memory\"."}}
	}
	return nil
}

// checkCUDAVisibleDevices follows CUDA's rule: the list is read up to its first invalid entry.
func checkCUDAVisibleDevices(e *Evidence) []Finding {
	v := e.CUDAVisibleDevices
	if v == nil {
		return nil
	}
	val := strings.TrimSpace(*v)
	ev := []string{fmt.Sprintf("CUDA_VISIBLE_DEVICES=%q", *v)}
	fix := "Unset CUDA_VISIBLE_DEVICES (Windows: System Properties > Environment Variables, both user and system lists; Linux: your shell profile), or set it to valid GPU indices such as 0."
	if val == "" || val == "-1" {
		return []Finding{{Code: CodeCUDAVisibleDevices, Severity: SeverityError, Title: "CUDA_VISIBLE_DEVICES hides every GPU", Evidence: append(ev, "an empty or -1 value makes CUDA see no device: cuInit fails and is_available() is False"), Fix: fix}}
	}
	n := len(e.GPU.GPUs)
	visible := 0
	for _, entry := range strings.Split(val, ",") {
		entry = strings.TrimSpace(entry)
		ok := false
		if i, err := strconv.Atoi(entry); err == nil {
			ok = i >= 0 && (n == 0 || i < n)
		} else if strings.HasPrefix(entry, "GPU-") || strings.HasPrefix(entry, "MIG-") {
			ok = n == 0 || uuidMatches(e, entry)
		}
		if !ok {
			ev = append(ev, fmt.Sprintf("entry %q is not a GPU on this machine (%d found); CUDA ignores it and everything after it", entry, n))
			break
		}
		visible++
	}
	if visible == 0 {
		return []Finding{{Code: CodeCUDAVisibleDevices, Severity: SeverityError, Title: "CUDA_VISIBLE_DEVICES names no GPU that exists", Evidence: ev, Fix: fix}}
	}
	if len(ev) > 1 {
		return []Finding{{Code: CodeCUDAVisibleDevices, Severity: SeverityWarning, Title: "CUDA_VISIBLE_DEVICES has an invalid entry", Evidence: ev, Fix: fix}}
	}
	return []Finding{{Code: CodeCUDAVisibleDevices, Severity: SeverityInfo, Title: fmt.Sprintf("CUDA_VISIBLE_DEVICES limits CUDA to %d GPU(s)", visible), Evidence: ev, Fix: "Nothing needed if that is intended."}}
}

func uuidMatches(e *Evidence, prefix string) bool {
	for _, g := range e.GPU.GPUs {
		if g.UUID == "" || strings.HasPrefix(g.UUID, prefix) {
			return true
		}
	}
	return false
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
