package install

import (
	"strings"

	"golang.org/x/sys/windows"
)

type osFreeSpace struct{}

// Free is GetDiskFreeSpaceEx's bytes free to this user (quotas included); the volume is the
// folder's volume mount point (C:\).
func (osFreeSpace) Free(dir string) (uint64, string, error) {
	p, err := windows.UTF16PtrFromString(dir)
	if err != nil {
		return 0, "", err
	}
	var free, total, totalFree uint64
	if err := windows.GetDiskFreeSpaceEx(p, &free, &total, &totalFree); err != nil {
		return 0, "", err
	}
	buf := make([]uint16, windows.MAX_PATH+1)
	vol := dir
	if windows.GetVolumePathName(p, &buf[0], uint32(len(buf))) == nil {
		vol = windows.UTF16ToString(buf)
	}
	return free, strings.ToLower(vol), nil
}
