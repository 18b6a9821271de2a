package driver

import (
	"time"

	"golang.org/x/sys/windows"
	"golang.org/x/sys/windows/registry"
)

// RebootPending says whether Windows waits for a restart to finish an earlier install: the keys
// Windows itself sets for that (Component Based Servicing\RebootPending, Windows Update's
// RebootRequired), as Microsoft's and the public pending-reboot checks read them.
func RebootPending() bool {
	for _, k := range []string{
		`SOFTWARE\Microsoft\Windows\CurrentVersion\Component Based Servicing\RebootPending`,  //i18n:raw a registry key
		`SOFTWARE\Microsoft\Windows\CurrentVersion\WindowsUpdate\Auto Update\RebootRequired`, //i18n:raw a registry key
	} {
		if key, err := registry.OpenKey(registry.LOCAL_MACHINE, k, registry.QUERY_VALUE); err == nil {
			_ = key.Close()
			return true
		}
	}
	return false
}

// BootTime is when Windows last started.
func BootTime() time.Time {
	return time.Now().Add(-windows.DurationSinceBoot())
}
