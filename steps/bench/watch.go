package bench

import (
	"sort"

	"gpuwiz/steps/gpu"
)

// GPUReading is what the sampler saw on one GPU while the benchmark ran.
type GPUReading struct {
	Index          int            `json:"index"`
	Samples        int            `json:"samples"`
	PeakUtilPct    float64        `json:"peak_utilization_pct"`
	PeakMemoryMiB  uint64         `json:"peak_memory_used_mib"`
	PeakPowerW     float64        `json:"peak_power_w"`
	PeakTempC      float64        `json:"peak_temperature_c"`
	PeakSMClockMHz float64        `json:"peak_sm_clock_mhz"`
	BenchPIDSeen   bool           `json:"bench_pid_seen"` // the benchmark's Python was in this GPU's process list
	Processes      map[int]string `json:"processes_seen"` // every pid seen using the GPU, with its name
}

// Watch folds sampler readings taken during a run; the benchmark's pid may arrive after the first samples.
type Watch struct {
	gpus map[int]*GPUReading
}

// NewWatch starts an empty watch.
func NewWatch() *Watch { return &Watch{gpus: map[int]*GPUReading{}} }

// Add records one reading of every GPU.
func (w *Watch) Add(samples []gpu.Sample) {
	for _, s := range samples {
		g := w.gpus[s.Index]
		if g == nil {
			g = &GPUReading{Index: s.Index, Processes: map[int]string{}}
			w.gpus[s.Index] = g
		}
		g.Samples++
		g.PeakUtilPct = max(g.PeakUtilPct, s.UtilizationPct)
		g.PeakMemoryMiB = max(g.PeakMemoryMiB, s.MemoryUsedMiB)
		g.PeakPowerW = max(g.PeakPowerW, s.PowerW)
		g.PeakTempC = max(g.PeakTempC, s.TemperatureC)
		g.PeakSMClockMHz = max(g.PeakSMClockMHz, s.SMClockMHz)
		for _, p := range s.Processes {
			g.Processes[p.PID] = p.Name
		}
	}
}

// Readings returns one reading per GPU in index order, marking where pid was seen.
func (w *Watch) Readings(pid int) []GPUReading {
	out := make([]GPUReading, 0, len(w.gpus))
	for _, g := range w.gpus {
		r := *g
		_, r.BenchPIDSeen = g.Processes[pid]
		r.BenchPIDSeen = r.BenchPIDSeen && pid != 0
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Index < out[j].Index })
	return out
}
