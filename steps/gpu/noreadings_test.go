package gpu

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
)

// countingCard is a card that counts the live-reading calls made on it (the probe makes them side
// by side, so the count is atomic).
type countingCard struct {
	*barrierCard
	readings atomic.Int32
}

func (c *countingCard) Utilization() (uint32, error)     { c.readings.Add(1); return 7, nil }
func (c *countingCard) Temperature() (uint32, error)     { c.readings.Add(1); return 40, nil }
func (c *countingCard) PowerMilliwatts() (uint32, error) { c.readings.Add(1); return 70000, nil }
func (c *countingCard) SMClockMHz() (uint32, error)      { c.readings.Add(1); return 1980, nil }
func (c *countingCard) ComputeProcesses() ([]rawProcess, error) {
	used := uint64(2 << 30)
	return []rawProcess{{PID: 4242, UsedBytes: &used}}, nil
}

// TestWithoutReadingsMakesNoReadingCall: a probe asked for the facts only (gpu --json) never calls
// the driver's live readings, yet reports every fact and the processes; a probe without the mark
// still makes all four. Each backend leaves the readings out, and says nothing about them.
func TestWithoutReadingsMakesNoReadingCall(t *testing.T) {
	card := &countingCard{barrierCard: newBarrierCard("A")}
	p := newNVMLProber("nvml", func() (nvmlLib, error) { return &barrierLib{cards: []nvmlDevice{card}}, nil })
	r, err := p.Probe(WithoutReadings(context.Background()))
	if err != nil {
		t.Fatal(err)
	}
	g := r.GPUs[0]
	if n := card.readings.Load(); n != 0 {
		t.Errorf("the facts-only probe made %d live-reading calls", n)
	}
	if g.UtilizationPct != nil || g.TemperatureC != nil || g.PowerW != nil || g.SMClockMHz != nil {
		t.Errorf("readings in a facts-only report: %+v", g)
	}
	if g.Name != "A" || g.ComputeCapability != "9.0" || g.MemoryTotalMiB != 80<<10 || len(g.Processes) != 1 || g.Processes[0].PID != 4242 || r.DriverVersion == "" || r.CUDAMax != "13.0" {
		t.Errorf("facts missing: %+v %+v", r, g)
	}
	if len(r.Warnings) != 0 {
		t.Errorf("warnings: %q", r.Warnings)
	}
	if _, err := p.Probe(context.Background()); err != nil || card.readings.Load() != 4 {
		t.Errorf("a full probe made %d reading calls (want 4), err %v", card.readings.Load(), err)
	}

	// nvidia-smi: the [N/A] readings of the recorded three-card machine are neither reported nor warned about.
	run, _ := recordedSMI(t, "multi-na", "banner-610.txt")
	r, err = smiFor(run).Probe(WithoutReadings(context.Background()))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range r.GPUs {
		if g.UtilizationPct != nil || g.TemperatureC != nil || g.PowerW != nil || g.SMClockMHz != nil {
			t.Errorf("nvidia-smi: readings in a facts-only report: %+v", g)
		}
	}
	w := strings.Join(r.Warnings, "\n")
	if strings.Contains(w, "power draw not reported") || strings.Contains(w, "utilisation not reported") || !strings.Contains(w, "Tesla K80, compute capability 3.7") {
		t.Errorf("nvidia-smi warnings: %s", w)
	}

	// A --simulate file's readings are left out too.
	fp, err := FromFile("../../testdata/fakenvml/expected.json")
	if err != nil {
		t.Fatal(err)
	}
	full, _ := fp.Probe(context.Background())
	facts, _ := fp.Probe(WithoutReadings(context.Background()))
	if full.GPUs[0].PowerW == nil || facts.GPUs[0].PowerW != nil || facts.GPUs[0].Name != full.GPUs[0].Name {
		t.Errorf("simulated: full %+v, facts %+v", full.GPUs[0], facts.GPUs[0])
	}
}
