package matrix

import (
	"fmt"
	"strings"
	"testing"
)

// profile is one machine and what gpuwiz must answer for it: the recommended framework version and
// channel ("" when nothing fits), and the builds that must never be marked compatible there ("cu129"
// for every release, "2.14.1 cu129" for one).
type profile struct {
	name        string
	framework   string
	version     string // --framework-version; "" for any
	os          string
	driver      string
	cudaMax     string
	caps        []string
	python      string
	bits        int
	want        string // "2.14.1 cu126"; "" when nothing fits
	minorCompat bool   // the recommendation runs through CUDA minor-version compatibility
	never       []string
	notes       []string // substrings the selection's notes must contain
	notNotes    []string // substrings no note may contain
}

// machineProfiles are the machines of the second matrix audit (pytorch/test-infra release branches,
// PaddlePaddle issues, NVIDIA's driver tables) and more: each names the build gpuwiz must recommend.
var machineProfiles = []profile{
	// torch on Linux: 2.14 has no cu129 (test-infra release/2.14), so drivers 525-579 get cu126.
	{name: "H100 on driver 535", framework: "torch", os: "linux", driver: "535.104.05", cudaMax: "12.2", caps: []string{"9.0"}, python: "3.11",
		want: "2.14.1 cu126", minorCompat: true, never: []string{"2.14.1 cu129", "cu130", "cu132", "cu134"}},
	{name: "RTX 3060 on driver 525", framework: "torch", os: "linux", driver: "525.60.13", cudaMax: "12.0", caps: []string{"8.6"}, python: "3.10",
		want: "2.14.1 cu126", minorCompat: true, never: []string{"cu130", "cu132", "cu134"}},
	{name: "RTX 5090 on driver 570", framework: "torch", os: "linux", driver: "570.133.07", cudaMax: "12.8", caps: []string{"12.0"}, python: "3.12",
		want: "2.11.0 cu128", never: []string{"cu118", "cu121", "cu124", "cu126", "cu130", "cu132"},
		notes: []string{"torch 2.13.0 (cu129) also fits, but that build is unverified", "--framework-version 2.13.0 --channel cu129",
			"updating the NVIDIA driver to 580 or newer (Linux) would unlock torch 2.14.1 on cu130"},
		notNotes: []string{"2.15.0", "cu134"}},
	{name: "B200 on driver 570", framework: "torch", os: "linux", driver: "570.86.15", cudaMax: "12.8", caps: []string{"10.0"}, python: "3.12",
		want: "2.11.0 cu128", never: []string{"cu126", "cu130"}},
	{name: "H200 on driver 580", framework: "torch", os: "linux", driver: "580.159.04", cudaMax: "13.0", caps: []string{"9.0"}, python: "3.11",
		want: "2.14.1 cu130", notes: []string{"torch 2.15.0 (cu130) also fits, but that build is unverified"}},
	// With the driver's CUDA version unknown, the full-toolkit driver decides: CUDA 13.0.2 (what PyTorch
	// builds cu130 with) ships with 580.95.05, so 580.82.07 runs cu130 only through minor-version
	// compatibility and the fully supported cu126 of the same release comes first.
	{name: "RTX 4090 on driver 580.82.07, CUDA version unknown", framework: "torch", os: "linux", driver: "580.82.07", caps: []string{"8.9"}, python: "3.12",
		want: "2.14.1 cu126"},
	{name: "RTX 4090 on driver 580.95.05, CUDA version unknown", framework: "torch", os: "linux", driver: "580.95.05", caps: []string{"8.9"}, python: "3.12",
		want: "2.14.1 cu130"},
	{name: "GTX 1080 on Linux driver 570", framework: "torch", os: "linux", driver: "570.133.07", cudaMax: "12.8", caps: []string{"6.1"}, python: "3.11",
		want: "2.14.1 cu126", never: []string{"2.8.0 cu128", "2.11.0 cu128", "cu129", "cu130", "cu132"}},
	{name: "GTX 970 on Linux driver 550", framework: "torch", os: "linux", driver: "550.54.15", cudaMax: "12.4", caps: []string{"5.2"}, python: "3.11",
		want: "2.14.1 cu126", minorCompat: true, never: []string{"2.9.1 cu128", "cu130"}},
	{name: "V100 on driver 535", framework: "torch", os: "linux", driver: "535.104.05", cudaMax: "12.2", caps: []string{"7.0"}, python: "3.11",
		want: "2.14.1 cu126", minorCompat: true, never: []string{"2.11.0 cu128", "2.11.0 cu129", "cu130"}},
	{name: "K80 on driver 470", framework: "torch", os: "linux", driver: "470.256.02", cudaMax: "11.4", caps: []string{"3.7"}, python: "3.10",
		want: "2.7.1 cu118", minorCompat: true, never: []string{"cu121", "cu124", "cu126", "cu128"}},
	{name: "Linux without a driver", framework: "torch", os: "linux", python: "3.12",
		want: "2.14.1 cpu", never: []string{"cu126", "cu130"}},
	{name: "torch 2.6 on Python 3.13", framework: "torch", version: "2.6", os: "linux", driver: "550.54.15", cudaMax: "12.4", caps: []string{"8.6"}, python: "3.13",
		want: "2.6.0 cu124"},
	{name: "Python 3.14 on driver 580", framework: "torch", os: "linux", driver: "580.65.06", cudaMax: "13.0", caps: []string{"8.9"}, python: "3.14",
		want: "2.14.1 cu130", never: []string{"2.8.0 cu128"}},
	// A GPU that runs a build only through its PTX cannot do so under minor-version compatibility.
	{name: "a GPU newer than every cubin on driver 580", framework: "torch", os: "linux", driver: "580.159.04", cudaMax: "13.0", caps: []string{"13.0"}, python: "3.11",
		want: "2.14.1 cu130", never: []string{"2.12.1 cu132", "2.13.0 cu132", "2.14.1 cu132", "2.15.0 cu132", "2.15.0 cu134"}},

	// torch on Windows.
	{name: "GTX 1080 on Windows driver 566", framework: "torch", os: "windows", driver: "566.36", cudaMax: "12.7", caps: []string{"6.1"}, python: "3.11",
		want: "2.14.1 cu126", never: []string{"2.8.0 cu128", "2.9.1 cu128", "2.11.0 cu128", "cu129", "cu130"}},
	{name: "GTX 970 on Windows driver 566", framework: "torch", os: "windows", driver: "566.36", cudaMax: "12.7", caps: []string{"5.2"}, python: "3.11",
		want: "2.7.1 cu126", never: []string{"2.8.0 cu126", "2.9.1 cu126", "2.14.1 cu126", "2.8.0 cu128", "2.9.1 cu128", "2.11.0 cu128", "cu130"}},
	{name: "RTX 5090 on Windows driver 576", framework: "torch", os: "windows", driver: "576.80", cudaMax: "12.9", caps: []string{"12.0"}, python: "3.12",
		want: "2.11.0 cu128", never: []string{"cu126", "2.9.1 cu129", "2.10.0 cu129", "2.11.0 cu129", "2.13.0 cu129", "cu130"},
		notes: []string{"would unlock torch 2.14.1 on cu130"}, notNotes: []string{"2.15.0", "cu134"}},
	{name: "RTX 4090 on Windows driver 581", framework: "torch", os: "windows", driver: "581.57", cudaMax: "13.0", caps: []string{"8.9"}, python: "3.12",
		want: "2.14.1 cu130", never: []string{"2.11.0 cu129", "2.13.0 cu129", "cu134"}},
	{name: "RTX 3060 on Windows driver 528.33", framework: "torch", os: "windows", driver: "528.33", cudaMax: "12.0", caps: []string{"8.6"}, python: "3.12",
		want: "2.14.1 cu126", minorCompat: true, never: []string{"cu130", "cu132"}},
	{name: "RTX 3060 on Windows driver 472", framework: "torch", os: "windows", driver: "472.12", cudaMax: "11.4", caps: []string{"8.6"}, python: "3.10",
		want: "2.7.1 cu118", minorCompat: true, never: []string{"cu126", "cu128", "cu130"},
		notes: []string{"updating the NVIDIA driver to 528.33 or newer (Windows) would unlock torch 2.14.1 on cu126"}, notNotes: []string{"2.15.0", "cu134"}},
	{name: "32-bit Python on Windows", framework: "torch", os: "windows", driver: "566.36", cudaMax: "12.7", caps: []string{"8.9"}, python: "3.11", bits: 32,
		want: "", never: []string{"cpu", "cu126", "cu128"}},

	// Paddle on Linux: compute capability 6.0 or newer (PaddlePaddle/docs linux-pip.md).
	{name: "Paddle, GTX 970 on Linux", framework: "paddle", os: "linux", driver: "550.54.15", cudaMax: "12.4", caps: []string{"5.2"}, python: "3.11",
		want: "3.4.0 cpu", never: []string{"cu118", "cu123", "cu126", "cu129", "cu130", "cu132"},
		notes: []string{"no GPU build of paddle fits this machine: paddle on Linux needs compute capability 6.0 or newer; this GPU has 5.2"}},
	{name: "Paddle, GTX 1080 on Linux driver 570", framework: "paddle", os: "linux", driver: "570.133.07", cudaMax: "12.8", caps: []string{"6.1"}, python: "3.11",
		want: "3.3.1 cu126", never: []string{"cu130", "cu132"},
		notes: []string{"paddle 3.4.0 (cu126) also fits, but that build is unverified"}},
	{name: "Paddle, H100 on Linux driver 580", framework: "paddle", os: "linux", driver: "580.159.04", cudaMax: "13.0", caps: []string{"9.0"}, python: "3.11",
		want: "3.4.0 cu130"},
	{name: "Paddle, RTX 3090 on Python 3.9", framework: "paddle", os: "linux", driver: "570.133.07", cudaMax: "12.8", caps: []string{"8.6"}, python: "3.9",
		want: "3.3.1 cu126", never: []string{"3.4.0 cu126", "3.4.0 cu129", "3.4.0 cpu"}},
	{name: "Paddle on Python 3.14", framework: "paddle", os: "linux", driver: "580.65.06", cudaMax: "13.0", caps: []string{"8.6"}, python: "3.14",
		want: "", never: []string{"cpu", "cu126", "cu130"}},

	// Paddle on Windows: cu129 from compute capability 7.5 (Paddle #73687, #76037), cu126 for Pascal.
	{name: "Paddle, GTX 1080 on Windows driver 581", framework: "paddle", os: "windows", driver: "581.57", cudaMax: "13.0", caps: []string{"6.1"}, python: "3.11",
		want: "3.3.1 cu126", never: []string{"cu129", "cu130", "cu132"}},
	{name: "Paddle, RTX 5070 Ti on Windows driver 576", framework: "paddle", os: "windows", driver: "576.80", cudaMax: "12.9", caps: []string{"12.0"}, python: "3.12",
		want: "3.2.2 cu129", never: []string{"cu118", "cu126", "3.1.1 cu129"}},
	{name: "Paddle, RTX 4060 Ti on Windows driver 566", framework: "paddle", os: "windows", driver: "566.36", cudaMax: "12.7", caps: []string{"8.9"}, python: "3.12",
		want: "3.3.1 cu126", never: []string{"cu130", "cu132"}},
	{name: "Paddle, GTX 1060 on Windows driver 472", framework: "paddle", os: "windows", driver: "472.12", cudaMax: "11.4", caps: []string{"6.1"}, python: "3.11",
		want: "3.3.1 cu118", minorCompat: true, never: []string{"cu126", "cu129"}},
	{name: "Paddle, Tesla P100 on Windows", framework: "paddle", os: "windows", driver: "566.36", cudaMax: "12.7", caps: []string{"6.0"}, python: "3.10",
		want: "3.4.0 cpu", never: []string{"cu118", "cu126", "cu129"}},
	{name: "Paddle, RTX 3060 on Windows driver 581", framework: "paddle", os: "windows", driver: "581.57", cudaMax: "13.0", caps: []string{"8.6"}, python: "3.12",
		want: "3.3.1 cu126", never: []string{"cu130", "cu132"},
		notes: []string{"paddle 3.4.0 (cu129) also fits, but that build is unverified"}},
}

