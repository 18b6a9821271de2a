//go:build windows

package netproxy

import (
	"strconv"
	"strings"

	"golang.org/x/sys/windows/registry"
)

// ReadSystem reads the system proxy of the current user from the registry; nil when the key cannot
// be opened. ProxyEnable may be a DWORD or a string ("1"), as requests allows.
func ReadSystem() *System {
	k, err := registry.OpenKey(registry.CURRENT_USER, InternetSettings, registry.QUERY_VALUE)
	if err != nil {
		return nil
	}
	defer k.Close()
	var s System
	if v, _, err := k.GetIntegerValue("ProxyEnable"); err == nil {
		s.Enable = v != 0
	} else if v, _, err := k.GetStringValue("ProxyEnable"); err == nil {
		n, _ := strconv.Atoi(strings.TrimSpace(v))
		s.Enable = n != 0
	}
	s.Server, _, _ = k.GetStringValue("ProxyServer")
	s.Override, _, _ = k.GetStringValue("ProxyOverride")
	return &s
}
