package gpu

import (
	"unsafe"

	"gpuwiz/steps/i18n"
)

// dllTable is nvml.dll's export table: the Windows backend's only contact with the DLL, so the
// logic below runs on Linux against a fake table. Every export is Found before it is Called.
type dllTable interface {
	Find(name string) error
	Call(name string, args ...uintptr) uintptr
}

// initialised is a table whose init export was called already (by nvmlearly, at the process's
// start): the first call of that export answers what it answered then, instead of initialising twice.
type initialised struct {
	dllTable
	name string
	ret  uintptr
	used bool
}

func (t *initialised) Call(name string, args ...uintptr) uintptr {
	if !t.used && name == t.name {
		t.used = true
		return t.ret
	}
	return t.dllTable.Call(name, args...)
}

// dllLib is nvmlLib over a dllTable. Buffers live in one heap object (scratch) so the pointers
// handed to the DLL stay valid: heap objects never move.
type dllLib struct {
	t       dllTable
	scratch *dllScratch
	present map[string]bool
}

type dllScratch struct {
	u32, u32b uint32
	i32, i32b int32
	handle    uintptr
	mem       nvmlMemory
	util      nvmlUtilization
	pci       nvmlPCIInfo
	text      [nvmlProcessNameBufferSize]byte
	procs     []nvmlProcessInfo
}

func newDLLLib(t dllTable) *dllLib {
	return &dllLib{t: t, scratch: &dllScratch{procs: make([]nvmlProcessInfo, 64)}, present: map[string]bool{}}
}

// first returns the first of names the DLL exports (newest version first), or "".
func (l *dllLib) first(names ...string) string {
	for _, n := range names {
		ok, seen := l.present[n]
		if !seen {
			ok = l.t.Find(n) == nil
			l.present[n] = ok
		}
		if ok {
			return n
		}
	}
	return ""
}

// call runs the first exported of names; a missing export is errNotExported, a non-zero return its name.
func (l *dllLib) call(names []string, args ...uintptr) error {
	n := l.first(names...)
	if n == "" {
		return errNotExported{names[0]}
	}
	if r := l.t.Call(n, args...); r != nvmlSuccess {
		return dllErr(n, r)
	}
	return nil
}

func dllErr(name string, r uintptr) error {
	s, ok := nvmlReturnNames[r]
	if !ok {
		s = i18n.T("gpu.nvml.error_code", i18n.D{"Code": r})
	}
	return &ReturnError{Call: name, Name: s}
}

func ptr[T any](p *T) uintptr { return uintptr(unsafe.Pointer(p)) }

func (l *dllLib) text(names []string, head []uintptr, size int) (string, error) {
	s := l.scratch
	clear(s.text[:])
	if err := l.call(names, append(head, ptr(&s.text[0]), uintptr(size))...); err != nil {
		return "", err
	}
	return cString(s.text[:size]), nil
}

func (l *dllLib) Init() error {
	return l.call([]string{"nvmlInit_v2", "nvmlInit"})
}

func (l *dllLib) Shutdown() { _ = l.call([]string{"nvmlShutdown"}) }

func (l *dllLib) DriverVersion() (string, error) {
	return l.text([]string{"nvmlSystemGetDriverVersion"}, nil, nvmlVersionBufferSize)
}

func (l *dllLib) NVMLVersion() (string, error) {
	return l.text([]string{"nvmlSystemGetNVMLVersion"}, nil, nvmlVersionBufferSize)
}

func (l *dllLib) CUDADriverVersion() (int, error) {
	s := l.scratch
	s.i32 = 0
	err := l.call([]string{"nvmlSystemGetCudaDriverVersion_v2", "nvmlSystemGetCudaDriverVersion"}, ptr(&s.i32))
	return int(s.i32), err
}

func (l *dllLib) DeviceCount() (int, error) {
	s := l.scratch
	s.u32 = 0
	err := l.call([]string{"nvmlDeviceGetCount_v2", "nvmlDeviceGetCount"}, ptr(&s.u32))
	return int(s.u32), err
}

func (l *dllLib) Device(i int) (nvmlDevice, error) {
	s := l.scratch
	s.handle = 0
	if err := l.call([]string{"nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex"}, uintptr(i), ptr(&s.handle)); err != nil {
		return nil, err
	}
	return dllDevice{l: l, h: s.handle}, nil
}

