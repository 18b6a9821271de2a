package gpu

import "gpuwiz/steps/i18n"

// noDriverReport is the normal answer on a machine without a working NVIDIA driver.
// looked lists what was tried, each with why it gave nothing.
func noDriverReport(looked []string, pciNVIDIA int) Report {
	list := i18n.JoinClauses(looked)
	msg := i18n.T("gpu.no_driver", i18n.D{"Looked": list})
	if pciNVIDIA > 0 {
		msg = i18n.N("gpu.no_driver_pci", pciNVIDIA, i18n.D{"Looked": list})
	}
	return Report{Available: false, Backend: "none", Message: msg, GPUs: []GPU{}}
}
