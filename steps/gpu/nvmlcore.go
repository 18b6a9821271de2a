package gpu

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"gpuwiz/steps/i18n"
)

// nvmlLib is the handful of NVML calls the probe makes. Two implementations: go-nvml (Linux, cgo)
// and nvml.dll through a function table (Windows, no cgo), so one probe logic serves both.
type nvmlLib interface {
	Init() error
	Shutdown()
	DriverVersion() (string, error)
	CUDADriverVersion() (int, error) // 13000 for CUDA 13.0
	NVMLVersion() (string, error)
	DeviceCount() (int, error)
	Device(index int) (nvmlDevice, error)
	ProcessName(pid int) (string, error)
}

// nvmlDevice is one card's handle.
type nvmlDevice interface {
	Name() (string, error)
	UUID() (string, error)
	PCIBusID() (string, error)
	Memory() (totalBytes, usedBytes uint64, err error)
	ComputeCapability() (major, minor int, err error)
	Utilization() (uint32, error)
	Temperature() (uint32, error)
	PowerMilliwatts() (uint32, error)
	SMClockMHz() (uint32, error)
	ComputeProcesses() ([]rawProcess, error)
	GraphicsProcesses() ([]rawProcess, error)
}

// rawProcess is one entry of NVML's process lists; UsedBytes is nil for NVML_VALUE_NOT_AVAILABLE (WDDM).
type rawProcess struct {
	PID       uint32
	UsedBytes *uint64
}

// errNotExported marks an entry point the installed driver lacks: the field is left nil, with a warning.
type errNotExported struct{ fn string }

func (e errNotExported) Error() string { return i18n.T("gpu.nvml.not_exported", i18n.D{"Func": e.fn}) }

// nvmlProber probes once through lib, then keeps the device handles for cheap samples.
type nvmlProber struct {
	backend string
	open    func() (nvmlLib, error)

	mu       sync.Mutex
	lib      nvmlLib
	devices  []nvmlDevice
	initErr  error
	opened   bool
	began    time.Time     // when start began loading the library
	initTook time.Duration // loading and nvmlInit
}

func newNVMLProber(backend string, open func() (nvmlLib, error)) *nvmlProber {
	return &nvmlProber{backend: backend, open: open}
}

// start initialises NVML once; a failed Init is remembered and no further call is ever made.
func (p *nvmlProber) start() error {
	if p.opened {
		return p.initErr
	}
	p.opened = true
	p.began = time.Now()
	defer func() { p.initTook = time.Since(p.began) }()
	lib, err := p.open()
	if err != nil {
		p.initErr = err
		return err
	}
	if e, ok := lib.(early); ok {
		p.began = e.since // loading began at the process's start (nvmlearly)
	}
	if err := lib.Init(); err != nil {
		p.initErr = err
		return p.initErr
	}
	p.lib = lib
	n, err := lib.DeviceCount()
	if err != nil {
		p.initErr = fmt.Errorf("%s: %w", i18n.T("gpu.nvml.device_count"), err)
		return p.initErr
	}
	for i := 0; i < n; i++ {
		d, err := lib.Device(i)
		if err != nil {
			d = nil // listed in the report with a warning
		}
		p.devices = append(p.devices, d)
	}
	return nil
}

// early is a library that nvmlearly began loading and initialising at the process's start: the
// probe's timings count from then.
type early struct {
	nvmlLib
	since time.Time
}

func (e early) concurrent() bool {
	c, ok := e.nvmlLib.(concurrentLib)
	return ok && c.concurrent()
}

// Close shuts NVML down; only needed by long-lived callers that want the library unloaded.
func (p *nvmlProber) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.lib != nil {
		p.lib.Shutdown()
		p.lib, p.devices = nil, nil
	}
	p.opened = false
}

