//go:build !windows

package install

import (
	"strconv"

	"golang.org/x/sys/unix"
)

type osFreeSpace struct{}

// Free is statfs's blocks available to an unprivileged user; the volume is the filesystem's id.
func (osFreeSpace) Free(dir string) (uint64, string, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, "", err
	}
	var dev unix.Stat_t
	id := ""
	if err := unix.Stat(dir, &dev); err == nil {
		id = strconv.FormatUint(uint64(dev.Dev), 10)
	}
	return uint64(st.Bavail) * uint64(st.Bsize), id, nil
}
