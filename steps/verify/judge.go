package verify

import (
	"fmt"
	"strconv"
	"strings"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pep"
)

// maxRelError is the largest relative difference of the GPU matmul from the float64 CPU result:
// float32 (or TF32) rounding stays far below it, a wrong kernel or broken memory far above.
const maxRelError = 1e-2

// judge turns the script's facts into the report's checks.
func judge(f facts, expectChannel string) Report {
	r := Report{
		Framework: f.Framework, Version: f.Version, LocalLabel: pep.LocalLabel(f.Version), CUDA: f.CUDA,
		CuDNN: f.CuDNN, CompiledWithCUDA: f.CompiledWithCUDA, Devices: f.Devices, ArchList: f.ArchList,
	}
	if r.Devices == nil {
		r.Devices = []Device{}
	}
	fw := f.Framework
	add := func(c Check) { r.Checks = append(r.Checks, c) }

	imp := Check{ID: "import", Title: i18n.T("verify.check.import", i18n.D{"Framework": fw}), OK: f.Imported && f.Error == ""}
	if !f.Imported {
		imp.Evidence = lastLines(f.ImportError, 8)
		imp.Cause, imp.Fix, _ = importCause(f.ImportError)
		add(imp)
		return finish(r)
	}
	imp.Evidence = fw + " " + f.Version
	if f.Error != "" {
		imp.Evidence = lastLines(f.Error, 8)
		imp.Cause, imp.Fix, _ = importCause(f.Error)
	}
	add(imp)

	build := Check{ID: "cuda-build", Title: i18n.T("verify.check.cuda_build", i18n.D{"Framework": fw}), OK: f.CompiledWithCUDA}
	if fw == "torch" {
		build.Evidence = i18n.T("verify.evidence.torch_build", i18n.D{"Version": f.Version, "CUDA": orNone(f.CUDA)})
	} else if f.CompiledWithCUDA {
		build.Evidence = i18n.T("verify.evidence.paddle_gpu", i18n.D{"CUDA": orNone(f.CUDA)})
	} else {
		build.Evidence = i18n.T("verify.evidence.paddle_cpu", i18n.D{"CUDA": orNone(f.CUDA)})
	}
	if !build.OK {
		build.Cause = i18n.T("verify.cause.cpu_build")
		build.Fix = cpuBuildFix(fw)
	}
	if expectChannel != "cpu" {
		add(build)
	}
	if expectChannel != "" {
		add(channelCheck(f, expectChannel))
	}
	if expectChannel == "cpu" {
		return finish(r)
	}
	if f.CuDNN != "" || f.CompiledWithCUDA {
		c := Check{ID: "cudnn", Title: i18n.T("verify.check.cudnn"), OK: f.CuDNN != "", Evidence: "cuDNN " + orNone(f.CuDNN)}
		if !c.OK {
			c.Evidence += " " + f.CuDNNError
			c.Cause = i18n.T("verify.cause.cudnn")
			c.Fix = i18n.T("verify.fix.cudnn")
		}
		add(c)
	}
	if !f.CompiledWithCUDA {
		return finish(r)
	}
	avail := Check{ID: "cuda-available", Title: i18n.T("verify.check.cuda_available", i18n.D{"Framework": fw}), OK: f.CUDAAvailable && len(f.Devices) > 0}
	avail.Evidence = i18n.N("verify.evidence.devices", len(f.Devices))
	if ev := strings.TrimSpace(strings.Join(append([]string{f.CUDAError, f.DeviceError}, f.CUDAWarnings...), " ")); ev != "" {
		avail.Evidence = i18n.N("verify.evidence.devices_detail", len(f.Devices), i18n.D{"Detail": ev})
	}
	if !avail.OK {
		avail.Cause, avail.Fix = noDeviceCause(avail.Evidence, f.CUDA)
	}
	add(avail)
	if len(f.Devices) == 0 {
		return finish(r)
	}
	if len(f.ArchList) > 0 {
		for i, d := range f.Devices {
			c := Check{ID: fmt.Sprintf("arch-%d", i), Title: i18n.T("verify.check.arch", i18n.D{"Index": i, "Name": d.Name, "Capability": d.Capability})}
			c.OK = archCovers(f.ArchList, d.Capability)
			c.Evidence = i18n.T("verify.evidence.arch_list", i18n.D{"List": strings.Join(f.ArchList, " ")})
			if !c.OK {
				c.Cause = i18n.T("verify.cause.arch_kernels")
				c.Fix = i18n.T("verify.fix.arch_kernels", i18n.D{"Capability": d.Capability})
			}
			add(c)
		}
	}
	if rc := f.RunCheck; rc != nil {
		c := Check{ID: "run-check", Title: "paddle.utils.run_check()", OK: rc.OK && !strings.Contains(rc.Output, "on 1 CPU"), Evidence: lastLines(strings.TrimSpace(rc.Output+" "+rc.Error), 4)}
		if !c.OK {
			var generic bool
			c.Cause, c.Fix, generic = importCause(rc.Output + " " + rc.Error)
			if generic {
				c.Cause = i18n.T("verify.cause.run_check")
			}
		}
		add(c)
	}
	add(matmulCheck(f))
	return finish(r)
}

