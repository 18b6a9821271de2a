package gpu

import (
	"fmt"
	"strconv"
	"strings"
)

// cardWarnings flags what later steps trip over: architectures recent wheels dropped, unknown
// compute capability, drivers too old for CUDA 12 wheels (NVIDIA CUDA 12.0 release notes; PyTorch RELEASE.md).
func cardWarnings(r Report) []string {
	var out []string
	for _, g := range r.GPUs {
		if w := ArchWarning(g); w != "" {
			out = append(out, w)
		}
	}
	if major := driverMajor(r.DriverVersion); major > 0 && major < 525 {
		out = append(out, fmt.Sprintf("driver %s is older than 525.60: CUDA 12 builds will not run; update the driver from https://www.nvidia.com/Download/index.aspx", r.DriverVersion))
	}
	return out
}

// ArchWarning is the warning cardWarnings gives about g's architecture ("" when none), so a caller
// that says more about the card in its own words (the wizard's GPU screen) can leave it out.
func ArchWarning(g GPU) string {
	label := fmt.Sprintf("GPU %d (%s", g.Index, g.Name)
	if g.ComputeCapability == "" {
		return label + "): compute capability unknown; the channel choice cannot check the card's architecture"
	}
	cc, err := strconv.ParseFloat(g.ComputeCapability, 64)
	switch {
	case err != nil:
		return fmt.Sprintf("%s): compute capability %q does not parse", label, g.ComputeCapability)
	case cc < 5.0:
		return fmt.Sprintf("%s, compute capability %s): no current PyTorch or PaddlePaddle GPU build supports this architecture; use a CPU build", label, g.ComputeCapability)
	case cc < 7.5:
		return fmt.Sprintf("%s, compute capability %s): recent builds (cu128 and newer, torch 2.15+) dropped this architecture; it needs torch 2.14 or older with cu126", label, g.ComputeCapability)
	}
	return ""
}

func driverMajor(v string) int {
	head, _, _ := strings.Cut(v, ".")
	n, _ := strconv.Atoi(head)
	return n
}

// availableMessage is the one plain sentence the wizard shows above the card list.
func availableMessage(r Report) string {
	if len(r.GPUs) == 0 {
		return fmt.Sprintf("NVIDIA driver %s answered but lists no GPU (is the card disabled, or hidden from this container?)", r.DriverVersion)
	}
	names := make([]string, 0, len(r.GPUs))
	for _, g := range r.GPUs {
		names = append(names, g.Name)
	}
	cuda := r.CUDAMax
	if cuda == "" {
		cuda = "unknown"
	}
	return fmt.Sprintf("NVIDIA driver %s (CUDA up to %s) with %d GPU(s): %s", r.DriverVersion, cuda, len(r.GPUs), strings.Join(names, ", "))
}
