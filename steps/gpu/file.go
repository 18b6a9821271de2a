package gpu

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"time"

	"gpuwiz/matrix"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/jsonfile"
)

// FromFile is the --simulate prober: it answers with the report in path (the output of
// `gpuwiz gpu --json`), marked Simulated. Its Sample makes up plausible readings from that report
// (a slow load wave; see docs/gpu-report.md) so the benchmark screen moves on a simulated machine.
func FromFile(path string) (Prober, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, errors.New(i18n.T("gpu.simulate.missing", i18n.D{"Path": path}))
		}
		return nil, fmt.Errorf("%s: %w", i18n.T("gpu.simulate.file", i18n.D{"Path": path}), err)
	}
	r, unknown, err := DecodeReport(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", i18n.T("gpu.simulate.not_report", i18n.D{"Path": path}), err)
	}
	r.Simulated = true
	if r.Backend == "" {
		r.Backend = "simulated"
	}
	return &fileProber{report: r, start: time.Now(), unknown: unknown}, nil
}

// UnknownFields names the fields of a --simulate file that this gpuwiz does not know and ignored
// ("gpus[0].fan_speed"); nil for any other prober.
func UnknownFields(p Prober) []string {
	if f, ok := p.(*fileProber); ok {
		return f.unknown
	}
	return nil
}

// ParseReport decodes a report strictly: unknown fields and missing required ones are errors. It
// checks gpuwiz's own output; files are read with DecodeReport.
func ParseReport(data []byte) (Report, error) {
	r, unknown, err := DecodeReport(data)
	if err == nil && len(unknown) > 0 {
		err = errors.New(i18n.T("gpu.report.unknown_field", i18n.D{"Field": strconv.Quote(unknown[0])}))
	}
	return r, err
}

// DecodeReport decodes a report that another gpuwiz version may have written: fields it does not
// know are returned, not errors; a missing required field, a wrong type or a bad value is an error.
func DecodeReport(data []byte) (Report, []string, error) {
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(data, &probe); err != nil {
		return Report{}, nil, err
	}
	for _, k := range []string{"available", "gpus"} {
		if _, ok := probe[k]; !ok {
			return Report{}, nil, errors.New(i18n.T("gpu.report.field_missing", i18n.D{"Field": strconv.Quote(k)}))
		}
	}
	var r Report
	unknown, err := jsonfile.Decode(data, &r)
	if err != nil {
		return Report{}, nil, err
	}
	r, err = checkReport(r)
	if err != nil {
		return Report{}, nil, err
	}
	return r, unknown, nil
}

func checkReport(r Report) (Report, error) {
	if r.Available && len(r.GPUs) == 0 {
		return Report{}, errors.New(i18n.T("gpu.report.available_no_gpus"))
	}
	if r.OS != "" && r.OS != "windows" && r.OS != "linux" {
		return Report{}, errors.New(i18n.T("gpu.report.bad_os", i18n.D{"OS": strconv.Quote(r.OS)}))
	}
	if r.Available {
		if err := matrix.ValidateDriverVersion(r.DriverVersion); err != nil {
			return Report{}, fmt.Errorf(`"driver_version": %w`, err)
		}
		if r.CUDAMax != "" {
			if err := matrix.ValidateCUDAVersion(r.CUDAMax); err != nil {
				return Report{}, fmt.Errorf(`"cuda_max": %w`, err)
			}
		}
	}
	for i, g := range r.GPUs {
		if g.Name == "" {
			return Report{}, errors.New(i18n.T("gpu.report.no_name", i18n.D{"Index": i}))
		}
		if c := g.ComputeCapability; c != "" {
			if err := matrix.ValidateComputeCap(c); err != nil {
				return Report{}, fmt.Errorf(`gpus[%d] "compute_capability": %w`, i, err)
			}
		}
		if g.Processes == nil {
			r.GPUs[i].Processes = []Process{}
		}
	}
	if r.GPUs == nil {
		r.GPUs = []GPU{}
	}
	return r, nil
}

type fileProber struct {
	report  Report
	start   time.Time
	unknown []string
}

// Probe answers with the file's report; the sentences gpuwiz wrote into it (the message, the card
// warnings) come back in the current language.
func (f *fileProber) Probe(ctx context.Context) (Report, error) {
	r := f.report
	r.GPUs = append([]GPU{}, f.report.GPUs...)
	if f.report.Warnings != nil {
		r.Warnings = append([]string{}, f.report.Warnings...)
	}
	if !readingsWanted(ctx) {
		dropReadings(&r)
	}
	return localizeReport(r), nil
}

// Sample: utilisation follows a 20-second wave between 35 and 95 %; memory, power, temperature and
// clock follow it from the report's own figures (power scaled to a TDP guessed from the memory size).
func (f *fileProber) Sample(ctx context.Context) ([]Sample, error) {
	if !f.report.Available {
		return nil, ErrNoGPU
	}
	now := time.Now()
	t := now.Sub(f.start).Seconds()
	out := make([]Sample, 0, len(f.report.GPUs))
	for _, g := range f.report.GPUs {
		load := 0.65 + 0.30*math.Sin(2*math.Pi*t/20+float64(g.Index))
		tdp := 120 + 3*float64(g.MemoryTotalMiB)/1024 // 8 GiB card ~150 W, 140 GiB ~540 W
		clock := 1800.0
		if g.SMClockMHz != nil && *g.SMClockMHz > 0 {
			clock = math.Max(*g.SMClockMHz, 1200)
		}
		free := float64(g.MemoryTotalMiB - min(g.MemoryUsedMiB, g.MemoryTotalMiB))
		out = append(out, Sample{
			Time: now, Index: g.Index, Simulated: true,
			UtilizationPct: math.Round(load * 100),
			MemoryUsedMiB:  g.MemoryUsedMiB + uint64(free*0.4*load),
			MemoryTotalMiB: g.MemoryTotalMiB,
			TemperatureC:   math.Round(40 + 35*load),
			PowerW:         math.Round(tdp * (0.2 + 0.75*load)),
			SMClockMHz:     math.Round(clock * (0.85 + 0.15*load)),
			Processes:      g.Processes,
		})
	}
	return out, nil
}
