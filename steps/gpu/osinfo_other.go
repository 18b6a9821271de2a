//go:build !linux

package gpu

// processNameFromOS has no cheap source outside Linux; NVML's own name is used there.
func processNameFromOS(pid int) string { return "" }
