package gpu

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"
	"unsafe"
)

func TestNVMLStructLayouts(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"nvmlMemory_t", unsafe.Sizeof(nvmlMemory{}), 24},
		{"nvmlUtilization_t", unsafe.Sizeof(nvmlUtilization{}), 8},
		{"nvmlProcessInfo_t", unsafe.Sizeof(nvmlProcessInfo{}), 24},
		{"nvmlPciInfo_t", unsafe.Sizeof(nvmlPCIInfo{}), 68},
		{"nvmlProcessInfo_t.usedGpuMemory offset", unsafe.Offsetof(nvmlProcessInfo{}.UsedGPUMemory), 8},
		{"nvmlPciInfo_t.busId offset", unsafe.Offsetof(nvmlPCIInfo{}.BusID), 36},
	} {
		if c.got != c.want {
			t.Errorf("%s: %d bytes, nvml.h says %d", c.name, c.got, c.want)
		}
	}
}

// at turns an argument the backend passed back into the pointer it came from (the fake DLL's view).
func at[T any](addr uintptr) *T { return *(**T)(unsafe.Pointer(&addr)) }

// fakeTable plays nvml.dll: one card, exports removable, every call logged.
type fakeTable struct {
	missing  map[string]bool
	initRet  uintptr
	calls    []string
	nprocs   int
	inited   bool
	procSeen uint32 // buffer size offered on the last process call
}

func (f *fakeTable) Find(name string) error {
	if f.missing[name] {
		return errNotExported{name}
	}
	return nil
}

func writeC(dst uintptr, size uintptr, s string) {
	b := unsafe.Slice(at[byte](dst), size)
	copy(b, s+"\x00")
}

func (f *fakeTable) Call(name string, a ...uintptr) uintptr {
	f.calls = append(f.calls, name)
	if strings.HasPrefix(name, "nvmlInit") {
		f.inited = f.initRet == 0
		return f.initRet
	}
	if !f.inited {
		return 1 // NVML_ERROR_UNINITIALIZED: a call after a failed init
	}
	switch name {
	case "nvmlSystemGetDriverVersion":
		writeC(a[0], a[1], "552.22")
	case "nvmlSystemGetNVMLVersion":
		writeC(a[0], a[1], "12.552.22")
	case "nvmlSystemGetCudaDriverVersion_v2", "nvmlSystemGetCudaDriverVersion":
		*at[int32](a[0]) = 12040
	case "nvmlDeviceGetCount_v2":
		*at[uint32](a[0]) = 1
	case "nvmlDeviceGetHandleByIndex_v2":
		*at[uintptr](a[1]) = 0xC0FFEE
	case "nvmlDeviceGetName":
		writeC(a[1], a[2], "NVIDIA GeForce RTX 5090")
	case "nvmlDeviceGetUUID":
		writeC(a[1], a[2], "GPU-5090")
	case "nvmlDeviceGetPciInfo_v3":
		copy(at[nvmlPCIInfo](a[1]).BusID[:], "00000000:65:00.0\x00")
	case "nvmlDeviceGetMemoryInfo":
		*at[nvmlMemory](a[1]) = nvmlMemory{Total: 32607 << 20, Used: 1000 << 20, Free: 31607 << 20}
	case "nvmlDeviceGetCudaComputeCapability":
		*at[int32](a[1]), *at[int32](a[2]) = 12, 0
	case "nvmlDeviceGetUtilizationRates":
		*at[nvmlUtilization](a[1]) = nvmlUtilization{GPU: 88, Memory: 40}
	case "nvmlDeviceGetTemperature":
		*at[uint32](a[2]) = 70
	case "nvmlDeviceGetClockInfo":
		*at[uint32](a[2]) = 2407
	case "nvmlDeviceGetPowerUsage":
		*at[uint32](a[1]) = 450500
	case "nvmlDeviceGetComputeRunningProcesses_v3", "nvmlDeviceGetComputeRunningProcesses_v2":
		count := at[uint32](a[1])
		f.procSeen = *count
		if int(*count) < f.nprocs {
			*count = uint32(f.nprocs)
			return nvmlInsufficientSize
		}
		buf := unsafe.Slice(at[nvmlProcessInfo](a[2]), f.nprocs)
		for i := range buf {
			buf[i] = nvmlProcessInfo{PID: uint32(1000 + i), UsedGPUMemory: nvmlValueNotAvailable}
		}
		buf[0].UsedGPUMemory = 3 << 30
		*count = uint32(f.nprocs)
	case "nvmlDeviceGetGraphicsRunningProcesses_v3", "nvmlDeviceGetGraphicsRunningProcesses_v2":
		*at[uint32](a[1]) = 0
	case "nvmlSystemGetProcessName":
		writeC(a[1], a[2], "python.exe")
	default:
		return 999
	}
	return 0
}

