package ui

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"

	"gpuwiz/matrix"
	"gpuwiz/steps/gpu"
)

// factsFor turns the probe's report into the matrix's facts for one framework.
func factsFor(r gpu.Report, framework, version string) matrix.Facts {
	f := matrix.Facts{Framework: framework, FrameworkVersion: version, OS: runtime.GOOS,
		DriverVersion: r.DriverVersion, CUDAMax: r.CUDAMax}
	for _, g := range r.GPUs {
		if g.ComputeCapability != "" {
			f.ComputeCaps = append(f.ComputeCaps, g.ComputeCapability)
		}
	}
	f.NoGPU = !r.Available || len(r.GPUs) == 0
	return f
}

// driverWords are the plain sentences about the driver and cards that head the GPU screen.
func driverWords(r gpu.Report) []string {
	var out []string
	if !r.Available {
		out = append(out, "No NVIDIA driver answered on this machine.")
		if r.Message != "" {
			out = append(out, r.Message)
		}
		out = append(out, "Install the NVIDIA driver (nvidia.com/drivers) and run gpuwiz again. No CUDA toolkit is needed: the pip wheels carry their own CUDA. You can still continue with a CPU build.")
		return out
	}
	if len(r.GPUs) == 0 {
		return append(out, "The driver answered but reported no NVIDIA card. On a laptop, check that the NVIDIA GPU is enabled in the BIOS and Windows graphics settings.")
	}
	if cuda, ok := parseMajorMinor(r.CUDAMax); ok && cuda < 1108 {
		out = append(out, fmt.Sprintf("Your driver %s supports CUDA up to %s. Current PyTorch and PaddlePaddle GPU builds need CUDA 11.8 or newer: update the NVIDIA driver to use the GPU.", r.DriverVersion, r.CUDAMax))
	} else if ok && cuda < 1206 {
		out = append(out, fmt.Sprintf("Your driver %s supports CUDA up to %s: only older channels (cu118, cu12x) fit. Updating the driver opens the newer builds.", r.DriverVersion, r.CUDAMax))
	}
	for _, g := range r.GPUs {
		cc, ok := parseMajorMinor(g.ComputeCapability)
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("GPU %d (%s): compute capability unknown; gpuwiz cannot tell which builds carry kernels for it.", g.Index, g.Name))
		case cc < 500:
			out = append(out, fmt.Sprintf("GPU %d (%s, compute capability %s) is older than every current build supports: only cu118 builds of torch up to 2.7 still carry its kernels.", g.Index, g.Name, g.ComputeCapability))
		case cc < 705:
			out = append(out, fmt.Sprintf("GPU %d (%s, compute capability %s): the newest channels (cu128 from torch 2.11, cu130, cu132) dropped this architecture; cu126 still carries it.", g.Index, g.Name, g.ComputeCapability))
		}
	}
	return out
}

// parseMajorMinor reads "12.6" as 1206.
func parseMajorMinor(s string) (int, bool) {
	maj, rest, _ := strings.Cut(strings.TrimSpace(s), ".")
	a, err := strconv.Atoi(maj)
	if err != nil {
		return 0, false
	}
	min, _, _ := strings.Cut(rest, ".")
	b, err := strconv.Atoi(min)
	if err != nil && min != "" {
		return 0, false
	}
	return a*100 + b, true
}

func frameworkName(f string) string {
	switch f {
	case "torch":
		return "PyTorch"
	case "paddle":
		return "PaddlePaddle"
	}
	return f
}

// forCards is the report narrowed to the chosen card (index ≥ 0), so every later judgement (which
// builds carry kernels for it) is about that card alone; -1 keeps every card.
func forCards(r gpu.Report, index int) gpu.Report {
	if index < 0 {
		return r
	}
	for _, g := range r.GPUs {
		if g.Index == index {
			r.GPUs = []gpu.GPU{g}
			return r
		}
	}
	return r
}
