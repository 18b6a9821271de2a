package install

import (
	"fmt"
	"os"

	"golang.org/x/sys/windows"
)

// fileID is what identifies a file on Windows beside its size and modification time: its volume's
// serial number and its file index.
func fileID(path string, _ os.FileInfo) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	var d windows.ByHandleFileInformation
	if windows.GetFileInformationByHandle(windows.Handle(f.Fd()), &d) != nil {
		return ""
	}
	return fmt.Sprintf("%x:%x%08x", d.VolumeSerialNumber, d.FileIndexHigh, d.FileIndexLow)
}
