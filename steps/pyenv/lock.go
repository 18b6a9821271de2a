package pyenv

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gpuwiz/steps/i18n"
)

// ErrLocked is wrapped by Lock's error when another process holds the venv.
// Its own words are for errors.Is only; the error shown is pyenv.lock.held.
var ErrLocked = errors.New("venv is locked") //i18n:raw a sentinel; the text shown comes from the catalog

// LockPath is the lock file for the venv at root: in gpuwiz's cache dir, named by a hash of the
// absolute path, so a venv can be locked before it exists and no file is left beside it.
func LockPath(root string) string {
	abs, err := filepath.Abs(root)
	if err != nil {
		abs = root
	}
	abs = strings.TrimRight(abs, `\/`)
	if goosRuntime == "windows" {
		abs = strings.ToLower(abs)
	}
	sum := sha256.Sum256([]byte(abs))
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "gpuwiz", "locks", hex.EncodeToString(sum[:8])+".lock")
}

// Lock takes an OS file lock so two gpuwiz runs never work on one venv; the lock dies with the
// process, so a crash leaves nothing stale. The held error names the holder's pid.
func Lock(root string) (unlock func() error, err error) {
	path := LockPath(root)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, i18n.Wrap(err, i18n.T("pyenv.lock.no_dir", i18n.D{"Err": err}))
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, i18n.Wrap(err, i18n.T("pyenv.lock.no_file", i18n.D{"Path": path, "Err": err}))
	}
	if err := lockFile(f); err != nil {
		holder := readHolder(path)
		f.Close()
		if errors.Is(err, errWouldBlock) {
			return nil, i18n.Wrap(ErrLocked, i18n.T("pyenv.lock.held", i18n.D{"PID": holder, "Venv": root}))
		}
		return nil, i18n.Wrap(err, i18n.T("pyenv.lock.failed", i18n.D{"Path": path, "Err": err}))
	}
	_ = f.Truncate(0)
	_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	_ = f.Sync()
	return func() error {
		_ = f.Truncate(0)
		err := unlockFile(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	}, nil
}

var errWouldBlock = errors.New("lock held") //i18n:raw a sentinel between this file and lock_*.go, never shown

func readHolder(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return i18n.T("pyenv.lock.unknown_pid")
	}
	if s := strings.TrimSpace(string(b)); s != "" {
		return s
	}
	return i18n.T("pyenv.lock.unknown_pid")
}
