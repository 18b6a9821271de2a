package gpu

import "gpuwiz/steps/i18n"

// noDriverReport is the normal answer on a machine without a working NVIDIA driver.
// looked is what was tried, each with why it gave nothing; cards are the NVIDIA display devices
// the operating system lists all the same, named from their PCI ids.
func noDriverReport(looked []Attempt, cards []Adapter) Report {
	var words []string
	for _, a := range looked {
		words = append(words, a.Label())
	}
	list := i18n.JoinClauses(words)
	msg := i18n.T("gpu.no_driver", i18n.D{"Looked": list})
	if len(cards) > 0 {
		var names []string
		for _, a := range cards {
			names = append(names, a.Label())
		}
		msg = i18n.N("gpu.no_driver_pci", len(cards), i18n.D{"Looked": list, "Cards": i18n.Join(names)})
	}
	return Report{Available: false, Backend: "none", Message: msg, GPUs: []GPU{}, Adapters: cards, LookedFor: looked}
}
