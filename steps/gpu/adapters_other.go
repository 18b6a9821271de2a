//go:build !linux && !windows

package gpu

// systemAdapters lists nothing where gpuwiz has no PCI device list.
func systemAdapters() AdapterLister { return nil }
