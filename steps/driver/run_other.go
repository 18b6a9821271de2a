//go:build !windows

package driver

// SystemRunner is nil off Windows: gpuwiz starts NVIDIA's installer only on Windows.
func SystemRunner() Runner { return nil }
