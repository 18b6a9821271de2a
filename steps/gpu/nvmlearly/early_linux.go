//go:build linux && cgo

package nvmlearly

/*
#cgo LDFLAGS: -ldl -lpthread
#include <stdlib.h>
#include "early_linux.h"
*/
import "C"

import (
	"time"
	"unsafe"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
)

// On Linux the load begins in early_linux.c's constructor, before the Go runtime starts.

// Loaded is libnvidia-ml.so.1 through go-nvml, with nvmlInit's answer (on a failed Init no other call
// may be made: the library may not have loaded), and when the load began.
type Loaded struct {
	Lib   nvml.Interface
	Init  nvml.Return
	Began time.Time
}

// Take waits for the constructor's load and returns the library through go-nvml, once; false when
// none was begun. go-nvml's load and nvmlInit then find the library loaded and NVML initialised.
func Take() (Loaded, bool) {
	mu.Lock()
	defer mu.Unlock()
	var began C.longlong
	if C.gpuwiz_nvml_early_wait(&began) == 0 {
		return Loaded{}, false
	}
	l := Loaded{Lib: nvml.New(), Began: time.Unix(0, int64(began))}
	l.Init = l.Lib.Init()
	return l, true
}

// wantedC is the constructor's test of the arguments (args without the program's name), for the
// test that it says what Wanted says.
func wantedC(args []string) bool {
	argv := make([]*C.char, 0, len(args)+1)
	for _, a := range append([]string{"gpuwiz"}, args...) {
		s := C.CString(a)
		defer C.free(unsafe.Pointer(s))
		argv = append(argv, s)
	}
	return C.gpuwiz_nvml_wanted(C.int(len(argv)), (**C.char)(unsafe.Pointer(&argv[0]))) == 1
}
