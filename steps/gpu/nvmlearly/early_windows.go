package nvmlearly

import (
	"os"
	"path/filepath"
	"syscall"
	"time"

	"golang.org/x/sys/windows"
)

func init() {
	if Wanted(os.Args[1:]) {
		begin(func() any { return load() })
	}
}

// DLLPaths are where nvml.dll is looked for, in order: System32 (current drivers), then NVSMI (older ones).
func DLLPaths() []string {
	var paths []string
	if sys, err := windows.GetSystemDirectory(); err == nil {
		paths = append(paths, filepath.Join(sys, "nvml.dll"))
	}
	if pf := os.Getenv("ProgramW6432"); pf != "" {
		paths = append(paths, filepath.Join(pf, "NVIDIA Corporation", "NVSMI", "nvml.dll"))
	}
	return paths
}

// Loaded is nvml.dll as the first of DLLPaths that loads (DLL 0: none did), and the answer of its
// init export (InitName empty: it exports none), with when the load began.
type Loaded struct {
	DLL      windows.Handle
	InitName string
	InitRet  uintptr
	Began    time.Time
}

// LoadDLL loads nvml.dll from DLLPaths, by absolute path with LOAD_WITH_ALTERED_SEARCH_PATH (the
// DLL's own folder resolves its dependencies); DLL 0 when none loads.
func LoadDLL() windows.Handle {
	for _, p := range DLLPaths() {
		if h, err := windows.LoadLibraryEx(p, 0, windows.LOAD_WITH_ALTERED_SEARCH_PATH); err == nil {
			return h
		}
	}
	return 0
}

func load() Loaded {
	l := Loaded{DLL: LoadDLL()}
	if l.DLL == 0 {
		return l
	}
	for _, name := range []string{"nvmlInit_v2", "nvmlInit"} {
		if addr, err := windows.GetProcAddress(l.DLL, name); err == nil {
			l.InitName = name
			l.InitRet, _, _ = syscall.SyscallN(addr)
			break
		}
	}
	return l
}

// Take waits for the early load and returns it, once; false when none was begun.
func Take() (Loaded, bool) {
	v, began, ok := take()
	if !ok {
		return Loaded{}, false
	}
	l := v.(Loaded)
	l.Began = began
	return l, true
}
