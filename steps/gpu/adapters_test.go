package gpu

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A card with no driver is named from its PCI device id, with its architecture and compute
// capability; other vendors' adapters are left out; an unknown id still gets Windows' name for it.
func TestNoDriverNamesTheCardFromItsPCIID(t *testing.T) {
	list := AdapterList{
		{VendorID: 0x8086, DeviceID: 0x3e92, Description: "Intel(R) UHD Graphics 630"},
		{VendorID: 0x10de, DeviceID: 0x2504, Description: "Microsoft Basic Display Adapter"},
		{VendorID: 0x10de, DeviceID: 0x2b85},
		{VendorID: 0x10de, DeviceID: 0x1234, Description: "Microsoft Basic Display Adapter"},
	}
	r, err := newChain([]namedProber{{"NVML", failingProber{}}}, list).Probe(context.Background())
	if err != nil || r.Available || len(r.Adapters) != 3 {
		t.Fatalf("report %+v, %v", r, err)
	}
	if len(r.LookedFor) != 1 || r.LookedFor[0].Backend != "NVML" || r.LookedFor[0].Why != ErrNoGPU.Error() {
		t.Errorf("looked for %+v, want the one NVML attempt with its error", r.LookedFor)
	}
	if a := r.Adapters[0]; a.Name != "GeForce RTX 3060 Lite Hash Rate" || a.Chip != "GA106" || a.Architecture != "Ampere" || a.ComputeCapability != "8.6" {
		t.Errorf("RTX 3060: %+v", a)
	}
	if a := r.Adapters[1]; a.Name != "GeForce RTX 5090" || a.ComputeCapability != "12.0" {
		t.Errorf("RTX 5090: %+v", a)
	}
	for _, want := range []string{"3 NVIDIA display devices", "NVIDIA GeForce RTX 3060 Lite Hash Rate (Ampere, compute capability 8.6; PCI 10DE:2504)",
		"NVIDIA GeForce RTX 5090 (Blackwell, compute capability 12.0; PCI 10DE:2B85)", `shown as "Microsoft Basic Display Adapter" (PCI 10DE:1234)`, "https://www.nvidia.com/Download/index.aspx"} {
		if !strings.Contains(r.Message, want) {
			t.Errorf("message lacks %q:\n%s", want, r.Message)
		}
	}
}

type failingProber struct{}

func (failingProber) Probe(context.Context) (Report, error)    { return Report{}, ErrNoGPU }
func (failingProber) Sample(context.Context) ([]Sample, error) { return nil, ErrNoGPU }

func TestChipArchitectures(t *testing.T) {
	for chip, want := range map[string]string{
		"GK210GL": "3.7", "GK110B": "3.5", "GM107": "5.0", "GM204": "5.2", "GP100GL": "6.0", "GP102": "6.1",
		"GV100GL": "7.0", "TU116": "7.5", "GA100": "8.0", "GA102GL": "8.6", "GA106M": "8.6", "AD107M": "8.9",
		"GH100": "9.0", "GB100": "10.0", "GB202": "12.0", "XY123": "",
	} {
		if _, cc := chipArch(chip); cc != want {
			t.Errorf("%s: %q, want %q", chip, cc, want)
		}
	}
	for id, c := range pciCards {
		if _, cc := chipArch(c.chip); cc == "" {
			t.Errorf("%04x %s: chip %s has no architecture", id, c.name, c.chip)
		}
	}
}

func TestParseHardwareID(t *testing.T) {
	v, d, ok := ParseHardwareID(`PCI\VEN_10DE&DEV_2504&SUBSYS_397D1462&REV_A1`)
	if !ok || v != 0x10de || d != 0x2504 {
		t.Errorf("%x %x %v", v, d, ok)
	}
	for _, bad := range []string{`ROOT\BasicDisplay`, `PCI\VEN_XYZ&DEV_1`, ""} {
		if _, _, ok := ParseHardwareID(bad); ok {
			t.Errorf("%q parsed", bad)
		}
	}
}

// Linux reads the same list from /sys/bus/pci (class 0x03xxxx only).
func TestSysfsAdapters(t *testing.T) {
	root := t.TempDir()
	for name, files := range map[string][3]string{
		"0000:01:00.0": {"0x10de", "0x2684", "0x030000"},
		"0000:01:00.1": {"0x10de", "0x22ba", "0x040300"}, // its audio function
		"0000:00:02.0": {"0x8086", "0x3e92", "0x030000"},
	} {
		d := filepath.Join(root, name)
		must(t, os.MkdirAll(d, 0o755))
		for i, f := range []string{"vendor", "device", "class"} {
			must(t, os.WriteFile(filepath.Join(d, f), []byte(files[i]+"\n"), 0o644))
		}
	}
	got := nvidiaAdapters(sysfsAdapters(root))
	if len(got) != 1 || got[0].Name != "GeForce RTX 4090" || got[0].ComputeCapability != "8.9" {
		t.Fatalf("%+v", got)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// Every id of the table that the machine's pci.ids lists (Debian's pci.ids package) has the same
// chip and a name that pci.ids' name contains ("GeForce RTX 3060" in "GA106 [GeForce RTX 3060]").
// Newer cards than the file are left out.
func TestPCITableAgreesWithPCIIDs(t *testing.T) {
	var data []byte
	for _, p := range []string{"/usr/share/misc/pci.ids", "/usr/share/hwdata/pci.ids"} {
		if b, err := os.ReadFile(p); err == nil {
			data = b
			break
		}
	}
	if data == nil {
		t.Skip("no pci.ids here (apt-get install pci.ids)")
	}
	listed := map[uint16]string{}
	in := false
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasPrefix(line, "10de "):
			in = true
		case in && line != "" && !strings.HasPrefix(line, "\t") && !strings.HasPrefix(line, "#"):
			in = false
		case in && strings.HasPrefix(line, "\t") && !strings.HasPrefix(line, "\t\t") && len(line) > 7:
			var id uint16
			if _, err := fmt.Sscanf(line[1:5], "%04x", &id); err == nil {
				listed[id] = strings.TrimSpace(line[5:])
			}
		}
	}
	checked := 0
	for id, c := range pciCards {
		real, ok := listed[id]
		if !ok {
			continue
		}
		checked++
		chip, name, _ := strings.Cut(real, "[")
		if strings.TrimSpace(chip) != c.chip || !strings.Contains(strings.ToLower(name), strings.ToLower(c.name)) {
			t.Errorf("%04x: table %q %q, pci.ids %q", id, c.chip, c.name, real)
		}
	}
	if checked < 50 {
		t.Errorf("only %d ids checked", checked)
	}
}

// The "looked for" list names every place findSMI looks: on Windows the driver's folders after PATH.
func TestSMIIsNamedWhereItIsLookedFor(t *testing.T) {
	if got := smiWhere("windows"); !strings.Contains(got, "System32") || !strings.Contains(got, `NVIDIA Corporation\NVSMI`) {
		t.Errorf("windows: %q", got)
	}
	if got := smiWhere("linux"); got != "nvidia-smi (on PATH)" {
		t.Errorf("linux: %q", got)
	}
}

// AdapterList is a fixed list.
type AdapterList []Adapter

func (l AdapterList) DisplayAdapters() ([]Adapter, error) { return l, nil }
