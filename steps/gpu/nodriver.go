package gpu

import (
	"fmt"
	"strings"
)

// noDriverReport is the normal answer on a machine without a working NVIDIA driver.
// looked lists what was tried, each with why it gave nothing.
func noDriverReport(looked []string, pciNVIDIA int) Report {
	var b strings.Builder
	b.WriteString("No NVIDIA driver found")
	if pciNVIDIA > 0 {
		fmt.Fprintf(&b, ", although %d NVIDIA display device(s) sit on the PCI bus", pciNVIDIA)
	}
	b.WriteString(". Looked for: ")
	b.WriteString(strings.Join(looked, "; "))
	b.WriteString(". Install the driver for your card from https://www.nvidia.com/Download/index.aspx and run gpuwiz again, or continue with a CPU build.")
	return Report{Available: false, Backend: "none", Message: b.String(), GPUs: []GPU{}}
}
