// Package gpu probes the NVIDIA driver and cards (NVML first, nvidia-smi as a fallback) and samples
// their vital signs. The JSON form of Report is also the --simulate file format (docs/gpu-report.md).
package gpu

import (
	"context"
	"time"

	"gpuwiz/steps/i18n"
)

// Report is everything the probe learned about the driver and the cards.
type Report struct {
	Available     bool   `json:"available"`      // an NVIDIA driver answered
	Backend       string `json:"backend"`        // "nvml", "nvml.dll", "nvidia-smi", "simulated", "none"
	DriverVersion string `json:"driver_version"` // "580.159.04"
	CUDAMax       string `json:"cuda_max"`       // highest CUDA the driver supports, "13.0"
	NVMLVersion   string `json:"nvml_version,omitempty"`
	Message       string `json:"message"` // plain words for the user: what was found, what to do
	Simulated     bool   `json:"simulated,omitempty"`
	OS            string `json:"os,omitempty"` // "windows" or "linux": the machine the report was made on
	GPUs          []GPU  `json:"gpus"`
	// Adapters are NVIDIA cards the operating system lists on the PCI bus when no driver answers
	// (Available false), named from their PCI device ids.
	Adapters []Adapter `json:"adapters,omitempty"`
	// LookedFor are the ways the probe tried when no driver answered (Available false), each with
	// why it gave nothing, in the order tried.
	LookedFor []Attempt `json:"looked_for,omitempty"`
	Warnings  []string  `json:"warnings,omitempty"`
	Timings   *Timings  `json:"timings,omitempty"` // only with `gpuwiz gpu --timings`
}

// Attempt is one way of reading the driver that gave nothing: NVML from its library, nvidia-smi.
type Attempt struct {
	Backend string `json:"backend"`          // "NVML (libnvidia-ml.so.1)", "nvidia-smi (on PATH)"
	Why     string `json:"why"`              // the error it gave in words, or the language's "no answer"
	Detail  string `json:"detail,omitempty"` // the error's own text when Why says it in words (nvmlInit: ERROR_LIBRARY_NOT_FOUND)
}

// Label is the attempt in words: "nvidia-smi (on PATH): not found".
func (a Attempt) Label() string {
	return i18n.T("gpu.chain.looked", i18n.D{"Backend": a.Backend, "Why": a.Why})
}

// Timings say where the probe's time went, in milliseconds.
type Timings struct {
	InitMS       float64 `json:"init_ms"`                  // loading NVML and nvmlInit (or the first nvidia-smi call)
	ProbeMS      float64 `json:"probe_ms"`                 // the whole backend probe, init included
	SinceStartMS float64 `json:"since_start_ms,omitempty"` // process start (Go runtime init) to report ready
}

// GPU is one card. Numeric fields that the driver does not report are nil.
type GPU struct {
	Index             int       `json:"index"`
	Name              string    `json:"name"`
	UUID              string    `json:"uuid"`
	PCIBusID          string    `json:"pci_bus_id,omitempty"`
	MemoryTotalMiB    uint64    `json:"memory_total_mib"`
	MemoryUsedMiB     uint64    `json:"memory_used_mib"`
	ComputeCapability string    `json:"compute_capability"` // "9.0"; "" when unknown
	UtilizationPct    *float64  `json:"utilization_pct,omitempty"`
	TemperatureC      *float64  `json:"temperature_c,omitempty"`
	PowerW            *float64  `json:"power_w,omitempty"`
	SMClockMHz        *float64  `json:"sm_clock_mhz,omitempty"`
	Processes         []Process `json:"processes"`
}

// Process is one process using a GPU. UsedMemoryMiB is nil when the OS does not report it (WDDM).
type Process struct {
	PID           int     `json:"pid"`
	Name          string  `json:"name"`
	UsedMemoryMiB *uint64 `json:"used_memory_mib,omitempty"`
}

// Sample is one reading of one GPU's vital signs by the live sampler.
type Sample struct {
	Time           time.Time `json:"time"`
	Index          int       `json:"index"`
	UtilizationPct float64   `json:"utilization_pct"`
	MemoryUsedMiB  uint64    `json:"memory_used_mib"`
	MemoryTotalMiB uint64    `json:"memory_total_mib"`
	TemperatureC   float64   `json:"temperature_c"`
	PowerW         float64   `json:"power_w"`
	SMClockMHz     float64   `json:"sm_clock_mhz"`
	Processes      []Process `json:"processes,omitempty"`
	// Simulated: made up from a --simulate file, not measured; never shown as a measurement.
	Simulated bool `json:"simulated,omitempty"`
}

// Prober is the small interface every consumer of GPU facts depends on.
type Prober interface {
	// Probe returns the full report. "No driver" is a normal report (Available false), not an error.
	Probe(ctx context.Context) (Report, error)
	// Sample reads the vital signs of every GPU once.
	Sample(ctx context.Context) ([]Sample, error)
}

// WithoutReadings marks a probe that leaves out the cards' live readings (utilisation, temperature,
// power, SM clock): the facts a script or the driver check needs, without the first readings, which
// cost milliseconds each in the driver. The live readings stay available through Sample.
func WithoutReadings(ctx context.Context) context.Context {
	return context.WithValue(ctx, noReadingsKey{}, true)
}

type noReadingsKey struct{}

// readingsWanted says whether a probe made with ctx takes the live readings.
func readingsWanted(ctx context.Context) bool {
	no, _ := ctx.Value(noReadingsKey{}).(bool)
	return !no
}

// dropReadings clears the live readings of every card of r.
func dropReadings(r *Report) {
	for i := range r.GPUs {
		g := &r.GPUs[i]
		g.UtilizationPct, g.TemperatureC, g.PowerW, g.SMClockMHz = nil, nil, nil, nil
	}
}
