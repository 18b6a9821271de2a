package venvs

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"gpuwiz/steps/install"
)

// StateFolder is what gpuwiz keeps in a venv's state folder (.gpuwiz): the snapshots of past runs,
// the backup of a run that has not ended (or could not put everything back), and the journal.
type StateFolder struct {
	Dir       string `json:"dir"`
	Snapshots int    `json:"snapshots"`        // runs whose freeze and folder listing are kept
	Backups   int    `json:"backups"`          // backup folders (an unfinished run's, or a failed restore's)
	Journal   bool   `json:"journal"`          // the journal of the last run is there
	Bytes     int64  `json:"bytes"`            // what the folder takes on disk of its own
	Shared    int64  `json:"shared,omitempty"` // backup files that are hard links to files of the venv (no extra room)
	Files     int    `json:"files"`            // files in it, all told
}

// ReadState looks at root's state folder; nil when there is none.
func ReadState(root string) *StateFolder {
	dir := filepath.Join(root, ".gpuwiz")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	s := &StateFolder{Dir: dir}
	for _, en := range entries {
		name := en.Name()
		switch {
		case en.IsDir() && strings.HasPrefix(name, "backup-"):
			s.Backups++
		case strings.HasPrefix(name, "snapshot-") && strings.HasSuffix(name, ".txt"):
			s.Snapshots++
		case name == install.JournalName:
			s.Journal = true
		}
	}
	_ = filepath.WalkDir(dir, func(p string, de fs.DirEntry, err error) error {
		if err != nil || de.IsDir() {
			return nil
		}
		info, err := de.Info()
		if err != nil {
			return nil
		}
		s.Files++
		if linkCount(info) > 1 {
			s.Shared += info.Size()
		} else {
			s.Bytes += info.Size()
		}
		return nil
	})
	return s
}
