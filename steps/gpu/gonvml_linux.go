//go:build linux && cgo

package gpu

import (
	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"gpuwiz/steps/gpu/nvmlearly"
)

// platformNVML is go-nvml over libnvidia-ml.so.1 (dlopened at Init, so no driver is needed to build):
// the one nvmlearly loaded at the process's start when it did, else a new load.
func platformNVML() *nvmlProber {
	return newNVMLProber("nvml", func() (nvmlLib, error) {
		if l, ok := nvmlearly.Take(); ok {
			return early{&goNVML{api: l.Lib, initDone: &l.Init}, l.Began}, nil
		}
		return &goNVML{api: nvml.New()}, nil
	})
}

// nvmlLibraryHint names what NVML looked for, for the "no driver" message.
const nvmlLibraryHint = "NVML (libnvidia-ml.so.1)" //i18n:raw a library's name, in the list of what was looked for

// goNVML adapts nvml.Interface (the real library or go-nvml's mocks) to nvmlLib.
type goNVML struct {
	api      nvml.Interface
	initDone *nvml.Return // nvmlInit's answer when it was called already (nvmlearly), until Init
	cudaV2   bool
}

func retErr(call string, r nvml.Return) error {
	if r == nvml.SUCCESS {
		return nil
	}
	return &ReturnError{Call: call, Name: nvml.ErrorString(r)}
}

func (l *goNVML) Init() error {
	// Init is the only call allowed before we know the library loaded: after a failed Init any other
	// call reaches an unresolved symbol and kills the process.
	var r nvml.Return
	if l.initDone != nil {
		r, l.initDone = *l.initDone, nil
	} else {
		r = l.api.Init()
	}
	if r != nvml.SUCCESS {
		return retErr("nvmlInit", r)
	}
	l.cudaV2 = l.api.Extensions().LookupSymbol("nvmlSystemGetCudaDriverVersion_v2") == nil
	return nil
}

func (l *goNVML) Shutdown() { l.api.Shutdown() }

func (l *goNVML) DriverVersion() (string, error) {
	v, r := l.api.SystemGetDriverVersion()
	return v, retErr("nvmlSystemGetDriverVersion", r)
}

func (l *goNVML) CUDADriverVersion() (int, error) {
	if l.cudaV2 {
		v, r := l.api.SystemGetCudaDriverVersion_v2()
		return v, retErr("nvmlSystemGetCudaDriverVersion_v2", r)
	}
	v, r := l.api.SystemGetCudaDriverVersion()
	return v, retErr("nvmlSystemGetCudaDriverVersion", r)
}

func (l *goNVML) NVMLVersion() (string, error) {
	v, r := l.api.SystemGetNVMLVersion()
	return v, retErr("nvmlSystemGetNVMLVersion", r)
}

func (l *goNVML) DeviceCount() (int, error) {
	n, r := l.api.DeviceGetCount()
	return n, retErr("nvmlDeviceGetCount", r)
}

func (l *goNVML) Device(i int) (nvmlDevice, error) {
	d, r := l.api.DeviceGetHandleByIndex(i)
	if r != nvml.SUCCESS {
		return nil, retErr("nvmlDeviceGetHandleByIndex", r)
	}
	return goDevice{d}, nil
}

func (l *goNVML) ProcessName(pid int) (string, error) {
	v, r := l.api.SystemGetProcessName(pid)
	return v, retErr("nvmlSystemGetProcessName", r)
}

type goDevice struct{ d nvml.Device }

func (g goDevice) Name() (string, error) {
	v, r := g.d.GetName()
	return v, retErr("nvmlDeviceGetName", r)
}

func (g goDevice) UUID() (string, error) {
	v, r := g.d.GetUUID()
	return v, retErr("nvmlDeviceGetUUID", r)
}

func (g goDevice) PCIBusID() (string, error) {
	v, r := g.d.GetPciInfo()
	if r != nvml.SUCCESS {
		return "", retErr("nvmlDeviceGetPciInfo", r)
	}
	return cString(int8Bytes(v.BusId[:])), nil
}

func (g goDevice) Memory() (uint64, uint64, error) {
	m, r := g.d.GetMemoryInfo()
	return m.Total, m.Used, retErr("nvmlDeviceGetMemoryInfo", r)
}

func (g goDevice) ComputeCapability() (int, int, error) {
	a, b, r := g.d.GetCudaComputeCapability()
	return a, b, retErr("nvmlDeviceGetCudaComputeCapability", r)
}

func (g goDevice) Utilization() (uint32, error) {
	u, r := g.d.GetUtilizationRates()
	return u.Gpu, retErr("nvmlDeviceGetUtilizationRates", r)
}

func (g goDevice) Temperature() (uint32, error) {
	v, r := g.d.GetTemperature(nvml.TEMPERATURE_GPU)
	return v, retErr("nvmlDeviceGetTemperature", r)
}

func (g goDevice) PowerMilliwatts() (uint32, error) {
	v, r := g.d.GetPowerUsage()
	return v, retErr("nvmlDeviceGetPowerUsage", r)
}

func (g goDevice) SMClockMHz() (uint32, error) {
	v, r := g.d.GetClockInfo(nvml.CLOCK_SM)
	return v, retErr("nvmlDeviceGetClockInfo", r)
}

// go-nvml itself picks the newest of the _v3/_v2/_v1 process calls the library exports.
func (g goDevice) ComputeProcesses() ([]rawProcess, error) {
	ps, r := g.d.GetComputeRunningProcesses()
	return fromProcessInfo(ps), retErr("nvmlDeviceGetComputeRunningProcesses", r)
}

func (g goDevice) GraphicsProcesses() ([]rawProcess, error) {
	ps, r := g.d.GetGraphicsRunningProcesses()
	return fromProcessInfo(ps), retErr("nvmlDeviceGetGraphicsRunningProcesses", r)
}

func fromProcessInfo(ps []nvml.ProcessInfo) []rawProcess {
	out := make([]rawProcess, 0, len(ps))
	for _, p := range ps {
		out = append(out, rawProcess{PID: p.Pid, UsedBytes: usedBytes(p.UsedGpuMemory)})
	}
	return out
}

func int8Bytes(a []int8) []byte {
	b := make([]byte, len(a))
	for i, c := range a {
		b[i] = byte(c)
	}
	return b
}

// concurrent: NVML is thread-safe, and go-nvml passes each call its own buffers.
func (l *goNVML) concurrent() bool { return true }