func (l *dllLib) ProcessName(pid int) (string, error) {
	return l.text([]string{"nvmlSystemGetProcessName"}, []uintptr{uintptr(pid)}, nvmlProcessNameBufferSize)
}

type dllDevice struct {
	l *dllLib
	h uintptr
}

func (d dllDevice) Name() (string, error) {
	return d.l.text([]string{"nvmlDeviceGetName"}, []uintptr{d.h}, nvmlNameBufferSize)
}

func (d dllDevice) UUID() (string, error) {
	return d.l.text([]string{"nvmlDeviceGetUUID"}, []uintptr{d.h}, nvmlUUIDBufferSize)
}

func (d dllDevice) PCIBusID() (string, error) {
	s := d.l.scratch
	s.pci = nvmlPCIInfo{}
	if err := d.l.call([]string{"nvmlDeviceGetPciInfo_v3", "nvmlDeviceGetPciInfo_v2"}, d.h, ptr(&s.pci)); err != nil {
		return "", err
	}
	return cString(s.pci.BusID[:]), nil
}

func (d dllDevice) Memory() (uint64, uint64, error) {
	s := d.l.scratch
	s.mem = nvmlMemory{}
	err := d.l.call([]string{"nvmlDeviceGetMemoryInfo"}, d.h, ptr(&s.mem))
	return s.mem.Total, s.mem.Used, err
}

func (d dllDevice) ComputeCapability() (int, int, error) {
	s := d.l.scratch
	s.i32, s.i32b = 0, 0
	err := d.l.call([]string{"nvmlDeviceGetCudaComputeCapability"}, d.h, ptr(&s.i32), ptr(&s.i32b))
	return int(s.i32), int(s.i32b), err
}

func (d dllDevice) Utilization() (uint32, error) {
	s := d.l.scratch
	s.util = nvmlUtilization{}
	err := d.l.call([]string{"nvmlDeviceGetUtilizationRates"}, d.h, ptr(&s.util))
	return s.util.GPU, err
}

func (d dllDevice) u32(names []string, extra ...uintptr) (uint32, error) {
	s := d.l.scratch
	s.u32 = 0
	args := append([]uintptr{d.h}, extra...)
	err := d.l.call(names, append(args, ptr(&s.u32))...)
	return s.u32, err
}

func (d dllDevice) Temperature() (uint32, error) {
	return d.u32([]string{"nvmlDeviceGetTemperature"}, nvmlTemperatureGPU)
}

func (d dllDevice) PowerMilliwatts() (uint32, error) {
	return d.u32([]string{"nvmlDeviceGetPowerUsage"})
}

func (d dllDevice) SMClockMHz() (uint32, error) {
	return d.u32([]string{"nvmlDeviceGetClockInfo"}, nvmlClockSM)
}

func (d dllDevice) ComputeProcesses() ([]rawProcess, error) {
	return d.processes("nvmlDeviceGetComputeRunningProcesses_v3", "nvmlDeviceGetComputeRunningProcesses_v2")
}

func (d dllDevice) GraphicsProcesses() ([]rawProcess, error) {
	return d.processes("nvmlDeviceGetGraphicsRunningProcesses_v3", "nvmlDeviceGetGraphicsRunningProcesses_v2")
}

// processes calls a _v3/_v2 process list (both fill 24-byte entries), growing the buffer once when
// the driver says NVML_ERROR_INSUFFICIENT_SIZE. The _v1 layout (16 bytes) is not read.
func (d dllDevice) processes(names ...string) ([]rawProcess, error) {
	l, s := d.l, d.l.scratch
	n := l.first(names...)
	if n == "" {
		return nil, errNotExported{names[0]}
	}
	for attempt := 0; ; attempt++ {
		s.u32 = uint32(len(s.procs))
		r := l.t.Call(n, d.h, ptr(&s.u32), ptr(&s.procs[0]))
		if r == nvmlInsufficientSize && attempt == 0 {
			s.procs = make([]nvmlProcessInfo, int(s.u32)+16)
			continue
		}
		if r != nvmlSuccess {
			return nil, dllErr(n, r)
		}
		break
	}
	count := min(int(s.u32), len(s.procs))
	out := make([]rawProcess, 0, count)
	for _, p := range s.procs[:count] {
		out = append(out, rawProcess{PID: p.PID, UsedBytes: usedBytes(p.UsedGPUMemory)})
	}
	return out, nil
}
