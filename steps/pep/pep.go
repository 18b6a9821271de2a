// Package pep is Python packaging's vocabulary as gpuwiz speaks it, written once for every package
// that needs it:
//
//   - project names, normalised as PEP 503 says (Normalize);
//   - wheel file names, parsed and written as PEP 427 says (ParseWheel, Wheel.Filename), and their
//     compatibility tags judged as PEP 425 and pip do (Wheel.ForPython, Wheel.ForPlatform, Wheel.Installs);
//   - local version labels, the "+cu126" of "2.6.0+cu126" (PEP 440: SplitLocal, LocalLabel, SameVersion,
//     PinMatches) and the CUDA version a channel label names (CUDAOfChannel);
//   - CPython versions and their tags: "3.11.7" → "3.11" (Minor, ParsePython), "3.11" → "cp311"
//     (CPythonTag), a range of minors (Pythons);
//   - the frameworks' distributions and which framework an environment holds (TorchFamily, PaddleDists,
//     HeldFramework).
//
// It reads strings only: no files, no network, no Python. Version ordering beyond this vocabulary is
// github.com/hashicorp/go-version's (already a dependency), as indexcheck uses it.
package pep

import "strings"

// Normalize is PEP 503's project name normalisation: lower case, and every run of "-", "_" and "."
// becomes one "-" ("Paddle__Paddle.GPU" → "paddle-paddle-gpu"), as re.sub(r"[-_.]+", "-", name).lower().
func Normalize(name string) string {
	var b strings.Builder
	b.Grow(len(name))
	run := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c == '-' || c == '_' || c == '.' {
			if !run {
				b.WriteByte('-')
			}
			run = true
			continue
		}
		run = false
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}

// TorchFamily and PaddleDists are the distributions that make up each framework (normalised names);
// within each list they must come from one build.
var (
	TorchFamily = []string{"torch", "torchvision", "torchaudio"}
	PaddleDists = []string{"paddlepaddle", "paddlepaddle-gpu"}
)

// Held is the framework an environment holds, read from its installed distributions.
type Held struct {
	Framework string // "torch", "paddle"; "" when neither is installed
	Package   string // the framework's distribution: "torch", "paddlepaddle-gpu", "paddlepaddle"
	Version   string // as installed, local label included: "2.6.0+cu126"
	Mixed     bool   // paddlepaddle and paddlepaddle-gpu are both installed
}

// Public is Version without its local label: "2.6.0".
func (h Held) Public() string { p, _ := SplitLocal(h.Version); return p }

// Channel is torch's local label without its "+" ("cu126", "cpu"); "" for Paddle, whose wheels carry none.
func (h Held) Channel() string {
	if h.Framework != "torch" {
		return ""
	}
	_, l := SplitLocal(h.Version)
	return l
}

// HeldFramework says which framework an environment holds, given the installed version of a
// distribution by its normalised name (ok false when it is not installed): torch when torch is
// installed, else Paddle (the GPU build before the CPU one; Mixed when both are).
func HeldFramework(installed func(name string) (version string, ok bool)) Held {
	if v, ok := installed("torch"); ok {
		return Held{Framework: "torch", Package: "torch", Version: v}
	}
	gpu, hasGPU := installed("paddlepaddle-gpu")
	cpu, hasCPU := installed("paddlepaddle")
	switch {
	case hasGPU:
		return Held{Framework: "paddle", Package: "paddlepaddle-gpu", Version: gpu, Mixed: hasCPU}
	case hasCPU:
		return Held{Framework: "paddle", Package: "paddlepaddle", Version: cpu}
	}
	return Held{}
}

// HeldIn is HeldFramework over a map from normalised names to versions.
func HeldIn(versions map[string]string) Held {
	return HeldFramework(func(n string) (string, bool) { v, ok := versions[n]; return v, ok })
}
