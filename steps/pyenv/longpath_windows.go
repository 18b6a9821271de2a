//go:build windows

package pyenv

import "golang.org/x/sys/windows/registry"

// ReadLongPaths reads LongPathsEnabled from the registry's 64-bit view.
func ReadLongPaths() LongPaths {
	k, err := registry.OpenKey(registry.LOCAL_MACHINE, `SYSTEM\CurrentControlSet\Control\FileSystem`, registry.QUERY_VALUE|registry.WOW64_64KEY)
	if err != nil {
		return LongPaths{}
	}
	defer k.Close()
	v, _, err := k.GetIntegerValue("LongPathsEnabled")
	if err != nil {
		return LongPaths{}
	}
	return LongPaths{Known: true, Enabled: v == 1}
}
