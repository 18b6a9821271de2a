//go:build windows

package gpu

import (
	"errors"

	"golang.org/x/sys/windows"
)

// displayClass is GUID_DEVCLASS_DISPLAY, the PnP class of display adapters.
var displayClass = windows.GUID{Data1: 0x4d36e968, Data2: 0xe325, Data3: 0x11ce, Data4: [8]byte{0xbf, 0xc1, 0x08, 0x00, 0x2b, 0xe1, 0x03, 0x18}}

// systemAdapters lists the present display adapters through SetupAPI (the list Device Manager
// shows), with or without a driver.
func systemAdapters() AdapterLister { return setupAPIAdapters{} }

type setupAPIAdapters struct{}

func (setupAPIAdapters) DisplayAdapters() ([]Adapter, error) {
	set, err := windows.SetupDiGetClassDevsEx(&displayClass, "", 0, windows.DIGCF_PRESENT, 0, "")
	if err != nil {
		return nil, err
	}
	defer set.Close()
	var out []Adapter
	for i := 0; ; i++ {
		data, err := set.EnumDeviceInfo(i)
		if errors.Is(err, windows.ERROR_NO_MORE_ITEMS) {
			break
		}
		if err != nil {
			continue
		}
		var a Adapter
		ok := false
		if v, err := set.DeviceRegistryProperty(data, windows.SPDRP_HARDWAREID); err == nil {
			ids, _ := v.([]string)
			for _, id := range ids {
				if a.VendorID, a.DeviceID, ok = ParseHardwareID(id); ok {
					break
				}
			}
		}
		if !ok {
			continue
		}
		if v, err := set.DeviceRegistryProperty(data, windows.SPDRP_DEVICEDESC); err == nil {
			a.Description, _ = v.(string)
		}
		out = append(out, a)
	}
	return out, nil
}
