package envroot

import "golang.org/x/sys/windows"

// shortOf is p's 8.3 name, "" when the file system keeps none.
func shortOf(p string) string {
	from, err := windows.UTF16PtrFromString(p)
	if err != nil {
		return ""
	}
	buf := make([]uint16, 1024)
	n, err := windows.GetShortPathName(from, &buf[0], uint32(len(buf)))
	if err != nil || n == 0 {
		return ""
	}
	return windows.UTF16ToString(buf[:n])
}
