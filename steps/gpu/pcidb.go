package gpu

import "strings"

// pciCard is one NVIDIA PCI device id: the marketing name and the chip.
type pciCard struct {
	name string
	chip string
}

// pciCards names common NVIDIA cards by PCI device id (vendor 10DE), as the PCI ID Repository lists
// them (pci-ids.ucw.cz, pci.ids: "device  chip [name]"; the data torchruntime's gpu_pci_ids.db is
// built from, easydiffusion/torchruntime). It covers GeForce from the GTX 750 on, RTX, Quadro/RTX
// workstation and data-centre cards; a card missing here is still reported by its id and by what
// Windows calls it. TestPCITableAgreesWithPCIIDs checks every id against the pci.ids file of the
// machine (Debian's pci.ids package) where that file lists it.
//
//i18n:raw product and chip names, the same in every language
var pciCards = map[uint16]pciCard{
	// Kepler
	0x1004: {"GeForce GTX 780", "GK110"},
	0x100c: {"GeForce GTX TITAN Black", "GK110B"},
	0x102d: {"Tesla K80", "GK210GL"},
	// Maxwell
	0x1380: {"GeForce GTX 750 Ti", "GM107"},
	0x1381: {"GeForce GTX 750", "GM107"},
	0x1401: {"GeForce GTX 960", "GM206"},
	0x13c0: {"GeForce GTX 980", "GM204"},
	0x13c2: {"GeForce GTX 970", "GM204"},
	0x17c8: {"GeForce GTX 980 Ti", "GM200"},
	0x17f0: {"Quadro M6000", "GM200GL"},
	// Pascal
	0x15f8: {"Tesla P100 PCIe 16GB", "GP100GL"},
	0x1b00: {"TITAN X", "GP102"},
	0x1b02: {"TITAN Xp", "GP102"},
	0x1b06: {"GeForce GTX 1080 Ti", "GP102"},
	0x1b38: {"Tesla P40", "GP102GL"},
	0x1b80: {"GeForce GTX 1080", "GP104"},
	0x1b81: {"GeForce GTX 1070", "GP104"},
	0x1b82: {"GeForce GTX 1070 Ti", "GP104"},
	0x1b83: {"GeForce GTX 1060 6GB", "GP104"},
	0x1c02: {"GeForce GTX 1060 3GB", "GP106"},
	0x1c03: {"GeForce GTX 1060 6GB", "GP106"},
	0x1c81: {"GeForce GTX 1050", "GP107"},
	0x1c82: {"GeForce GTX 1050 Ti", "GP107"},
	0x1d01: {"GeForce GT 1030", "GP108"},
	// Volta
	0x1d81: {"TITAN V", "GV100"},
	0x1db1: {"Tesla V100 SXM2 16GB", "GV100GL"},
	0x1db4: {"Tesla V100 PCIe 16GB", "GV100GL"},
	0x1db6: {"Tesla V100 PCIe 32GB", "GV100GL"},
	// Turing
	0x1e02: {"TITAN RTX", "TU102"},
	0x1e04: {"GeForce RTX 2080 Ti", "TU102"},
	0x1e07: {"GeForce RTX 2080 Ti Rev. A", "TU102"},
	0x1e30: {"Quadro RTX 6000/8000", "TU102GL"},
	0x1e81: {"GeForce RTX 2080 SUPER", "TU104"},
	0x1e82: {"GeForce RTX 2080", "TU104"},
	0x1e84: {"GeForce RTX 2070 SUPER", "TU104"},
	0x1e87: {"GeForce RTX 2080 Rev. A", "TU104"},
	0x1eb1: {"Quadro RTX 4000", "TU104GL"},
	0x1eb8: {"Tesla T4", "TU104GL"},
	0x1f02: {"GeForce RTX 2070", "TU106"},
	0x1f03: {"GeForce RTX 2060 12GB", "TU106"},
	0x1f06: {"GeForce RTX 2060 SUPER", "TU106"},
	0x1f07: {"GeForce RTX 2070 Rev. A", "TU106"},
	0x1f08: {"GeForce RTX 2060 Rev. A", "TU106"},
	0x1f82: {"GeForce GTX 1650", "TU117"},
	0x2182: {"GeForce GTX 1660 Ti", "TU116"},
	0x2184: {"GeForce GTX 1660", "TU116"},
	0x2187: {"GeForce GTX 1650 SUPER", "TU116"},
	0x21c4: {"GeForce GTX 1660 SUPER", "TU116"},
	// Ampere
	0x20b0: {"A100 SXM4 40GB", "GA100"},
	0x20b2: {"A100 SXM4 80GB", "GA100"},
	0x20b5: {"A100 PCIe 80GB", "GA100"},
	0x20f1: {"A100 PCIe 40GB", "GA100"},
	0x2203: {"GeForce RTX 3090 Ti", "GA102"},
	0x2204: {"GeForce RTX 3090", "GA102"},
	0x2206: {"GeForce RTX 3080", "GA102"},
	0x2208: {"GeForce RTX 3080 Ti", "GA102"},
	0x2216: {"GeForce RTX 3080 Lite Hash Rate", "GA102"},
	0x2230: {"RTX A6000", "GA102GL"},
	0x2231: {"RTX A5000", "GA102GL"},
	0x2235: {"A40", "GA102GL"},
	0x2236: {"A10", "GA102GL"},
	0x2482: {"GeForce RTX 3070 Ti", "GA104"},
	0x2484: {"GeForce RTX 3070", "GA104"},
	0x2486: {"GeForce RTX 3060 Ti", "GA104"},
	0x2488: {"GeForce RTX 3070 Lite Hash Rate", "GA104"},
	0x2489: {"GeForce RTX 3060 Ti Lite Hash Rate", "GA104"},
	0x24b0: {"RTX A4000", "GA104GL"},
	0x2503: {"GeForce RTX 3060", "GA106"},
	0x2504: {"GeForce RTX 3060 Lite Hash Rate", "GA106"},
	0x2507: {"GeForce RTX 3050", "GA106"},
	0x2520: {"GeForce RTX 3060 Mobile / Max-Q", "GA106M"},
	0x25a0: {"GeForce RTX 3050 Ti Mobile", "GA107M"},
	// Ada Lovelace
	0x2684: {"GeForce RTX 4090", "AD102"},
	0x2685: {"GeForce RTX 4090 D", "AD102"},
	0x26b1: {"RTX 6000 Ada Generation", "AD102GL"},
	0x26b5: {"L40", "AD102GL"},
	0x26b9: {"L40S", "AD102GL"},
	0x2702: {"GeForce RTX 4080 SUPER", "AD103"},
	0x2704: {"GeForce RTX 4080", "AD103"},
	0x2705: {"GeForce RTX 4070 Ti SUPER", "AD103"},
	0x2782: {"GeForce RTX 4070 Ti", "AD104"},
	0x2783: {"GeForce RTX 4070 SUPER", "AD104"},
	0x2786: {"GeForce RTX 4070", "AD104"},
	0x27b8: {"L4", "AD104GL"},
	0x2803: {"GeForce RTX 4060 Ti", "AD106"},
	0x2805: {"GeForce RTX 4060 Ti 16GB", "AD106"},
	0x2860: {"GeForce RTX 4070 Max-Q / Mobile", "AD106M"},
	0x2882: {"GeForce RTX 4060", "AD107"},
	0x28e0: {"GeForce RTX 4060 Max-Q / Mobile", "AD107M"},
	// Hopper
	0x2330: {"H100 SXM5 80GB", "GH100"},
	0x2331: {"H100 PCIe", "GH100"},
	0x2335: {"H200 SXM 141GB", "GH100"},
	// Blackwell
	0x2b85: {"GeForce RTX 5090", "GB202"},
	0x2b87: {"GeForce RTX 5090 D", "GB202"},
	0x2c02: {"GeForce RTX 5080", "GB203"},
	0x2c05: {"GeForce RTX 5070 Ti", "GB203"},
	0x2d04: {"GeForce RTX 5060 Ti", "GB206"},
	0x2d05: {"GeForce RTX 5060", "GB206"},
	0x2f04: {"GeForce RTX 5070", "GB205"},
}

