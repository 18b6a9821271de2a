//go:build !windows

package venvs

import (
	"io/fs"
	"syscall"
)

// linkCount is how many names the file has (a hard-linked backup shares its data with the venv).
func linkCount(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
