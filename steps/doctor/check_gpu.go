package doctor

import (
	"strconv"
	"strings"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pep"
)

func checkNoDriver(e *Evidence) []Finding {
	if e.GPU.Available {
		return nil
	}
	// What was tried and what the system lists, one line each; the advice is the fix, said once.
	var ev []string
	for _, a := range e.GPU.LookedFor {
		ev = append(ev, i18n.T("doctor.no_driver.looked", i18n.D{"Attempt": a.Label()}))
	}
	for _, a := range e.GPU.Adapters {
		ev = append(ev, i18n.T("doctor.no_driver.adapter", i18n.D{"Card": a.Label()}))
	}
	if len(ev) == 0 {
		// A report that says nothing of how it looked (a --simulate file): its own words, or its backend.
		if e.GPU.Message != "" {
			ev = append(ev, e.GPU.Message)
		} else {
			backend := e.GPU.Backend
			if backend == "none" {
				backend = "" // the GPU report's word for no backend reads as the language's "none"
			}
			ev = append(ev, i18n.T("doctor.no_driver.backend", i18n.D{"Backend": orNone(backend)}))
		}
	}
	if e.GPUError != "" {
		ev = append(ev, i18n.T("doctor.no_driver.probe_error", i18n.D{"Err": e.GPUError}))
	}
	fix := i18n.T("doctor.no_driver.fix_linux")
	if e.GOOS == "windows" {
		fix = i18n.T("doctor.no_driver.fix_windows")
	}
	return []Finding{{Code: CodeNoDriver, Severity: SeverityError, Title: i18n.T("doctor.no_driver.title"), Evidence: ev, Fix: fix}}
}

