//go:build !windows

package netproxy

// ReadSystem is the Windows system proxy; elsewhere there is none (nil).
func ReadSystem() *System { return nil }
