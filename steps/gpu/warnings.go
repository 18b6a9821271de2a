package gpu

import (
	"strconv"
	"strings"

	"gpuwiz/steps/i18n"
)

// cardWarnings flags what later steps trip over: architectures recent wheels dropped, unknown
// compute capability, drivers too old for CUDA 12 wheels (NVIDIA CUDA 12.0 release notes; PyTorch RELEASE.md).
func cardWarnings(r Report) []string { return cardWarningsIn(i18n.Current(), r) }

func cardWarningsIn(l i18n.Lang, r Report) []string {
	var out []string
	for _, g := range r.GPUs {
		if w := ArchWarningIn(l, g); w != "" {
			out = append(out, w)
		}
	}
	if major := driverMajor(r.DriverVersion); major > 0 && major < 525 {
		out = append(out, i18n.In(l, "gpu.warn.old_driver", i18n.D{"Driver": r.DriverVersion}))
	}
	return out
}

// ArchWarningIn is the warning cardWarnings gives about g's architecture in language l ("" when
// none), so a caller that says more about the card in its own words (the wizard's GPU screen) can
// leave it out; the wizard matches a report's warnings in any language.
func ArchWarningIn(l i18n.Lang, g GPU) string {
	if g.ComputeCapability == "" {
		return i18n.In(l, "gpu.warn.cc_unknown", i18n.D{"Index": g.Index, "Name": g.Name})
	}
	cc, err := strconv.ParseFloat(g.ComputeCapability, 64)
	switch {
	case err != nil:
		return i18n.In(l, "gpu.warn.cc_unparsable", i18n.D{"Index": g.Index, "Name": g.Name, "Capability": strconv.Quote(g.ComputeCapability)})
	case cc < 5.0:
		return i18n.In(l, "gpu.warn.arch_unsupported", i18n.D{"Index": g.Index, "Name": g.Name, "Capability": g.ComputeCapability})
	case cc < 7.5:
		return i18n.In(l, "gpu.warn.arch_dropped", i18n.D{"Index": g.Index, "Name": g.Name, "Capability": g.ComputeCapability})
	}
	return ""
}

func driverMajor(v string) int {
	head, _, _ := strings.Cut(v, ".")
	n, _ := strconv.Atoi(head)
	return n
}

// availableMessage is the one plain sentence the wizard shows above the card list.
func availableMessage(r Report) string { return availableMessageIn(i18n.Current(), r) }

func availableMessageIn(l i18n.Lang, r Report) string {
	if len(r.GPUs) == 0 {
		return i18n.In(l, "gpu.report.no_gpus", i18n.D{"Driver": r.DriverVersion})
	}
	names := make([]string, 0, len(r.GPUs))
	for _, g := range r.GPUs {
		names = append(names, g.Name)
	}
	cuda := r.CUDAMax
	if cuda == "" {
		cuda = i18n.In(l, "gpu.report.cuda_unknown")
	}
	return i18n.NIn(l, "gpu.report.found", len(r.GPUs), i18n.D{"Driver": r.DriverVersion, "CUDA": cuda, "Names": i18n.JoinIn(l, names)})
}

// localizeReport puts the texts gpuwiz itself wrote into a report (a --simulate file made in either
// language, or by an older gpuwiz) into the current language; anything else stays as written.
func localizeReport(r Report) Report {
	cur := i18n.Current()
	if r.Available {
		//i18n:raw matched against the English sentence older gpuwiz versions wrote ("with 2 GPU(s)")
		ours := strings.HasPrefix(r.Message, "NVIDIA driver "+r.DriverVersion+" (CUDA up to ")
		for _, l := range i18n.Langs {
			ours = ours || r.Message == availableMessageIn(l, r)
		}
		if ours {
			r.Message = availableMessageIn(cur, r)
		}
	}
	if len(r.Warnings) == 0 {
		return r
	}
	want := cardWarningsIn(cur, r)
	ours := map[string]int{}
	for _, l := range i18n.Langs {
		for i, w := range cardWarningsIn(l, r) {
			ours[w] = i
		}
	}
	out := make([]string, len(r.Warnings))
	for i, w := range r.Warnings {
		out[i] = w
		if j, ok := ours[w]; ok {
			out[i] = want[j]
		}
	}
	r.Warnings = out
	return r
}