func (p profile) facts() Facts {
	bits := p.bits
	if bits == 0 {
		bits = 64
	}
	return Facts{Framework: p.framework, FrameworkVersion: p.version, OS: p.os, DriverVersion: p.driver, CUDAMax: p.cudaMax,
		ComputeCaps: p.caps, PythonVersion: p.python, PythonBits: bits}
}

func TestMachineProfiles(t *testing.T) {
	m := loadEmbedded(t)
	for _, p := range machineProfiles {
		t.Run(p.name, func(t *testing.T) {
			s := m.Select(p.facts())
			checkProfile(t, p, s)
		})
	}
}

// checkProfile holds one selection to its profile; the CLI test uses it on `gpuwiz channels --json`.
func checkProfile(t *testing.T, p profile, s Selection) {
	t.Helper()
	got := ""
	if r := s.Recommended; r != nil {
		got = r.FrameworkVersion + " " + r.Channel
		if !r.Verified || !r.Compatible {
			t.Errorf("recommended %s is verified=%v compatible=%v: a recommendation is a verified build that fits", got, r.Verified, r.Compatible)
		}
		if r.MinorCompat != p.minorCompat {
			t.Errorf("recommended %s: minor_compat=%v, want %v", got, r.MinorCompat, p.minorCompat)
		}
	}
	if got != p.want {
		t.Errorf("recommended %q, want %q; notes %q", got, p.want, s.Notes)
	}
	for _, n := range p.never {
		for _, c := range s.Candidates {
			if c.Compatible && (n == c.Channel || n == c.FrameworkVersion+" "+c.Channel) {
				t.Errorf("%s %s %s is marked compatible", p.framework, c.FrameworkVersion, c.Channel)
			}
		}
	}
	all := strings.Join(s.Notes, "\n")
	for _, n := range p.notes {
		if !strings.Contains(all, n) {
			t.Errorf("no note contains %q: %q", n, s.Notes)
		}
	}
	for _, n := range p.notNotes {
		if strings.Contains(all, n) {
			t.Errorf("a note names %q: %q", n, s.Notes)
		}
	}
}

// Every compatible but unverified build better than the recommendation is a choice the notes name, with
// the flags that ask for it; a driver update hint never names an unverified build.
func TestDriverHintsNameVerifiedBuildsOnly(t *testing.T) {
	m := loadEmbedded(t)
	for _, p := range machineProfiles {
		s := m.Select(p.facts())
		for _, n := range s.Notes {
			if !strings.Contains(n, "would unlock") {
				continue
			}
			var ver, ch string
			if _, err := fmt.Sscanf(n[strings.Index(n, "would unlock "):], "would unlock "+p.framework+" %s on %s", &ver, &ch); err != nil {
				t.Fatalf("%s: note %q: %v", p.name, n, err)
			}
			c, ok := m.Lookup(p.framework, ver, ch)
			if !ok {
				t.Errorf("%s: %q names a build the matrix does not have", p.name, n)
				continue
			}
			verified := c.Verified
			for _, cand := range s.Candidates {
				if cand.FrameworkVersion == ver && cand.Channel == ch {
					verified = cand.Verified
				}
			}
			if !verified {
				t.Errorf("%s: %q names an unverified build", p.name, n)
			}
		}
	}
}
