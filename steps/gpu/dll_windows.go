package gpu

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/windows"

	"gpuwiz/steps/i18n"
)

const nvmlLibraryHint = "NVML (nvml.dll)" //i18n:raw a library's name, in the list of what was looked for

// platformNVML loads nvml.dll without cgo: System32 first (current drivers), then NVSMI (older ones).
func platformNVML() *nvmlProber {
	return newNVMLProber("nvml.dll", openNVMLDLL)
}

func nvmlDLLPaths() []string {
	var paths []string
	if sys, err := windows.GetSystemDirectory(); err == nil {
		paths = append(paths, filepath.Join(sys, "nvml.dll"))
	}
	if pf := os.Getenv("ProgramW6432"); pf != "" {
		paths = append(paths, filepath.Join(pf, "NVIDIA Corporation", "NVSMI", "nvml.dll"))
	}
	return paths
}

func openNVMLDLL() (nvmlLib, error) {
	paths := nvmlDLLPaths()
	for _, p := range paths {
		// An absolute path with LOAD_WITH_ALTERED_SEARCH_PATH: the DLL's own folder resolves its dependencies.
		h, err := windows.LoadLibraryEx(p, 0, windows.LOAD_WITH_ALTERED_SEARCH_PATH)
		if err == nil {
			return newDLLLib(&winTable{dll: h, procs: map[string]uintptr{}}), nil
		}
	}
	return nil, errors.New(i18n.T("gpu.nvml.dll_not_found", i18n.D{"Paths": strings.Join(paths, i18n.T("gpu.nvml.or"))}))
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