func (p *nvmlProber) Probe(ctx context.Context) (Report, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.start(); err != nil {
		return Report{Backend: p.backend}, err
	}
	r := Report{Available: true, Backend: p.backend, GPUs: []GPU{}}
	var warn warnings
	if v, err := p.lib.DriverVersion(); err == nil {
		r.DriverVersion = v
	} else {
		warn.add(i18n.T("gpu.missing.driver_version", i18n.D{"Err": err}))
	}
	if v, err := p.lib.CUDADriverVersion(); err == nil && v > 0 {
		r.CUDAMax = cudaVersionString(v)
	} else {
		warn.add(i18n.T("gpu.missing.cuda_max", i18n.D{"Err": errOr(err, "0")}))
	}
	if v, err := p.lib.NVMLVersion(); err == nil {
		r.NVMLVersion = v
	}
	// Every card at once, and within a card its first readings at once (see describe): a reading's
	// first call costs milliseconds in the driver, most of a probe's time after nvmlInit. The report
	// is the same as one made card by card: cards and warnings keep their order.
	cards := make([]GPU, len(p.devices))
	cardWarn := make([]warnings, len(p.devices))
	par := p.parallel()
	readings := readingsWanted(ctx)
	concurrently(par, len(p.devices), func(i int) {
		if d := p.devices[i]; d != nil {
			cards[i] = p.describe(i, d, &cardWarn[i], readings)
		}
	})
	for i, d := range p.devices {
		if d == nil {
			warn.add(i18n.T("gpu.nvml.no_handle", i18n.D{"Index": i}))
			continue
		}
		r.GPUs = append(r.GPUs, cards[i])
		warn.list = append(warn.list, cardWarn[i].list...)
	}
	r.Warnings = append(warn.list, cardWarnings(r)...)
	r.Message = availableMessage(r)
	// From the library's load (which nvmlearly may have begun at the process's start) to the report.
	r.Timings = &Timings{InitMS: ms(p.initTook), ProbeMS: ms(time.Since(p.began))}
	return r, nil
}

// concurrentLib is a library whose calls may be made from several goroutines at once (go-nvml:
// NVML is thread-safe and go-nvml keeps no shared buffers). The nvml.dll backend reuses one scratch
// buffer, so its calls stay one after another.
type concurrentLib interface{ concurrent() bool }

func (p *nvmlProber) parallel() bool {
	c, ok := p.lib.(concurrentLib)
	return ok && c.concurrent()
}

func (p *nvmlProber) describe(i int, d nvmlDevice, warn *warnings, readings bool) GPU {
	g := GPU{Index: i, Processes: []Process{}}
	var (
		s                 vitals
		vitWarn, procWarn warnings
	)
	var err error
	if g.Name, err = d.Name(); err != nil {
		warn.add(i18n.T("gpu.missing.name", i18n.D{"Index": i, "Err": err}))
	}
	if g.UUID, err = d.UUID(); err != nil {
		warn.add(i18n.T("gpu.missing.uuid", i18n.D{"Index": i, "Err": err}))
	}
	if g.PCIBusID, err = d.PCIBusID(); err != nil {
		warn.add(i18n.T("gpu.missing.pci_bus_id", i18n.D{"Index": i, "Err": err}))
	}
	if total, used, err := d.Memory(); err == nil {
		g.MemoryTotalMiB, g.MemoryUsedMiB = total>>20, used>>20
	} else {
		warn.add(i18n.T("gpu.missing.memory", i18n.D{"Index": i, "Err": err}))
	}
	if major, minor, err := d.ComputeCapability(); err == nil {
		g.ComputeCapability = fmt.Sprintf("%d.%d", major, minor)
	} else {
		warn.add(i18n.T("gpu.missing.compute_cap", i18n.D{"Index": i, "Err": err}))
	}
	// Then the readings (unless left out) and the process lists, at once where the library allows
	// it (their first calls are the slow ones); warnings in the same order as when made one after
	// another.
	par := p.parallel()
	concurrently(par, 2, func(k int) {
		if k == 0 {
			if readings {
				s = p.readVitals(i, d, &vitWarn, par)
			}
		} else {
			g.Processes = p.processes(d, &procWarn, i)
		}
	})
	g.UtilizationPct, g.TemperatureC, g.PowerW, g.SMClockMHz = s.util, s.temp, s.power, s.clock
	warn.list = append(warn.list, vitWarn.list...)
	warn.list = append(warn.list, procWarn.list...)
	return g
}

// concurrently runs f(0) … f(n-1) each in its own goroutine and waits for all. NVML is thread-safe;
// a goroutine blocked in a driver call holds its own thread, so the calls are in the driver at once.
// Not parallel: one after another, in order.
func concurrently(parallel bool, n int, f func(i int)) {
	if !parallel || n == 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var wg sync.WaitGroup
	wg.Add(n)
	for i := range n {
		go func() { defer wg.Done(); f(i) }()
	}
	wg.Wait()
}

type vitals struct{ util, temp, power, clock *float64 }

