package gpu

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"gpuwiz/steps/i18n"
)

// barrierCard is a card whose first readings (utilisation, temperature, power, clock and the two
// process lists) each wait until all of them are in flight: a probe that made them one after
// another would see every one give up waiting.
type barrierCard struct {
	name string
	fail map[string]bool // calls that return an error

	mu      sync.Mutex
	waiting int
	all     chan struct{}
	alone   []string // calls that gave up waiting for the others
}

const barrierCalls = 5 // the graphics list is asked after the compute list, so it does not meet

func newBarrierCard(name string, fail ...string) *barrierCard {
	c := &barrierCard{name: name, fail: map[string]bool{}, all: make(chan struct{})}
	for _, f := range fail {
		c.fail[f] = true
	}
	return c
}

func (c *barrierCard) meet(call string) error {
	c.mu.Lock()
	c.waiting++
	if c.waiting == barrierCalls {
		close(c.all)
	}
	c.mu.Unlock()
	select {
	case <-c.all:
	case <-time.After(10 * time.Second): // a generous bound, not a timing: only a serial probe reaches it
		c.mu.Lock()
		c.alone = append(c.alone, call)
		c.mu.Unlock()
	}
	if c.fail[call] {
		return errors.New(call + " failed")
	}
	return nil
}

func (c *barrierCard) Name() (string, error)           { return c.name, nil }
func (c *barrierCard) UUID() (string, error)           { return "GPU-" + c.name, nil }
func (c *barrierCard) PCIBusID() (string, error)       { return "00000000:01:00.0", nil }
func (c *barrierCard) Memory() (uint64, uint64, error) { return 80 << 30, 1 << 30, nil }
func (c *barrierCard) ComputeCapability() (int, int, error) {
	if c.fail["cc"] {
		return 0, 0, errors.New("cc failed")
	}
	return 9, 0, nil
}
func (c *barrierCard) Utilization() (uint32, error)     { return 7, c.meet("util") }
func (c *barrierCard) Temperature() (uint32, error)     { return 40, c.meet("temp") }
func (c *barrierCard) PowerMilliwatts() (uint32, error) { return 70000, c.meet("power") }
func (c *barrierCard) SMClockMHz() (uint32, error)      { return 1980, c.meet("clock") }
func (c *barrierCard) ComputeProcesses() ([]rawProcess, error) {
	used := uint64(2 << 30)
	return []rawProcess{{PID: 4242, UsedBytes: &used}}, c.meet("compute")
}
func (c *barrierCard) GraphicsProcesses() ([]rawProcess, error) {
	if c.fail["graphics"] {
		return nil, errors.New("graphics failed")
	}
	return nil, nil
}

type barrierLib struct{ cards []nvmlDevice }

func (l *barrierLib) concurrent() bool                { return true }
func (l *barrierLib) Init() error                     { return nil }
func (l *barrierLib) Shutdown()                       {}
func (l *barrierLib) DriverVersion() (string, error)  { return "580.159.04", nil }
func (l *barrierLib) CUDADriverVersion() (int, error) { return 13000, nil }
func (l *barrierLib) NVMLVersion() (string, error)    { return "13.580.159.04", nil }
func (l *barrierLib) DeviceCount() (int, error)       { return len(l.cards), nil }
func (l *barrierLib) Device(i int) (nvmlDevice, error) {
	if l.cards[i] == nil {
		return nil, errors.New("no handle")
	}
	return l.cards[i], nil
}
func (l *barrierLib) ProcessName(pid int) (string, error) { return "python3", nil }

// TestACardsFirstReadingsAreInTheDriverAtOnce: a probe makes each card's readings and process lists
// at the same time (run with -race), and the report — cards, values and warnings in their order —
// is the one a card-by-card probe gives.
func TestACardsFirstReadingsAreInTheDriverAtOnce(t *testing.T) {
	a := newBarrierCard("A", "power", "graphics", "cc")
	b := newBarrierCard("B", "util", "clock", "compute")
	lib := &barrierLib{cards: []nvmlDevice{a, nil, b}}
	p := newNVMLProber("nvml", func() (nvmlLib, error) { return lib, nil })
	r, err := p.Probe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []*barrierCard{a, b} {
		if len(c.alone) > 0 {
			t.Errorf("card %s: %v waited for the others in vain: the readings were made one after another", c.name, c.alone)
		}
	}
	if len(r.GPUs) != 2 || r.GPUs[0].Name != "A" || r.GPUs[1].Name != "B" || r.GPUs[1].Index != 2 {
		t.Fatalf("cards: %+v", r.GPUs)
	}
	ga, gb := r.GPUs[0], r.GPUs[1]
	if ga.UtilizationPct == nil || *ga.UtilizationPct != 7 || ga.PowerW != nil || ga.SMClockMHz == nil || *ga.SMClockMHz != 1980 ||
		ga.ComputeCapability != "" || len(ga.Processes) != 1 || ga.Processes[0].PID != 4242 {
		t.Errorf("card A: %+v", ga)
	}
	if gb.UtilizationPct != nil || gb.TemperatureC == nil || *gb.TemperatureC != 40 || gb.PowerW == nil || *gb.PowerW != 70 ||
		gb.SMClockMHz != nil || len(gb.Processes) != 0 || gb.ComputeCapability != "9.0" {
		t.Errorf("card B: %+v", gb)
	}
	// The same report made card by card, call by call, as before the probe ran them at once.
	var warn warnings
	warn.add(i18n.T("gpu.missing.compute_cap", i18n.D{"Index": 0, "Err": errors.New("cc failed")}))
	warn.add(i18n.T("gpu.missing.power", i18n.D{"Index": 0, "Err": errors.New("power failed")}))
	warn.add(i18n.T("gpu.missing.graphics_processes", i18n.D{"Index": 0, "Err": errors.New("graphics failed")}))
	warn.add(i18n.T("gpu.nvml.no_handle", i18n.D{"Index": 1}))
	warn.add(i18n.T("gpu.missing.utilisation", i18n.D{"Index": 2, "Err": errors.New("util failed")}))
	warn.add(i18n.T("gpu.missing.sm_clock", i18n.D{"Index": 2, "Err": errors.New("clock failed")}))
	warn.add(i18n.T("gpu.missing.compute_processes", i18n.D{"Index": 2, "Err": errors.New("compute failed")}))
	want := append(warn.list, cardWarnings(r)...)
	if !reflect.DeepEqual(r.Warnings, want) {
		t.Errorf("warnings\n got %q\nwant %q", r.Warnings, want)
	}
}
