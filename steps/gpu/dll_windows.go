package gpu

import (
	"errors"
	"strings"
	"syscall"

	"golang.org/x/sys/windows"

	"gpuwiz/steps/gpu/nvmlearly"
	"gpuwiz/steps/i18n"
)

const nvmlLibraryHint = "NVML (nvml.dll)" //i18n:raw a library's name, in the list of what was looked for

// platformNVML loads nvml.dll without cgo: System32 first (current drivers), then NVSMI (older ones).
func platformNVML() *nvmlProber {
	return newNVMLProber("nvml.dll", openNVMLDLL)
}

func openNVMLDLL() (nvmlLib, error) {
	table := func(h windows.Handle) *winTable { return &winTable{dll: h, procs: map[string]uintptr{}} }
	if l, ok := nvmlearly.Take(); ok { // loaded, and initialised, at the process's start
		if l.DLL == 0 {
			return nil, dllNotFound()
		}
		var t dllTable = table(l.DLL)
		if l.InitName != "" {
			t = &initialised{dllTable: t, name: l.InitName, ret: l.InitRet}
		}
		return early{newDLLLib(t), l.Began}, nil
	}
	if h := nvmlearly.LoadDLL(); h != 0 {
		return newDLLLib(table(h)), nil
	}
	return nil, dllNotFound()
}

func dllNotFound() error {
	return errors.New(i18n.T("gpu.nvml.dll_not_found", i18n.D{"Paths": strings.Join(nvmlearly.DLLPaths(), i18n.T("gpu.nvml.or"))}))
}

// winTable resolves exports with GetProcAddress and calls them with the x64 calling convention.
type winTable struct {
	dll   windows.Handle
	procs map[string]uintptr
}

func (t *winTable) Find(name string) error {
	if _, ok := t.procs[name]; ok {
		return nil
	}
	addr, err := windows.GetProcAddress(t.dll, name)
	if err != nil {
		return err
	}
	t.procs[name] = addr
	return nil
}

func (t *winTable) Call(name string, args ...uintptr) uintptr {
	addr, ok := t.procs[name]
	if !ok {
		return 13 // NVML_ERROR_FUNCTION_NOT_FOUND; callers Find first, so this is a programming error
	}
	r, _, _ := syscall.SyscallN(addr, args...)
	return r
}
