//go:build !windows

package cli

import (
	"os"
	"syscall"
)

// consoleUTF8 does nothing outside Windows: terminals there take UTF-8 as they are.
func consoleUTF8() (restore func()) { return func() {} }

// interruptSignals stop a run the way Ctrl+C does: Ctrl+C itself, kill's SIGTERM, and the SIGHUP a
// terminal sends when its window is closed. The run then puts back what it changed and exits.
var interruptSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}
