package cli

import "golang.org/x/sys/windows"

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
