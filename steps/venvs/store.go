// Package venvs keeps the short list of venvs gpuwiz created, installed into or repaired (in the
// user config dir, venvs.json), and finds the other environments a user may mean ($VIRTUAL_ENV,
// ./venv, ./.venv, conda's), each with what it holds read from its files, never by importing it.
package venvs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/gofrs/flock"

	"gpuwiz/steps/atomicfile"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/jsonfile"
	"gpuwiz/steps/pyenv"
)

// MaxEntries bounds the list: the oldest entries go first.
const MaxEntries = 50

// Entry is one venv gpuwiz worked on, as of its last run there.
type Entry struct {
	Path             string    `json:"path"`
	Framework        string    `json:"framework,omitempty"` // "torch", "paddle"; "" when none is installed
	FrameworkVersion string    `json:"framework_version,omitempty"`
	Channel          string    `json:"channel,omitempty"` // "cu126", "cpu"; "" when unknown
	Python           string    `json:"python,omitempty"`  // "3.12.8", from pyvenv.cfg
	Action           string    `json:"action"`            // "install", "repair"
	Result           string    `json:"result"`            // the run's result in its own words: "installed", "restored", "repaired", "repair failed"
	OK               bool      `json:"ok"`
	When             time.Time `json:"when"`
}

// file is venvs.json.
type file struct {
	Schema int     `json:"schema"`
	Venvs  []Entry `json:"venvs"`
}

const schema = 1

// Store is the list at Path.
type Store struct {
	Path string
	GOOS string // "" means the running OS: decides whether paths compare case-insensitively
}

// DefaultPath is venvs.json in the user config dir (%AppData%\gpuwiz on Windows,
// $XDG_CONFIG_HOME/gpuwiz or ~/.config/gpuwiz on Linux).
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", i18n.Wrap(err, i18n.T("venvs.store.no_config_dir", i18n.D{"Err": err}))
	}
	return filepath.Join(dir, "gpuwiz", "venvs.json"), nil
}

// Default is the store at DefaultPath.
func Default() (Store, error) {
	p, err := DefaultPath()
	return Store{Path: p}, err
}

func (s Store) goos() string {
	if s.GOOS == "" {
		return runtime.GOOS
	}
	return s.GOOS
}

// key is what makes two paths the same venv: absolute, cleaned, case-folded on Windows.
func (s Store) key(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	p = strings.TrimRight(filepath.Clean(p), `\/`)
	if s.goos() == "windows" {
		p = strings.ToLower(p)
	}
	return p
}

// Load reads the list as stored, newest first. A missing file is an empty list. Fields this gpuwiz
// does not know (a newer one wrote them) are ignored and named in warning; a file that is not the
// list at all is an error naming it.
func (s Store) Load() (list []Entry, warning string, err error) {
	data, err := os.ReadFile(s.Path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", i18n.Wrap(err, i18n.T("venvs.store.unreadable", i18n.D{"Path": s.Path, "Err": err}))
	}
	var f file
	unknown, err := jsonfile.Decode(data, &f)
	if err != nil {
		return nil, "", errors.New(i18n.T("venvs.store.damaged", i18n.D{"Path": s.Path, "Err": err}))
	}
	for _, e := range f.Venvs {
		if strings.TrimSpace(e.Path) != "" {
			list = append(list, e)
		}
	}
	return list, jsonfile.Warning(s.Path, unknown), nil
}

// List is Load without the venvs that no longer exist; when it drops some, the file is rewritten.
func (s Store) List(ctx context.Context) ([]Entry, string, error) {
	list, warning, err := s.Load()
	if err != nil {
		return nil, warning, err
	}
	kept := slices.DeleteFunc(slices.Clone(list), func(e Entry) bool { return !(pyenv.Venv{Root: e.Path}).Exists() })
	if len(kept) == len(list) {
		return kept, warning, nil
	}
	err = s.update(ctx, func(cur []Entry) []Entry {
		return slices.DeleteFunc(cur, func(e Entry) bool { return !(pyenv.Venv{Root: e.Path}).Exists() })
	})
	return kept, warning, err
}

// Record puts e first in the list, replacing the entry for the same venv. A damaged list is
// replaced by one holding e, its old content kept beside it as venvs.json.bad.
func (s Store) Record(ctx context.Context, e Entry) error {
	if e.When.IsZero() {
		e.When = time.Now().UTC()
	}
	if abs, err := filepath.Abs(e.Path); err == nil {
		e.Path = abs
	}
	k := s.key(e.Path)
	return s.update(ctx, func(cur []Entry) []Entry {
		cur = slices.DeleteFunc(cur, func(o Entry) bool { return s.key(o.Path) == k })
		cur = append([]Entry{e}, cur...)
		if len(cur) > MaxEntries {
			cur = cur[:MaxEntries]
		}
		return cur
	})
}

// Forget drops the entry for path (a venv removed again after a failed first install).
func (s Store) Forget(ctx context.Context, path string) error {
	k := s.key(path)
	if list, _, err := s.Load(); err == nil && !slices.ContainsFunc(list, func(o Entry) bool { return s.key(o.Path) == k }) {
		return nil // not on the list: nothing to write
	}
	return s.update(ctx, func(cur []Entry) []Entry {
		return slices.DeleteFunc(cur, func(o Entry) bool { return s.key(o.Path) == k })
	})
}

// update is one read-modify-write under a file lock, so two gpuwiz runs never lose each other's
// entry; the new list replaces the old one by rename, so a reader never sees half a file.
func (s Store) update(ctx context.Context, change func([]Entry) []Entry) error {
	if err := os.MkdirAll(filepath.Dir(s.Path), 0o755); err != nil {
		return i18n.Wrap(err, i18n.T("venvs.store.no_dir", i18n.D{"Err": err}))
	}
	lock := flock.New(s.Path + ".lock")
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	ok, err := lock.TryLockContext(ctx, 50*time.Millisecond)
	if err != nil || !ok {
		return errors.New(i18n.T("venvs.store.lock", i18n.D{"Path": s.Path, "Err": fmt.Sprint(err)}))
	}
	defer lock.Unlock()
	cur, _, err := s.Load()
	if err != nil {
		if data, rerr := os.ReadFile(s.Path); rerr == nil {
			_ = os.WriteFile(s.Path+".bad", data, 0o644)
		}
		cur = nil
	}
	return s.write(change(cur))
}

func (s Store) write(list []Entry) error {
	if list == nil {
		list = []Entry{}
	}
	data, err := json.MarshalIndent(file{Schema: schema, Venvs: list}, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.Durable(s.Path, append(data, '\n'), 0o644); err != nil {
		return i18n.Wrap(err, i18n.T("venvs.store.write", i18n.D{"Err": err}))
	}
	return nil
}
