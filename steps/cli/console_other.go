//go:build !windows

package cli

// consoleUTF8 does nothing outside Windows: terminals there take UTF-8 as they are.
func consoleUTF8() (restore func()) { return func() {} }
