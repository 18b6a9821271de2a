//go:build linux && cgo

package gpu

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock/dgxa100"
)

// withVitals fills the calls dgxa100 leaves unset (moq mocks panic on those).
func withVitals(s *dgxa100.Server) {
	for i, d := range s.Devices {
		dev := d.(*dgxa100.Device)
		i := uint32(i)
		busID := dev.PciBusID // dgxa100 keeps it on the device but leaves PciInfo.BusId empty
		dev.GetPciInfoFunc = func() (nvml.PciInfo, nvml.Return) {
			var p nvml.PciInfo
			for j := range min(len(busID), len(p.BusId)-1) {
				p.BusId[j] = int8(busID[j])
			}
			return p, nvml.SUCCESS
		}
		dev.GetUtilizationRatesFunc = func() (nvml.Utilization, nvml.Return) { return nvml.Utilization{Gpu: 10 * i}, nvml.SUCCESS }
		dev.GetTemperatureFunc = func(nvml.TemperatureSensors) (uint32, nvml.Return) { return 40 + i, nvml.SUCCESS }
		dev.GetPowerUsageFunc = func() (uint32, nvml.Return) { return 60000 + 1000*i, nvml.SUCCESS }
		dev.GetClockInfoFunc = func(nvml.ClockType) (uint32, nvml.Return) { return 1410, nvml.SUCCESS }
		dev.GetComputeRunningProcessesFunc = func() ([]nvml.ProcessInfo, nvml.Return) {
			if i != 3 {
				return nil, nvml.SUCCESS
			}
			return []nvml.ProcessInfo{{Pid: 777, UsedGpuMemory: 2 << 30}}, nvml.SUCCESS
		}
		dev.GetGraphicsRunningProcessesFunc = func() ([]nvml.ProcessInfo, nvml.Return) { return nil, nvml.ERROR_NOT_SUPPORTED }
	}
	s.SystemGetProcessNameFunc = func(pid int) (string, nvml.Return) { return "/usr/bin/python3.11", nvml.SUCCESS }
	s.SystemGetCudaDriverVersion_v2Func = func() (int, nvml.Return) { return 12040, nvml.SUCCESS }
}

func mockProber(api nvml.Interface) *nvmlProber {
	return newNVMLProber("nvml", func() (nvmlLib, error) { return &goNVML{api: api}, nil })
}

func TestGoNVMLEightA100s(t *testing.T) {
	s := dgxa100.New()
	withVitals(s)
	p := mockProber(s)
	r, err := p.Probe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !r.Available || r.DriverVersion != "550.54.15" || r.CUDAMax != "12.4" || r.NVMLVersion != "12.550.54.15" || len(r.GPUs) != 8 {
		t.Fatalf("%+v", r)
	}
	uuids := map[string]bool{}
	for i, g := range r.GPUs {
		if g.Index != i || g.Name != "Mock NVIDIA A100-SXM4-40GB" || g.ComputeCapability != "8.0" || g.MemoryTotalMiB != 40960 || g.PCIBusID != s.Devices[i].(*dgxa100.Device).PciBusID || g.PCIBusID == "" {
			t.Errorf("GPU %d: %+v", i, g)
		}
		if *g.TemperatureC != float64(40+i) || *g.PowerW != float64(60+i) {
			t.Errorf("GPU %d vitals: %v %v", i, *g.TemperatureC, *g.PowerW)
		}
		uuids[g.UUID] = true
	}
	if len(uuids) != 8 {
		t.Errorf("UUIDs not distinct: %v", uuids)
	}
	if ps := r.GPUs[3].Processes; len(ps) != 1 || ps[0].PID != 777 || *ps[0].UsedMemoryMiB != 2048 || ps[0].Name != "/usr/bin/python3.11" {
		t.Errorf("GPU 3 processes: %+v", ps)
	}
	if !strings.Contains(strings.Join(r.Warnings, "\n"), "graphics process list not available") {
		t.Errorf("warnings: %q", r.Warnings)
	}
	samples, err := p.Sample(context.Background())
	if err != nil || len(samples) != 8 || samples[7].UtilizationPct != 70 || samples[3].Processes[0].PID != 777 {
		t.Fatalf("samples: %v %+v", err, samples)
	}
}