// buildCUDA is the CUDA version the installed build targets: what it reports, else its channel.
func (e *Evidence) buildCUDA() (cuda, from string) {
	if e.Framework.Imported && e.Framework.CUDA != "" {
		return majorMinor(e.Framework.CUDA), i18n.T("doctor.build_cuda.reported", i18n.D{"Framework": frameworkTitle(e.Framework.Framework), "CUDA": e.Framework.CUDA})
	}
	if t := e.Dist("torch"); t != nil {
		if c := pep.CUDAOfChannel(t.LocalLabel); c != "" {
			return c, i18n.T("doctor.build_cuda.label", i18n.D{"Version": t.Version + t.LocalLabel, "CUDA": c})
		}
	}
	if e.Lock != nil {
		if c := pep.CUDAOfChannel(e.Lock.Channel); c != "" {
			return c, i18n.T("doctor.build_cuda.lock", i18n.D{"File": e.Lock.File, "Channel": e.Lock.Channel})
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
	ev := []string{from, i18n.T("doctor.driver_old.supports", i18n.D{"Driver": e.GPU.DriverVersion, "CUDAMax": e.GPU.CUDAMax})}
	// Minor-version compatibility: a 12.x build runs on any driver that runs 12.0.
	if min := minorCompatDriver(e.Matrix, cuda, e.GOOS); min != "" && e.GPU.DriverVersion != "" && !versionLess(e.GPU.DriverVersion, min) {
		return []Finding{{
			Code: CodeDriverTooOld, Severity: SeverityInfo,
			Title:    i18n.T("doctor.driver_old.compat_title", i18n.D{"CUDA": cuda, "CUDAMax": e.GPU.CUDAMax}),
			Evidence: append(ev, i18n.T("doctor.driver_old.compat_minimum", i18n.D{"Driver": e.GPU.DriverVersion, "Min": min, "Major": strings.Split(cuda, ".")[0]})),
			Fix:      i18n.T("doctor.driver_old.compat_fix"),
		}}
	}
	return []Finding{{
		Code: CodeDriverTooOld, Severity: SeverityError,
		Title:    i18n.T("doctor.driver_old.title", i18n.D{"CUDA": cuda, "Driver": e.GPU.DriverVersion}),
		Evidence: ev,
		Fix:      i18n.T("doctor.driver_old.fix", i18n.D{"CUDA": cuda}),
	}}
}

// archList is the installed build's architectures: the framework's own answer, else the matrix's record.
func (e *Evidence) archList() (archs []string, from string, minCap string) {
	if len(e.Framework.ArchList) > 0 {
		return e.Framework.ArchList, "torch.cuda.get_arch_list()", "" //i18n:raw the function that gave the list
	}
	fw := e.installedFramework()
	var version, channel string
	switch fw {
	case "torch":
		if t := e.Dist("torch"); t != nil {
			version, channel = t.Version, pep.Channel(t.LocalLabel)
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
	return archOf(b, e.GOOS), i18n.T("doctor.arch.from_matrix", i18n.D{"Framework": fw, "Version": version, "Channel": channel, "OS": e.GOOS}), minCapOf(b, e.GOOS)
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
					Title: i18n.T("doctor.arch.missing_title", i18n.D{"Index": g.Index, "Name": g.Name, "Capability": cc.String()}),
					Evidence: []string{
						i18n.T("doctor.arch.list", i18n.D{"From": from, "List": strings.Join(archs, ", ")}),
						i18n.T("doctor.arch.needs", i18n.D{"Index": g.Index, "Arch": "sm_" + strconv.Itoa(cc.major) + strconv.Itoa(cc.minor)}),
						i18n.T("doctor.arch.symptom"),
					},
					Fix: i18n.T("doctor.arch.missing_fix"),
				})
			} else if viaPTX {
				out = append(out, Finding{
					Code: CodeArchMissing, Severity: SeverityInfo,
					Title:    i18n.T("doctor.arch.ptx_title", i18n.D{"Index": g.Index, "Capability": cc.String()}),
					Evidence: []string{i18n.T("doctor.arch.list", i18n.D{"From": from, "List": strings.Join(archs, ", ")})},
					Fix:      i18n.T("doctor.arch.ptx_fix"),
				})
			}
			continue
		}
		if minCap != "" {
			if m, ok := parseComputeCap(minCap); ok && (cc.major < m.major || cc.major == m.major && cc.minor < m.minor) {
				out = append(out, Finding{
					Code: CodeArchMissing, Severity: SeverityError,
					Title:    i18n.T("doctor.arch.too_old_title", i18n.D{"Index": g.Index, "Name": g.Name, "Capability": cc.String(), "Min": minCap}),
					Evidence: []string{i18n.T("doctor.arch.min_from", i18n.D{"From": from, "Min": minCap})},
					Fix:      i18n.T("doctor.arch.too_old_fix"),
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
				warn = append(warn, i18n.T("doctor.memory.holds_of", i18n.D{"Index": g.Index, "PID": p.PID, "Name": p.Name, "Used": *p.UsedMemoryMiB, "Total": g.MemoryTotalMiB}))
			case p.UsedMemoryMiB == nil && isPython:
				warn = append(warn, i18n.T("doctor.memory.uses", i18n.D{"Index": g.Index, "PID": p.PID, "Name": p.Name}))
			case p.UsedMemoryMiB != nil && isPython:
				warn = append(warn, i18n.T("doctor.memory.holds", i18n.D{"Index": g.Index, "PID": p.PID, "Name": p.Name, "Used": *p.UsedMemoryMiB}))
			default:
				used := i18n.T("doctor.memory.unknown")
				if p.UsedMemoryMiB != nil {
					used = strconv.FormatUint(*p.UsedMemoryMiB, 10) + " MiB"
				}
				info = append(info, i18n.T("doctor.memory.process", i18n.D{"Index": g.Index, "PID": p.PID, "Name": p.Name, "Used": used}))
			}
		}
	}
	if len(warn) > 0 {
		return []Finding{{
			Code: CodeGPUMemoryHeld, Severity: SeverityWarning,
			Title:    i18n.T("doctor.memory.held_title"),
			Evidence: append(warn, info...),
			Fix:      i18n.T("doctor.memory.held_fix"),
		}}
	}
	if len(info) > 0 {
		return []Finding{{Code: CodeGPUMemoryHeld, Severity: SeverityInfo, Title: i18n.T("doctor.memory.info_title"), Evidence: info, Fix: i18n.T("doctor.memory.info_fix")}}
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
	ev := []string{"CUDA_VISIBLE_DEVICES=" + strconv.Quote(*v)}
	fix := i18n.T("doctor.visible.fix")
	if val == "" || val == "-1" {
		return []Finding{{Code: CodeCUDAVisibleDevices, Severity: SeverityError, Title: i18n.T("doctor.visible.hides_title"), Evidence: append(ev, i18n.T("doctor.visible.hides_why")), Fix: fix}}
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
			ev = append(ev, i18n.T("doctor.visible.bad_entry", i18n.D{"Entry": strconv.Quote(entry), "Found": n}))
			break
		}
		visible++
	}
	if visible == 0 {
		return []Finding{{Code: CodeCUDAVisibleDevices, Severity: SeverityError, Title: i18n.T("doctor.visible.none_title"), Evidence: ev, Fix: fix}}
	}
	if len(ev) > 1 {
		return []Finding{{Code: CodeCUDAVisibleDevices, Severity: SeverityWarning, Title: i18n.T("doctor.visible.invalid_title"), Evidence: ev, Fix: fix}}
	}
	return []Finding{{Code: CodeCUDAVisibleDevices, Severity: SeverityInfo, Title: i18n.N("doctor.visible.limits_title", visible), Evidence: ev, Fix: i18n.T("doctor.visible.limits_fix")}}
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
		return i18n.T("doctor.none")
	}
	return s
}
