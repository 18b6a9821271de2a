package main

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// TestChannelsJSONOfRealMachines runs the built binary's `gpuwiz channels --json` on machines of the
// second matrix audit: the recommended build, that it is verified, the builds that must never be marked
// compatible, and the words of the notes. The full table is matrix.TestMachineProfiles.
func TestChannelsJSONOfRealMachines(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the binary")
	}
	exe := goBuild(t, "gpuwiz", []string{"CGO_ENABLED=0"})
	for _, tc := range []struct {
		name  string
		args  []string
		want  string // "2.14.1 cu126"
		never []string
		note  string
	}{
		{"H100 on driver 535: 2.14 has no cu129", []string{"--os", "linux", "--driver", "535.104.05", "--cuda-max", "12.2", "--compute-cap", "9.0", "--python", "3.11"},
			"2.14.1 cu126", []string{"2.14.1 cu129", "cu130"}, "torch 2.14.1 on cu126 runs through CUDA minor-version compatibility"},
		{"RTX 5090 on driver 570: no unverified default", []string{"--os", "linux", "--driver", "570.133.07", "--cuda-max", "12.8", "--compute-cap", "12.0", "--python", "3.12"},
			"2.11.0 cu128", []string{"cu126"}, "torch 2.13.0 (cu129) also fits, but that build is unverified"},
		{"old Windows driver: the hint names a verified build", []string{"--os", "windows", "--driver", "472.12", "--cuda-max", "11.4", "--compute-cap", "8.6", "--python", "3.10"},
			"2.7.1 cu118", []string{"cu126"}, "updating the NVIDIA driver to 528.33 or newer (Windows) would unlock torch 2.14.1 on cu126"},
		{"Paddle, GTX 1080 on Windows: no cu129 for Pascal", []string{"--framework", "paddle", "--os", "windows", "--driver", "581.57", "--cuda-max", "13.0", "--compute-cap", "6.1", "--python", "3.11"},
			"3.3.1 cu126", []string{"cu129"}, ""},
		{"Paddle, GTX 970 on Linux: the CPU build, with the reason", []string{"--framework", "paddle", "--os", "linux", "--driver", "550.54.15", "--cuda-max", "12.4", "--compute-cap", "5.2", "--python", "3.11"},
			"3.4.0 cpu", []string{"cu118", "cu126", "cu129"}, "paddle on Linux needs compute capability 6.0 or newer; this GPU has 5.2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(exe, append([]string{"channels", "--json", "--lang", "en"}, tc.args...)...)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("gpuwiz channels: %v\n%s", err, out)
			}
			var sel struct {
				Recommended *struct {
					FrameworkVersion string `json:"framework_version"`
					Channel          string `json:"channel"`
					Verified         bool   `json:"verified"`
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
			r := sel.Recommended
			if r == nil || r.FrameworkVersion+" "+r.Channel != tc.want || !r.Verified {
				t.Fatalf("recommended %+v, want %s, verified; notes %q", r, tc.want, sel.Notes)
			}
			for _, c := range sel.Candidates {
				for _, n := range tc.never {
					if c.Compatible && (n == c.Channel || n == c.FrameworkVersion+" "+c.Channel) {
						t.Errorf("%s %s is marked compatible", c.FrameworkVersion, c.Channel)
					}
				}
			}
			if tc.note != "" && !strings.Contains(strings.Join(sel.Notes, "\n"), tc.note) {
				t.Errorf("no note contains %q: %q", tc.note, sel.Notes)
			}
		})
	}
}
