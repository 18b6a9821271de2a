package gpu

import (
	"os"
	"path/filepath"
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

// nvidiaPCIDevices counts display-class devices of vendor 0x10de, to tell "no card" from "no driver".
func nvidiaPCIDevices() int {
	return countNVIDIADisplays("/sys/bus/pci/devices")
}

func countNVIDIADisplays(root string) int {
	dirs, _ := filepath.Glob(filepath.Join(root, "*"))
	n := 0
	for _, d := range dirs {
		vendor, _ := os.ReadFile(filepath.Join(d, "vendor"))
		class, _ := os.ReadFile(filepath.Join(d, "class"))
		if strings.TrimSpace(string(vendor)) == "0x10de" && strings.HasPrefix(strings.TrimSpace(string(class)), "0x03") {
			n++
		}
	}
	return n
}
