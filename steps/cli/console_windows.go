package cli

import (
	"os"
	"syscall"

	"golang.org/x/sys/windows"
)

const cpUTF8 = 65001

// consoleUTF8 switches the console to UTF-8 (code page 65001) for gpuwiz's output and input, so
// Chinese text shows in conhost whose default code page is 936 (GBK), and returns the function that
// puts the user's code pages back on exit. Without a console (output to a file or pipe) it does nothing.
func consoleUTF8() (restore func()) {
	out, errOut := windows.GetConsoleOutputCP()
	in, errIn := windows.GetConsoleCP()
	if errOut != nil || out == 0 {
		return func() {}
	}
	_ = windows.SetConsoleOutputCP(cpUTF8)
	if errIn == nil && in != 0 {
		_ = windows.SetConsoleCP(cpUTF8)
	}
	return func() {
		_ = windows.SetConsoleOutputCP(out)
		if errIn == nil && in != 0 {
			_ = windows.SetConsoleCP(in)
		}
	}
}

// interruptSignals stop a run the way Ctrl+C does. Go's runtime installs the console control
// handler (SetConsoleCtrlHandler) itself: Ctrl+C and Ctrl+Break arrive as os.Interrupt, and closing
// the console window, logging off and shutting down (CTRL_CLOSE_EVENT, CTRL_LOGOFF_EVENT,
// CTRL_SHUTDOWN_EVENT) as syscall.SIGTERM, with the handler held until the process exits, so the
// run stops pip and puts back what it changed in the time Windows gives (about 5 seconds for a
// closed window). What does not finish in that time stays in the venv's journal for the next run.
var interruptSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}
