package bench

import (
	"testing"

	"gpuwiz/steps/gpu"
)

func TestWatchPeaksAndPID(t *testing.T) {
	w := NewWatch()
	w.Add([]gpu.Sample{{Index: 0, UtilizationPct: 3, PowerW: 80}, {Index: 1, UtilizationPct: 1}})
	w.Add([]gpu.Sample{{Index: 0, UtilizationPct: 99, PowerW: 610, MemoryUsedMiB: 4200,
		Processes: []gpu.Process{{PID: 4242, Name: "python3"}}}})
	w.Add([]gpu.Sample{{Index: 0, UtilizationPct: 40, PowerW: 300}})
	r := w.Readings(4242)
	if len(r) != 2 || r[0].Index != 0 || r[0].Samples != 3 || r[0].PeakUtilPct != 99 || r[0].PeakPowerW != 610 || r[0].PeakMemoryMiB != 4200 {
		t.Fatalf("%+v", r)
	}
	if !r[0].BenchPIDSeen || r[1].BenchPIDSeen {
		t.Fatalf("pid seen: %v %v", r[0].BenchPIDSeen, r[1].BenchPIDSeen)
	}
	if w.Readings(0)[0].BenchPIDSeen {
		t.Fatal("an unknown pid is never seen")
	}
}
