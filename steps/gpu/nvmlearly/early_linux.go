//go:build linux && cgo

package nvmlearly

import (
	"os"
	"time"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
)

func init() {
	if Wanted(os.Args[1:]) {
		begin(func() any {
			lib := nvml.New()
			return Loaded{Lib: lib, Init: lib.Init()}
		})
	}
}

// Loaded is libnvidia-ml.so.1 through go-nvml, with nvmlInit's answer (on a failed Init no other call
// may be made: the library may not have loaded), and when the load began and how long it took.
type Loaded struct {
	Lib   nvml.Interface
	Init  nvml.Return
	Began time.Time
	Took  time.Duration
}

// Take waits for the early load and returns it, once; false when none was begun.
func Take() (Loaded, bool) {
	v, began, took, ok := take()
	if !ok {
		return Loaded{}, false
	}
	l := v.(Loaded)
	l.Began, l.Took = began, took
	return l, true
}
