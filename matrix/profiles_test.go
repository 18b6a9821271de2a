package matrix

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

// profile is one machine and what gpuwiz must answer for it: the recommended framework version and
// channel ("" when nothing fits), and the builds that must never be marked compatible there ("cu129"
// for every release, "2.14.1 cu129" for one). The table is testdata/profiles.json, which the root
// package's TestChannelsJSONOfRealMachines also runs through the built binary.
type profile struct {
	Name        string   `json:"name"`
	Why         string   `json:"why"` // what the profile checks, with its public source
	Framework   string   `json:"framework"`
	Version     string   `json:"framework_version"` // --framework-version; "" for any
	OS          string   `json:"os"`
	Driver      string   `json:"driver"`
	CUDAMax     string   `json:"cuda_max"`
	Caps        []string `json:"compute_caps"`
	Python      string   `json:"python"`
	Bits        int      `json:"python_bits"`  // 0: 64
	Want        string   `json:"want"`         // "2.14.1 cu126"; "" when nothing fits
	MinorCompat bool     `json:"minor_compat"` // the recommendation runs through CUDA minor-version compatibility
	Never       []string `json:"never"`
	Notes       []string `json:"notes"`     // substrings the selection's notes must contain
	NotNotes    []string `json:"not_notes"` // substrings no note may contain
}

// machineProfiles reads the machines of the second matrix audit (pytorch/test-infra release branches,
// PaddlePaddle issues, NVIDIA's driver tables) and more.
func machineProfiles(t testing.TB) []profile {
	t.Helper()
	data, err := os.ReadFile("testdata/profiles.json")
	if err != nil {
		t.Fatal(err)
	}
	var ps []profile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ps); err != nil {
		t.Fatalf("testdata/profiles.json: %v", err)
	}
	if len(ps) < 30 {
		t.Fatalf("testdata/profiles.json has %d profiles", len(ps))
	}
	return ps
}

func (p profile) facts() Facts {
	bits := p.Bits
	if bits == 0 {
		bits = 64
	}
	return Facts{Framework: p.Framework, FrameworkVersion: p.Version, OS: p.OS, DriverVersion: p.Driver, CUDAMax: p.CUDAMax,
		ComputeCaps: p.Caps, PythonVersion: p.Python, PythonBits: bits}
}

func TestMachineProfiles(t *testing.T) {
	m := loadEmbedded(t)
	for _, p := range machineProfiles(t) {
		t.Run(p.Name, func(t *testing.T) {
			s := m.Select(p.facts())
			checkProfile(t, p, s)
		})
	}
}

// checkProfile holds one selection to its profile.
func checkProfile(t *testing.T, p profile, s Selection) {
	t.Helper()
	got := ""
	if r := s.Recommended; r != nil {
		got = r.FrameworkVersion + " " + r.Channel
		if !r.Verified || !r.Compatible {
			t.Errorf("recommended %s is verified=%v compatible=%v: a recommendation is a verified build that fits", got, r.Verified, r.Compatible)
		}
		if r.MinorCompat != p.MinorCompat {
			t.Errorf("recommended %s: minor_compat=%v, want %v", got, r.MinorCompat, p.MinorCompat)
		}
	}
	if got != p.Want {
		t.Errorf("recommended %q, want %q; notes %q", got, p.Want, s.Notes)
	}
	for _, n := range p.Never {
		for _, c := range s.Candidates {
			if c.Compatible && (n == c.Channel || n == c.FrameworkVersion+" "+c.Channel) {
				t.Errorf("%s %s %s is marked compatible", p.Framework, c.FrameworkVersion, c.Channel)
			}
		}
	}
	all := strings.Join(s.Notes, "\n")
	for _, n := range p.Notes {
		if !strings.Contains(all, n) {
			t.Errorf("no note contains %q: %q", n, s.Notes)
		}
	}
	for _, n := range p.NotNotes {
		if strings.Contains(all, n) {
			t.Errorf("a note names %q: %q", n, s.Notes)
		}
	}
}

// Every compatible but unverified build better than the recommendation is a choice the notes name, with
// the flags that ask for it; a driver update hint never names an unverified build.
func TestDriverHintsNameVerifiedBuildsOnly(t *testing.T) {
	m := loadEmbedded(t)
	for _, p := range machineProfiles(t) {
		s := m.Select(p.facts())
		for _, n := range s.Notes {
			if !strings.Contains(n, "would unlock") {
				continue
			}
			var ver, ch string
			if _, err := fmt.Sscanf(n[strings.Index(n, "would unlock "):], "would unlock "+p.Framework+" %s on %s", &ver, &ch); err != nil {
				t.Fatalf("%s: note %q: %v", p.Name, n, err)
			}
			c, ok := m.Lookup(p.Framework, ver, ch)
			if !ok {
				t.Errorf("%s: %q names a build the matrix does not have", p.Name, n)
				continue
			}
			verified := c.Verified
			for _, cand := range s.Candidates {
				if cand.FrameworkVersion == ver && cand.Channel == ch {
					verified = cand.Verified
				}
			}
			if !verified {
				t.Errorf("%s: %q names an unverified build", p.Name, n)
			}
		}
	}
}

// A card with no driver yet: the build named for after the driver install is verified on this OS, so
// Paddle 3.3.1's cu129 (unconfirmed on Windows) is not it.
func TestCardWithoutDriverGetsAVerifiedBuildNamed(t *testing.T) {
	s := loadEmbedded(t).Select(Facts{Framework: "paddle", OS: "windows", DriverMissing: true, ComputeCaps: []string{"8.6"}, PythonVersion: "3.12", PythonBits: 64})
	w := s.WithDriver
	if w == nil || w.FrameworkVersion+" "+w.Channel != "3.3.1 cu126" || !w.Verified {
		t.Fatalf("with a driver: %+v; notes %q", w, s.Notes)
	}
}
