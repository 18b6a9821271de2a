package app

import (
	"slices"
	"testing"

	"gpuwiz/matrix"
)

// What the GPU screen says a driver runs is what the channel list judges: a GPU build whose card and
// Python fit runs on the driver exactly when its CUDA version is in the reach's Runs, and a CUDA
// version the driver lacks is named in a step whose driver runs it.
func TestDriverReachIsTheChannelListsVerdict(t *testing.T) {
	mx, err := matrix.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ goos, driver, cuda, cc string }{
		{"windows", "451.48", "11.0", "8.6"}, // below 11.x's minor-compat floor on Windows (452.39)
		{"windows", "456.71", "11.1", "6.1"},
		{"windows", "456.71", "11.1", "8.6"},
		{"linux", "450.80.02", "11.0", "7.5"},
		{"windows", "528.33", "12.0", "8.9"},
		{"windows", "560.94", "12.6", "8.6"},
		{"linux", "560.35.05", "12.6", "6.1"},
		{"linux", "580.95.05", "13.0", "9.0"},
	} {
		reach := DriverReachOf(mx, c.goos, c.driver, []string{c.cc})
		lacks := map[string]string{}
		for _, s := range reach.Steps {
			for _, v := range s.CUDA {
				lacks[v] = s.Driver
			}
		}
		for _, fw := range []string{"torch", "paddle"} {
			here := mx.Select(matrix.Facts{Framework: fw, OS: c.goos, DriverVersion: c.driver, CUDAMax: c.cuda, ComputeCaps: []string{c.cc}})
			anyDriver := mx.Select(matrix.Facts{Framework: fw, OS: c.goos, DriverVersion: "999.99", CUDAMax: "99.0", ComputeCaps: []string{c.cc}})
			fits := map[string]bool{} // the builds that run given a new enough driver
			for _, b := range anyDriver.Candidates {
				fits[b.FrameworkVersion+"/"+b.Channel] = b.Compatible
			}
			for _, b := range here.Candidates {
				if b.Channel == "cpu" || !fits[b.FrameworkVersion+"/"+b.Channel] {
					continue
				}
				runs := slices.Contains(reach.Runs, b.CUDA)
				if b.Compatible != runs {
					t.Errorf("%s driver %s, card %s: %s %s %s (CUDA %s) compatible=%v on the channel list, but the reach says runs=%v (runs %v)",
						c.goos, c.driver, c.cc, fw, b.FrameworkVersion, b.Channel, b.CUDA, b.Compatible, runs, reach.Runs)
				}
				if !b.Compatible {
					need, ok := lacks[b.CUDA]
					if !ok {
						t.Errorf("%s driver %s: CUDA %s is neither run nor named in a step: %+v", c.goos, c.driver, b.CUDA, reach)
						continue
					}
					after := mx.Select(matrix.Facts{Framework: fw, OS: c.goos, DriverVersion: need, CUDAMax: b.CUDA, ComputeCaps: []string{c.cc}})
					for _, a := range after.Candidates {
						if a.FrameworkVersion == b.FrameworkVersion && a.Channel == b.Channel && !a.Compatible {
							t.Errorf("%s: driver %s is said to run CUDA %s, but the channel list refuses %s %s on it: %v", c.goos, need, b.CUDA, fw, b.Channel, a.Reasons)
						}
					}
				}
			}
		}
	}
	if r := DriverReachOf(mx, "windows", "456.71", []string{"8.6"}); len(r.Runs) != 1 || r.Runs[0] != "11.8" || len(r.Steps) != 2 || r.Steps[0].Driver != "528.33" || r.Steps[1].Driver != "580" {
		t.Errorf("driver 456.71 on Windows: %+v; want CUDA 11.8 run, then 528.33 adding the 12.x versions and 580 the 13.x", r)
	}
	if r := DriverReachOf(mx, "windows", "451.48", []string{"8.6"}); len(r.Runs) != 0 || r.Steps[0].Driver != "452.39" || r.Steps[0].CUDA[0] != "11.8" {
		t.Errorf("driver 451.48 on Windows runs nothing, and 452.39 is the least that runs CUDA 11.8: %+v", r)
	}
	if r := DriverReachOf(mx, "linux", "560.35.05", []string{"6.1"}); len(r.Steps) != 0 {
		t.Errorf("a compute 6.1 card on driver 560: the CUDA 13 versions build no kernel for it, so no newer driver adds anything: %+v", r)
	}
	if r := DriverReachOf(mx, "darwin", "560.35.05", nil); len(r.Runs)+len(r.Steps) != 0 {
		t.Errorf("no NVIDIA driver facts for macOS: %+v", r)
	}
}
