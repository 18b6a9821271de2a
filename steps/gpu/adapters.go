package gpu

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gpuwiz/steps/i18n"
)

// Adapter is one NVIDIA display device the operating system lists on the PCI bus, whether or not
// a driver runs it: on a new Windows 10 machine the card is there (as "Microsoft Basic Display
// Adapter") before NVIDIA's driver is.
type Adapter struct {
	VendorID uint16 `json:"vendor_id"`
	DeviceID uint16 `json:"device_id"`
	// Description is what the operating system calls it ("Microsoft Basic Display Adapter", or the
	// card's name once a driver is installed); "" when it gives none.
	Description string `json:"description,omitempty"`
	// Name, Chip, Architecture and ComputeCapability come from gpuwiz's table of PCI device ids;
	// "" when the id is not in it.
	Name              string `json:"name,omitempty"`
	Chip              string `json:"chip,omitempty"`
	Architecture      string `json:"architecture,omitempty"`
	ComputeCapability string `json:"compute_capability,omitempty"`
}

// nvidiaVendor is NVIDIA's PCI vendor id (VEN_10DE).
const nvidiaVendor = 0x10de

// AdapterLister lists the display adapters of the machine: SetupAPI's display class on Windows,
// /sys/bus/pci on Linux. Tests give a fixed list.
type AdapterLister interface {
	DisplayAdapters() ([]Adapter, error)
}

// nvidiaAdapters keeps NVIDIA's adapters, each named from the device-id table.
func nvidiaAdapters(l AdapterLister) []Adapter {
	if l == nil {
		return nil
	}
	all, err := l.DisplayAdapters()
	if err != nil {
		return nil
	}
	var out []Adapter
	for _, a := range all {
		if a.VendorID != nvidiaVendor {
			continue
		}
		out = append(out, Identify(a))
	}
	return out
}

// Identify fills Name, Chip, Architecture and ComputeCapability from the device id.
func Identify(a Adapter) Adapter {
	if c, ok := lookupPCI(a.DeviceID); ok {
		a.Name, a.Chip = c.name, c.chip
		a.Architecture, a.ComputeCapability = chipArch(c.chip)
	}
	return a
}

// Label names the adapter for a person: its name from the table, else what the OS calls it, with
// its PCI id.
func (a Adapter) Label() string {
	id := fmt.Sprintf("PCI %04X:%04X", a.VendorID, a.DeviceID)
	switch {
	case a.Name != "" && a.ComputeCapability != "":
		return i18n.T("gpu.adapter.known", i18n.D{"Name": a.Name, "Arch": a.Architecture, "CC": a.ComputeCapability, "ID": id})
	case a.Description != "":
		return i18n.T("gpu.adapter.unknown", i18n.D{"Name": a.Description, "ID": id})
	}
	return i18n.T("gpu.adapter.unnamed", i18n.D{"ID": id})
}

// ParseHardwareID reads the vendor and device of a PnP hardware id,
// "PCI\VEN_10DE&DEV_2504&SUBSYS_397D1462&REV_A1".
func ParseHardwareID(id string) (vendor, device uint16, ok bool) {
	up := strings.ToUpper(id)
	if !strings.HasPrefix(up, `PCI\`) {
		return 0, 0, false
	}
	var v, d string
	for _, part := range strings.Split(up[4:], "&") {
		switch {
		case strings.HasPrefix(part, "VEN_"):
			v = part[4:]
		case strings.HasPrefix(part, "DEV_"):
			d = part[4:]
		}
	}
	vv, err1 := strconv.ParseUint(v, 16, 16)
	dd, err2 := strconv.ParseUint(d, 16, 16)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return uint16(vv), uint16(dd), true
}

// sysfsAdapters lists the display-class PCI devices (class 0x03xxxx) under a /sys/bus/pci/devices.
type sysfsAdapters string

func (root sysfsAdapters) DisplayAdapters() ([]Adapter, error) {
	dirs, err := filepath.Glob(filepath.Join(string(root), "*"))
	if err != nil {
		return nil, err
	}
	var out []Adapter
	for _, d := range dirs {
		class, _ := os.ReadFile(filepath.Join(d, "class"))
		if !strings.HasPrefix(strings.TrimSpace(string(class)), "0x03") {
			continue
		}
		v, err1 := readHex16(filepath.Join(d, "vendor"))
		dev, err2 := readHex16(filepath.Join(d, "device"))
		if err1 != nil || err2 != nil {
			continue
		}
		out = append(out, Adapter{VendorID: v, DeviceID: dev})
	}
	return out, nil
}

func readHex16(path string) (uint16, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseUint(strings.TrimPrefix(strings.TrimSpace(string(b)), "0x"), 16, 16)
	return uint16(n), err
}