func finish(r Report) Report {
	r.OK = len(r.Checks) > 0
	for _, c := range r.Checks {
		r.OK = r.OK && c.OK
	}
	return r
}

func matmulCheck(f facts) Check {
	m := f.Matmul
	n := 0
	if m != nil {
		n = m.N
	}
	c := Check{ID: "matmul", Title: i18n.T("verify.check.matmul", i18n.D{"N": n})}
	switch {
	case m == nil:
		c.Evidence = i18n.T("verify.evidence.not_reached")
	case m.Error != "":
		c.Evidence = m.Error
		low := strings.ToLower(m.Error)
		if strings.Contains(low, "no kernel image") || strings.Contains(low, "not compatible") || strings.Contains(low, "invalid device function") {
			c.Cause = i18n.T("verify.cause.arch_missing")
			c.Fix = i18n.T("verify.fix.matmul_arch")
		} else if strings.Contains(low, "out of memory") {
			c.Cause = i18n.T("verify.cause.memory_held")
			c.Fix = i18n.T("verify.fix.memory_held")
		} else {
			c.Cause, c.Fix = noDeviceCause(m.Error, f.CUDA)
		}
	case m.RelError == nil:
		c.Evidence = i18n.T("verify.evidence.no_result")
	default:
		c.OK = *m.RelError <= maxRelError
		c.Evidence = i18n.T("verify.evidence.rel_diff", i18n.D{"Diff": fmt.Sprintf("%.3g", *m.RelError), "Limit": fmt.Sprintf("%g", maxRelError)})
		if !c.OK {
			c.Cause = i18n.T("verify.cause.wrong_numbers")
			c.Fix = i18n.T("verify.fix.wrong_numbers")
		}
	}
	return c
}

// channelCheck compares the installed build with the chosen channel: torch by its local label,
// Paddle (no label) by its CUDA version.
func channelCheck(f facts, ch string) Check {
	c := Check{ID: "channel", Title: i18n.T("verify.check.channel", i18n.D{"Channel": ch})}
	if f.Framework == "torch" {
		want := "+" + ch
		c.OK = pep.LocalLabel(f.Version) == want
		c.Evidence = i18n.T("verify.evidence.torch_label", i18n.D{"Version": f.Version, "Label": want})
	} else {
		want := pep.CUDAOfChannel(ch)
		got := majorMinor(f.CUDA)
		c.OK = ch == "cpu" && !f.CompiledWithCUDA || want != "" && got == want
		c.Evidence = i18n.T("verify.evidence.paddle_cuda", i18n.D{"CUDA": orNone(f.CUDA), "Want": orNone(want)})
	}
	if !c.OK {
		c.Cause = i18n.T("verify.cause.another_build")
		c.Fix = i18n.T("verify.fix.another_build", i18n.D{"Framework": f.Framework, "Channel": ch})
	}
	return c
}

func archCovers(list []string, capability string) bool {
	mj, mn, ok := parseCap(capability)
	if !ok {
		return false
	}
	for _, a := range list {
		kind, num, ok := strings.Cut(a, "_")
		if !ok || len(num) < 2 {
			continue
		}
		n, err := strconv.Atoi(strings.TrimRight(num, "af"))
		if err != nil {
			continue
		}
		amj, amn := n/10, n%10
		switch kind {
		case "sm":
			// SASS runs on the same major at the same or a higher minor.
			if amj == mj && amn <= mn {
				return true
			}
		case "compute":
			// PTX is JIT-compiled for any newer GPU.
			if amj < mj || amj == mj && amn <= mn {
				return true
			}
		}
	}
	return false
}

func parseCap(s string) (int, int, bool) {
	a, b, ok := strings.Cut(s, ".")
	x, e1 := strconv.Atoi(a)
	y, e2 := strconv.Atoi(b)
	return x, y, ok && e1 == nil && e2 == nil
}

func majorMinor(v string) string {
	parts := strings.Split(v, ".")
	if len(parts) < 2 {
		return v
	}
	return parts[0] + "." + parts[1]
}

func orNone(s string) string {
	if s == "" {
		return i18n.T("verify.none")
	}
	return s
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func cpuBuildFix(fw string) string {
	if fw == "torch" {
		return i18n.T("verify.fix.cpu_build_torch")
	}
	return i18n.T("verify.fix.cpu_build_paddle")
}
