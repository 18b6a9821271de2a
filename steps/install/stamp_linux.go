package install

import (
	"fmt"
	"os"
	"syscall"
)

// fileID is what identifies a file on Linux beside its size and modification time: its device and
// inode, and its change time (which a write updates even when the modification time is set back).
func fileID(_ string, fi os.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	return fmt.Sprintf("%x:%x:%d.%09d", st.Dev, st.Ino, st.Ctim.Sec, st.Ctim.Nsec)
}