func TestDLLBackendDecodesTheTable(t *testing.T) {
	f := &fakeTable{nprocs: 100, missing: map[string]bool{
		"nvmlDeviceGetComputeRunningProcesses_v3": true, // an older driver: falls back to _v2
		"nvmlDeviceGetPowerUsage":                 true, // optional: nil plus a warning
	}}
	p := newNVMLProber("nvml.dll", func() (nvmlLib, error) { return newDLLLib(f), nil })
	r, err := p.Probe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	g := r.GPUs[0]
	if r.DriverVersion != "552.22" || r.CUDAMax != "12.4" || g.Name != "NVIDIA GeForce RTX 5090" || g.ComputeCapability != "12.0" ||
		g.MemoryTotalMiB != 32607 || g.MemoryUsedMiB != 1000 || g.PCIBusID != "00000000:65:00.0" || *g.UtilizationPct != 88 || *g.SMClockMHz != 2407 {
		t.Fatalf("%+v", g)
	}
	if g.PowerW != nil || !strings.Contains(strings.Join(r.Warnings, "\n"), "nvmlDeviceGetPowerUsage not exported") {
		t.Fatalf("power %v, warnings %q", g.PowerW, r.Warnings)
	}
	if len(g.Processes) != 100 || *g.Processes[0].UsedMemoryMiB != 3072 || g.Processes[1].UsedMemoryMiB != nil || g.Processes[0].Name != "python.exe" {
		t.Fatalf("100 processes (grown buffer), WDDM nil memory: %d %+v", len(g.Processes), g.Processes[:2])
	}
	for _, c := range f.calls {
		if c == "nvmlDeviceGetComputeRunningProcesses_v3" || c == "nvmlDeviceGetPowerUsage" {
			t.Fatalf("called %s, which the driver does not export", c)
		}
	}
}

func TestDLLBackendInitFailureStopsThere(t *testing.T) {
	f := &fakeTable{initRet: 9, missing: map[string]bool{}}
	p := newNVMLProber("nvml.dll", func() (nvmlLib, error) { return newDLLLib(f), nil })
	_, err := p.Probe(context.Background())
	if err == nil || !strings.Contains(err.Error(), "NVML_ERROR_DRIVER_NOT_LOADED") {
		t.Fatalf("err = %v", err)
	}
	p.Sample(context.Background())
	if len(f.calls) != 1 || f.calls[0] != "nvmlInit_v2" {
		t.Fatalf("calls after a failed init: %q", f.calls)
	}
}

func TestDLLBackendOldestInit(t *testing.T) {
	f := &fakeTable{missing: map[string]bool{"nvmlInit_v2": true}}
	if err := newDLLLib(f).Init(); err != nil || f.calls[0] != "nvmlInit" {
		t.Fatalf("%v %q", err, f.calls)
	}
}

// TestDLLBackendAfterAnEarlyInit: nvml.dll initialised at the process's start (nvmlearly) is not
// initialised again, and the report is the one a fresh load gives.
func TestDLLBackendAfterAnEarlyInit(t *testing.T) {
	fresh, err := newNVMLProber("nvml.dll", func() (nvmlLib, error) {
		return newDLLLib(&fakeTable{nprocs: 1, missing: map[string]bool{}}), nil
	}).Probe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeTable{nprocs: 1, missing: map[string]bool{}}
	ret := f.Call("nvmlInit_v2") // what nvmlearly's init does
	f.calls = nil
	p := newNVMLProber("nvml.dll", func() (nvmlLib, error) {
		return early{newDLLLib(&initialised{dllTable: f, name: "nvmlInit_v2", ret: ret}), time.Now()}, nil
	})
	got, err := p.Probe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range f.calls {
		if strings.HasPrefix(c, "nvmlInit") {
			t.Fatalf("initialised again: %q", f.calls)
		}
	}
	fresh.Timings, got.Timings = nil, nil
	if !reflect.DeepEqual(fresh, got) {
		t.Errorf("an early init changed the report:\n%+v\n%+v", fresh, got)
	}
	if p.parallel() {
		t.Errorf("the DLL backend shares one scratch buffer; it must stay one call after another")
	}
}
