// Package atomicfile is gpuwiz's one way to replace a file's contents: the new bytes go to a new
// temporary file beside it (never through a link left at either name), which is then renamed over
// the file, so a reader sees the old contents or the new, never a part. One durability rule:
// Durable also flushes the file and the rename to the disk before it returns, for the files a run
// reads back after a power loss (the journal of an install, the list of venvs); Write leaves that
// to the system, for the files that are only a cache of what can be found again.
package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
)

// Write replaces path with data (perm for a new file), creating its folder.
func Write(path string, data []byte, perm os.FileMode) error { return write(path, data, perm, false) }

// Durable is Write, with the file and the rename flushed to the disk before it returns.
func Durable(path string, data []byte, perm os.FileMode) error { return write(path, data, perm, true) }

func write(path string, data []byte, perm os.FileMode, sync bool) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	var serr error
	if sync && werr == nil {
		serr = tmp.Sync()
	}
	cerr := tmp.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Chmod(tmp.Name(), perm); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if sync {
		if d, err := os.Open(dir); err == nil {
			_ = d.Sync() // the rename itself survives a power loss (a no-op where folders cannot be synced)
			d.Close()
		}
	}
	return nil
}
