package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// channelsProfile is one row of matrix/testdata/profiles.json (matrix.TestMachineProfiles reads the
// same file against the matrix package).
type channelsProfile struct {
	Name        string   `json:"name"`
	Why         string   `json:"why"`
	Framework   string   `json:"framework"`
	Version     string   `json:"framework_version"`
	OS          string   `json:"os"`
	Driver      string   `json:"driver"`
	CUDAMax     string   `json:"cuda_max"`
	Caps        []string `json:"compute_caps"`
	Python      string   `json:"python"`
	Bits        int      `json:"python_bits"`
	Want        string   `json:"want"`
	MinorCompat bool     `json:"minor_compat"`
	Never       []string `json:"never"`
	Notes       []string `json:"notes"`
	NotNotes    []string `json:"not_notes"`
}

// TestChannelsJSONOfRealMachines runs the built binary's `gpuwiz channels --json` on every machine of
// matrix/testdata/profiles.json whose GPU facts are all given (a profile that leaves one out would be
// filled from the machine running the test): the recommended build and that it is verified, the
// minor-compatibility flag, the builds that must never be marked compatible, and the words of the notes.
func TestChannelsJSONOfRealMachines(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the binary")
	}
	data, err := os.ReadFile("matrix/testdata/profiles.json")
	if err != nil {
		t.Fatal(err)
	}
	var ps []channelsProfile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ps); err != nil {
		t.Fatal(err)
	}
	exe := goBuild(t, "gpuwiz", []string{"CGO_ENABLED=0"})
	ran := 0
	for _, p := range ps {
		if p.Driver == "" || p.CUDAMax == "" || len(p.Caps) == 0 {
			continue
		}
		ran++
		t.Run(p.Name, func(t *testing.T) {
			args := []string{"channels", "--json", "--lang", "en", "--framework", p.Framework, "--os", p.OS,
				"--driver", p.Driver, "--cuda-max", p.CUDAMax, "--python", p.Python}
			for _, c := range p.Caps {
				args = append(args, "--compute-cap", c)
			}
			if p.Version != "" {
				args = append(args, "--framework-version", p.Version)
			}
			if p.Bits != 0 {
				args = append(args, "--python-bits", strconv.Itoa(p.Bits))
			}
			out, err := exec.Command(exe, args...).Output()
			var exit *exec.ExitError
			// Exit 3 means nothing fits: the answer a profile wanting nothing expects.
			if err != nil && !(p.Want == "" && errors.As(err, &exit) && exit.ExitCode() == 3) {
				t.Fatalf("gpuwiz %s: %v\n%s", strings.Join(args, " "), err, out)
			}
			var sel struct {
				Recommended *struct {
					FrameworkVersion string `json:"framework_version"`
					Channel          string `json:"channel"`
					Verified         bool   `json:"verified"`
					MinorCompat      bool   `json:"minor_compat"`
				} `json:"recommended"`
				Candidates []struct {
					FrameworkVersion string `json:"framework_version"`
					Channel          string `json:"channel"`
					Compatible       bool   `json:"compatible"`
				} `json:"candidates"`
				Notes []string `json:"notes"`
			}
			if err := json.Unmarshal(out, &sel); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			got := ""
			if r := sel.Recommended; r != nil {
				got = r.FrameworkVersion + " " + r.Channel
				if !r.Verified || r.MinorCompat != p.MinorCompat {
					t.Errorf("recommended %s: verified=%v minor_compat=%v, want verified and minor_compat=%v", got, r.Verified, r.MinorCompat, p.MinorCompat)
				}
			}
			if got != p.Want {
				t.Errorf("recommended %q, want %q; notes %q", got, p.Want, sel.Notes)
			}
			for _, c := range sel.Candidates {
				for _, n := range p.Never {
					if c.Compatible && (n == c.Channel || n == c.FrameworkVersion+" "+c.Channel) {
						t.Errorf("%s %s is marked compatible", c.FrameworkVersion, c.Channel)
					}
				}
			}
			notes := strings.Join(sel.Notes, "\n")
			for _, n := range p.Notes {
				if !strings.Contains(notes, n) {
					t.Errorf("no note contains %q: %q", n, sel.Notes)
				}
			}
			for _, n := range p.NotNotes {
				if strings.Contains(notes, n) {
					t.Errorf("a note names %q: %q", n, sel.Notes)
				}
			}
		})
	}
	if ran < 25 {
		t.Errorf("only %d profiles give every GPU fact", ran)
	}
}
