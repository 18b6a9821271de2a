package gpu

import (
	"os"
	"strconv"
	"strings"
)

// processNameFromOS reads /proc/PID/comm when NVML has no name for a process.
func processNameFromOS(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// systemAdapters lists the display-class PCI devices (class 0x03xxxx) under /sys/bus/pci.
func systemAdapters() AdapterLister { return sysfsAdapters("/sys/bus/pci/devices") }