// readVitals reads utilisation, temperature, power and SM clock; at once when parallel (a probe's
// first readings, each slow in the driver), else one after another (a sample's, each fast). The
// warnings come in that order either way.
func (p *nvmlProber) readVitals(i int, d nvmlDevice, warn *warnings, parallel bool) vitals {
	var v vitals
	reads := []struct {
		f     func() (uint32, error)
		scale float64
		out   **float64
	}{{d.Utilization, 1, &v.util}, {d.Temperature, 1, &v.temp}, {d.PowerMilliwatts, 0.001, &v.power}, {d.SMClockMHz, 1, &v.clock}}
	errs := make([]error, len(reads))
	read := func(k int) {
		x, err := reads[k].f()
		if err != nil {
			errs[k] = err
			return
		}
		f64 := float64(x) * reads[k].scale
		*reads[k].out = &f64
	}
	if parallel {
		concurrently(true, len(reads), read)
	} else {
		for k := range reads {
			read(k)
		}
	}
	if warn == nil {
		return v
	}
	// missing says which reading did not come, in words.
	missing := []func(error) string{
		func(err error) string { return i18n.T("gpu.missing.utilisation", i18n.D{"Index": i, "Err": err}) },
		func(err error) string { return i18n.T("gpu.missing.temperature", i18n.D{"Index": i, "Err": err}) },
		func(err error) string { return i18n.T("gpu.missing.power", i18n.D{"Index": i, "Err": err}) },
		func(err error) string { return i18n.T("gpu.missing.sm_clock", i18n.D{"Index": i, "Err": err}) },
	}
	for k, err := range errs {
		if err != nil {
			warn.add(missing[k](err))
		}
	}
	return v
}

// processes merges the compute and graphics lists (a process in both is listed once).
func (p *nvmlProber) processes(d nvmlDevice, warn *warnings, i int) []Process {
	byPID := map[uint32]rawProcess{}
	for _, list := range []struct {
		f       func() ([]rawProcess, error)
		missing func(error) string
	}{
		{d.ComputeProcesses, func(err error) string {
			return i18n.T("gpu.missing.compute_processes", i18n.D{"Index": i, "Err": err})
		}},
		{d.GraphicsProcesses, func(err error) string {
			return i18n.T("gpu.missing.graphics_processes", i18n.D{"Index": i, "Err": err})
		}},
	} {
		ps, err := list.f()
		if err != nil {
			if warn != nil {
				warn.add(list.missing(err))
			}
			continue
		}
		for _, rp := range ps {
			old, seen := byPID[rp.PID]
			if !seen || (old.UsedBytes == nil && rp.UsedBytes != nil) {
				byPID[rp.PID] = rp
			}
		}
	}
	out := make([]Process, 0, len(byPID))
	for pid, rp := range byPID {
		pr := Process{PID: int(pid)}
		if name, err := p.lib.ProcessName(int(pid)); err == nil && name != "" {
			pr.Name = name
		} else {
			pr.Name = processNameFromOS(int(pid))
		}
		if rp.UsedBytes != nil {
			mib := *rp.UsedBytes >> 20
			pr.UsedMemoryMiB = &mib
		}
		out = append(out, pr)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].PID < out[b].PID })
	return out
}

// Sample reads every card's vital signs through the kept handles; no full probe.
func (p *nvmlProber) Sample(ctx context.Context) ([]Sample, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.start(); err != nil {
		return nil, err
	}
	now := time.Now()
	out := make([]Sample, 0, len(p.devices))
	for i, d := range p.devices {
		if d == nil {
			continue
		}
		s := Sample{Time: now, Index: i}
		if total, used, err := d.Memory(); err == nil {
			s.MemoryTotalMiB, s.MemoryUsedMiB = total>>20, used>>20
		}
		v := p.readVitals(i, d, nil, false)
		s.UtilizationPct, s.TemperatureC, s.PowerW, s.SMClockMHz = deref(v.util), deref(v.temp), deref(v.power), deref(v.clock)
		s.Processes = p.processes(d, nil, i)
		out = append(out, s)
	}
	return out, nil
}

func deref(f *float64) float64 {
	if f == nil {
		return 0
	}
	return *f
}

func cudaVersionString(v int) string { return fmt.Sprintf("%d.%d", v/1000, (v%1000)/10) }

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func errOr(err error, s string) any {
	if err != nil {
		return err
	}
	return s
}

type warnings struct{ list []string }

func (w *warnings) add(text string) { w.list = append(w.list, text) }