func TestGoNVMLInitFailureMakesNoOtherCall(t *testing.T) {
	calls := 0
	m := &mock.Interface{
		InitFunc: func() nvml.Return { calls++; return nvml.ERROR_LIBRARY_NOT_FOUND },
		// Every other call is unset: moq panics if one is made, as the real library would crash.
	}
	p := mockProber(m)
	for range 2 {
		if _, err := p.Probe(context.Background()); err == nil || !strings.Contains(err.Error(), "ERROR_LIBRARY_NOT_FOUND") {
			t.Fatalf("err = %v", err)
		}
		if _, err := p.Sample(context.Background()); err == nil {
			t.Fatal("sample after a failed init must fail")
		}
	}
	if calls != 1 {
		t.Fatalf("Init called %d times; a failed Init is final", calls)
	}
}

func TestGoNVMLOldLibraryUsesCudaV1(t *testing.T) {
	s := dgxa100.New()
	withVitals(s)
	s.LookupSymbolFunc = func(name string) error {
		if strings.HasSuffix(name, "_v2") {
			return nvml.ERROR_FUNCTION_NOT_FOUND
		}
		return nil
	}
	s.SystemGetCudaDriverVersion_v2Func = nil // a call to it would panic
	r, err := mockProber(s).Probe(context.Background())
	if err != nil || r.CUDAMax != "12.4" {
		t.Fatalf("%v %+v", err, r)
	}
}

func TestChainFallsBackToSMIWhenNVMLFails(t *testing.T) {
	m := &mock.Interface{InitFunc: func() nvml.Return { return nvml.ERROR_DRIVER_NOT_LOADED }}
	run, _ := recordedSMI(t, "h200", "h200-banner.txt")
	c := newChain([]namedProber{{"NVML", mockProber(m)}, {"nvidia-smi", smiFor(run)}}, nil)
	r, err := c.Probe(context.Background())
	if err != nil || r.Backend != "nvidia-smi" || len(r.GPUs) != 1 {
		t.Fatalf("%v %+v", err, r)
	}
	if !strings.Contains(r.Warnings[0], "NVML gave nothing") {
		t.Fatalf("warnings: %q", r.Warnings)
	}
}

// TestProbeAfterAnEarlyStart: NVML loaded and initialised at the process's start (nvmlearly) gives
// the same report as a probe that loads it itself; nvmlInit is not called a second time, and the
// timings count from the early start.
func TestProbeAfterAnEarlyStart(t *testing.T) {
	s := dgxa100.New()
	withVitals(s)
	fresh, err := mockProber(s).Probe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	since := time.Now()
	ret := s.Init() // what nvmlearly's init does
	inits := len(s.InitCalls())
	time.Sleep(20 * time.Millisecond)
	p := newNVMLProber("nvml", func() (nvmlLib, error) { return early{&goNVML{api: s, initDone: &ret}, since}, nil })
	got, err := p.Probe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.InitCalls()) - inits; n != 0 {
		t.Errorf("nvmlInit called %d more times after the early start", n)
	}
	if got.Timings == nil || got.Timings.InitMS < 20 || got.Timings.InitMS > got.Timings.ProbeMS {
		t.Errorf("timings do not count from the early start: %+v", got.Timings)
	}
	fresh.Timings, got.Timings = nil, nil
	if !reflect.DeepEqual(fresh, got) {
		t.Errorf("an early start changed the report:\n%+v\n%+v", fresh, got)
	}
	if !p.parallel() {
		t.Errorf("go-nvml behind an early start is no longer read card by card at once")
	}
}

// TestEarlyFailedInitStopsThere: a failed early nvmlInit is the probe's error, and no other call is made.
func TestEarlyFailedInitStopsThere(t *testing.T) {
	ret := nvml.ERROR_LIBRARY_NOT_FOUND
	s := &mock.Interface{} // any call would panic: none is set
	p := newNVMLProber("nvml", func() (nvmlLib, error) { return early{&goNVML{api: s, initDone: &ret}, time.Now()}, nil })
	if _, err := p.Probe(context.Background()); err == nil || !strings.Contains(err.Error(), "nvmlInit") {
		t.Fatalf("err = %v", err)
	}
}
