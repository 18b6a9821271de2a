//go:build !linux

package gpu

// processNameFromOS has no cheap source outside Linux; NVML's own name is used there.
func processNameFromOS(pid int) string { return "" }

// nvidiaPCIDevices is not checked outside Linux (Windows would need SetupAPI for VEN_10DE).
func nvidiaPCIDevices() int { return 0 }