func lookupPCI(device uint16) (pciCard, bool) {
	c, ok := pciCards[device]
	return c, ok
}

// chipArch is the architecture and compute capability of an NVIDIA chip from its code name, as
// NVIDIA's CUDA GPUs list (developer.nvidia.com/cuda-gpus) and the CUDA C++ Programming Guide's
// compute-capability table give them: the data-centre die of a generation (GP100, GA100, GB100)
// differs from the consumer dies (GP10x, GA10x, GB20x). torchruntime reads the generation from the
// same code names (easydiffusion/torchruntime torchruntime/gpu_db.py).
func chipArch(chip string) (arch, cc string) {
	c := strings.ToUpper(chip)
	base := strings.TrimRight(strings.TrimSuffix(strings.TrimSuffix(c, "GL"), "M"), "B")
	for _, g := range chipGenerations {
		if family, ok := strings.CutSuffix(g.die, "*"); base == g.die || ok && strings.HasPrefix(c, family) {
			return g.arch, g.cc
		}
	}
	return "", ""
}

// chipGenerations are the dies in the order chipArch tries them: a die by its name without a
// variant's GL, M or B ("GK210GL" is GK210), before its family ("GK*": any other die named so).
//
//i18n:raw architecture names are NVIDIA's product names, the same in every language
var chipGenerations = []struct{ die, arch, cc string }{
	{"GK210", "Kepler", "3.7"},
	{"GK110", "Kepler", "3.5"},
	{"GK*", "Kepler", "3.0"},
	{"GM107", "Maxwell", "5.0"},
	{"GM108", "Maxwell", "5.0"},
	{"GM*", "Maxwell", "5.2"},
	{"GP100", "Pascal", "6.0"},
	{"GP*", "Pascal", "6.1"},
	{"GV*", "Volta", "7.0"},
	{"TU*", "Turing", "7.5"},
	{"GA100", "Ampere", "8.0"},
	{"GA*", "Ampere", "8.6"},
	{"AD*", "Ada Lovelace", "8.9"},
	{"GH*", "Hopper", "9.0"},
	{"GB100", "Blackwell", "10.0"},
	{"GB102", "Blackwell", "10.0"},
	{"GB2*", "Blackwell", "12.0"},
}
