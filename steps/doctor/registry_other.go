//go:build !windows

package doctor

// SystemRegistry is the machine's registry on Windows and nil elsewhere.
func SystemRegistry() Registry { return nil }
