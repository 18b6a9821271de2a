package doctor

import (
	"io/fs"
	"os"
)

// FS reads the machine's files by their OS paths (PATH directories, pip config files, the lock file).
type FS interface {
	ReadDir(path string) ([]fs.DirEntry, error)
	ReadFile(path string) ([]byte, error)
	Stat(path string) (fs.FileInfo, error)
}

// OSFS is the real filesystem.
type OSFS struct{}

func (OSFS) ReadDir(p string) ([]fs.DirEntry, error) { return os.ReadDir(p) }
func (OSFS) ReadFile(p string) ([]byte, error)       { return os.ReadFile(p) }
func (OSFS) Stat(p string) (fs.FileInfo, error)      { return os.Stat(p) }
