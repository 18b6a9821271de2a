// Package nvmlearly begins loading the NVIDIA driver's library (NVML) and initialising it as soon as
// the process starts, for a process that is going to probe the driver anyway (`gpuwiz gpu`): the
// load and nvmlInit are most of a probe's time, and this way they overlap the start of the Go
// runtime, the initialisation of every package and the building of the commands instead of
// following them.
//
// On Linux (cgo) the start is an ELF constructor (early_linux.c) that the dynamic loader runs before
// the Go runtime. On Windows (no cgo) it is this package's init: Go initialises a package after
// everything it imports, so the package imports next to nothing and its init runs among the first.
// Only steps/gpu uses what was loaded (Take, once); a process that never asks only paid the load.
package nvmlearly

import (
	"strings"
	"sync"
	"time"
)

// Wanted says whether args (the process's, without the program's name) are `gpu` on this machine's
// driver: the command `gpu`, after none but the global flags that do not change the probe (--lang,
// --matrix, --sources, --no-color, --ascii), and not with --simulate (a file stands in for the
// driver) or --help.
func Wanted(args []string) bool {
	i := 0
	for ; i < len(args) && args[i] != "gpu"; i++ {
		switch a := args[i]; {
		case a == "--lang" || a == "--matrix" || a == "--sources":
			i++ // its value
		case strings.HasPrefix(a, "--lang=") || strings.HasPrefix(a, "--matrix=") || strings.HasPrefix(a, "--sources="),
			a == "--no-color" || a == "--ascii" || strings.HasPrefix(a, "--no-color=") || strings.HasPrefix(a, "--ascii="):
		default:
			return false
		}
	}
	if i >= len(args) {
		return false
	}
	for _, a := range args[i+1:] {
		if a == "-h" || a == "--help" || a == "--" || a == "--simulate" || strings.HasPrefix(a, "--simulate=") {
			return false
		}
	}
	return true
}

// loading is one early load: what load returned and when it began.
type loading struct {
	done  chan struct{}
	val   any
	began time.Time
}

var (
	mu      sync.Mutex
	current *loading // begun by init, until taken
)

// begin runs load in the background and keeps its result for take.
func begin(load func() any) {
	l := &loading{done: make(chan struct{}), began: time.Now()}
	mu.Lock()
	current = l
	mu.Unlock()
	go func() {
		defer close(l.done)
		l.val = load()
	}()
}

// take waits for the early load and hands it over, once; ok is false when none was begun (or it was
// taken already).
func take() (val any, began time.Time, ok bool) {
	mu.Lock()
	l := current
	current = nil
	mu.Unlock()
	if l == nil {
		return nil, time.Time{}, false
	}
	<-l.done
	return l.val, l.began, true
}
