package verify

import (
	"fmt"
	"strconv"
	"strings"
)

// maxRelError is the largest relative difference of the GPU matmul from the float64 CPU result:
// float32 (or TF32) rounding stays far below it, a wrong kernel or broken memory far above.
const maxRelError = 1e-2

// judge turns the script's facts into the report's checks.
func judge(f facts, expectChannel string) Report {
	r := Report{
		Framework: f.Framework, Version: f.Version, LocalLabel: localLabel(f.Version), CUDA: f.CUDA,
		CuDNN: f.CuDNN, CompiledWithCUDA: f.CompiledWithCUDA, Devices: f.Devices, ArchList: f.ArchList,
	}
	if r.Devices == nil {
		r.Devices = []Device{}
	}
	fw := f.Framework
	add := func(c Check) { r.Checks = append(r.Checks, c) }

	imp := Check{ID: "import", Title: "import " + fw, OK: f.Imported && f.Error == ""}
	if !f.Imported {
		imp.Evidence = lastLines(f.ImportError, 8)
		imp.Cause, imp.Fix = importCause(f.ImportError)
		add(imp)
		return finish(r)
	}
	imp.Evidence = fw + " " + f.Version
	if f.Error != "" {
		imp.Evidence = lastLines(f.Error, 8)
		imp.Cause, imp.Fix = importCause(f.Error)
	}
	add(imp)

	build := Check{ID: "cuda-build", Title: "a CUDA build of " + fw, OK: f.CompiledWithCUDA}
	if fw == "torch" {
		build.Evidence = fmt.Sprintf("torch.__version__ = %s, torch.version.cuda = %s", f.Version, orNone(f.CUDA))
	} else {
		build.Evidence = fmt.Sprintf("paddle.is_compiled_with_cuda() = %v, paddle.version.cuda() = %s", f.CompiledWithCUDA, orNone(f.CUDA))
	}
	if !build.OK {
		build.Cause = "a CPU build is installed (PyPI's Windows torch and the pip cache re-serve CPU wheels; plain `pip install paddlepaddle` is CPU-only)"
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
		c := Check{ID: "cudnn", Title: "cuDNN is part of the build", OK: f.CuDNN != "", Evidence: "cuDNN " + orNone(f.CuDNN)}
		if !c.OK {
			c.Evidence += " " + f.CuDNNError
			c.Cause = "the build cannot load cuDNN: mismatched cuDNN DLLs on PATH or a partial install"
			c.Fix = "remove old CUDA/cuDNN directories from PATH (gpuwiz doctor names them), then reinstall with gpuwiz install"
		}
		add(c)
	}
	if !f.CompiledWithCUDA {
		return finish(r)
	}
	avail := Check{ID: "cuda-available", Title: fw + " sees a GPU", OK: f.CUDAAvailable && len(f.Devices) > 0}
	avail.Evidence = fmt.Sprintf("%d device(s)", len(f.Devices))
	if ev := strings.TrimSpace(strings.Join(append([]string{f.CUDAError, f.DeviceError}, f.CUDAWarnings...), " ")); ev != "" {
		avail.Evidence += ": " + ev
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
			c := Check{ID: fmt.Sprintf("arch-%d", i), Title: fmt.Sprintf("the build has kernels for GPU %d (%s, compute capability %s)", i, d.Name, d.Capability)}
			c.OK = archCovers(f.ArchList, d.Capability)
			c.Evidence = "arch list: " + strings.Join(f.ArchList, " ")
			if !c.OK {
				c.Cause = "the wheel lacks this GPU's architecture (\"no kernel image is available\", \"sm_XY is not compatible\")"
				c.Fix = "pick another channel: gpuwiz channels lists the builds whose arch list covers compute capability " + d.Capability
			}
			add(c)
		}
	}
	if rc := f.RunCheck; rc != nil {
		c := Check{ID: "run-check", Title: "paddle.utils.run_check()", OK: rc.OK && !strings.Contains(rc.Output, "on 1 CPU"), Evidence: lastLines(strings.TrimSpace(rc.Output+" "+rc.Error), 4)}
		if !c.OK {
			c.Cause, c.Fix = importCause(rc.Output + " " + rc.Error)
			if c.Cause == genericCause {
				c.Cause = "Paddle's own check does not run on the GPU"
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
	c := Check{ID: "matmul", Title: fmt.Sprintf("a %d×%d matmul on GPU 0 matches the CPU", n, n)}
	switch {
	case m == nil:
		c.Evidence = "the script did not reach the computation"
	case m.Error != "":
		c.Evidence = m.Error
		low := strings.ToLower(m.Error)
		if strings.Contains(low, "no kernel image") || strings.Contains(low, "not compatible") || strings.Contains(low, "invalid device function") {
			c.Cause = "the wheel lacks this GPU's architecture"
			c.Fix = "pick another channel whose arch list covers the GPU (gpuwiz channels)"
		} else if strings.Contains(low, "out of memory") {
			c.Cause = "GPU memory is held by other processes (zombie Python processes, browser hardware acceleration)"
			c.Fix = "close them: gpuwiz doctor lists GPU processes with their memory"
		} else {
			c.Cause, c.Fix = noDeviceCause(m.Error, f.CUDA)
		}
	case m.RelError == nil:
		c.Evidence = "no result"
	default:
		c.OK = *m.RelError <= maxRelError
		c.Evidence = fmt.Sprintf("max relative difference %.3g (limit %g)", *m.RelError, maxRelError)
		if !c.OK {
			c.Cause = "the GPU returns wrong numbers: a broken driver install, mismatched CUDA libraries, or faulty/overclocked hardware"
			c.Fix = "reinstall the NVIDIA driver (clean install), reset overclocks, then run gpuwiz verify again"
		}
	}
	return c
}

// channelCheck compares the installed build with the chosen channel: torch by its local label,
// Paddle (no label) by its CUDA version.
func channelCheck(f facts, ch string) Check {
	c := Check{ID: "channel", Title: "the installed build is the chosen channel " + ch}
	if f.Framework == "torch" {
		want := "+" + ch
		c.OK = localLabel(f.Version) == want
		c.Evidence = fmt.Sprintf("torch.__version__ = %s, expected the label %s", f.Version, want)
	} else {
		want := channelCUDA(ch)
		got := majorMinor(f.CUDA)
		c.OK = ch == "cpu" && !f.CompiledWithCUDA || want != "" && got == want
		c.Evidence = fmt.Sprintf("paddle.version.cuda() = %s, expected %s", orNone(f.CUDA), orNone(want))
	}
	if !c.OK {
		c.Cause = "another build won: the same version number from another index (\"Requirement already satisfied\" keeps a +cpu build), a pip config or PIP_INDEX_URL pointing elsewhere, or a later pip install -r replaced it"
		c.Fix = "gpuwiz install again (it uninstalls first and uses only the channel's index); keep it with pip install -r requirements.txt -c constraints.txt"
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

func localLabel(v string) string {
	if i := strings.IndexByte(v, '+'); i >= 0 {
		return v[i:]
	}
	return ""
}

// channelCUDA is "12.6" for "cu126", "11.8" for "cu118".
func channelCUDA(ch string) string {
	d, ok := strings.CutPrefix(ch, "cu")
	if !ok || len(d) < 3 {
		return ""
	}
	return d[:len(d)-1] + "." + d[len(d)-1:]
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
		return "none"
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
		return "gpuwiz install --framework torch --channel cuXYZ (uninstalls the torch family, installs from the channel's --index-url only); by hand: pip uninstall torch torchvision torchaudio, pip cache remove torch, pip install ... --index-url https://download.pytorch.org/whl/cuXYZ"
	}
	return "gpuwiz install --framework paddle --channel cuXYZ (removes paddlepaddle and paddlepaddle-gpu, installs paddlepaddle-gpu from the official index)"
}
