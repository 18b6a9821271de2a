package driver

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"

	"github.com/pelletier/go-toml/v2"

	"gpuwiz/matrix"
)

// Release is one NVIDIA driver: its version and installer.
type Release struct {
	Branch   string `toml:"branch" json:"branch"`
	Family   Family `toml:"family" json:"family"`
	Form     Form   `toml:"form" json:"form"`
	OS       string `toml:"os" json:"os"`
	Version  string `toml:"version" json:"version"`
	Released string `toml:"released" json:"released,omitempty"`
	File     string `toml:"file" json:"file"`
	URL      string `toml:"url" json:"url"`
	Source   string `toml:"source" json:"source,omitempty"` // public references
	// Size is the installer's size in bytes when the lookup service gave it; 0 unknown.
	Size int64 `toml:"-" json:"size,omitempty"`
}

// Table is the embedded list of the newest driver per branch, family and form.
type Table struct {
	Drivers []Release `toml:"driver"`
}

//go:embed drivers.toml
var embeddedTable []byte

// EmbeddedTable is the table gpuwiz carries; it is checked by TestEmbeddedTable.
func EmbeddedTable() (Table, error) { return ParseTable(embeddedTable) }

// ParseTable reads a table and checks every row.
func ParseTable(data []byte) (Table, error) {
	var t Table
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&t); err != nil {
		return Table{}, err
	}
	for i, r := range t.Drivers {
		if err := r.check(); err != nil {
			return Table{}, fmt.Errorf("driver %d (%s): %w", i+1, r.Version, err)
		}
	}
	return t, nil
}

// check is TestEmbeddedTable's and a developer's check of a row.
//
//i18n:raw a broken built-in table is a broken build, for its developers (the tests catch it first)
func (r Release) check() error {
	switch {
	case matrix.ValidateDriverVersion(r.Version) != nil:
		return errors.New("bad version")
	case BranchOf(r.Version) != r.Branch:
		return fmt.Errorf("version is of branch %s, not %s", BranchOf(r.Version), r.Branch)
	case r.OS != "windows" && r.OS != "linux":
		return errors.New("os must be windows or linux")
	case r.File == "" || r.URL == "" || r.Source == "":
		return errors.New("file, url and source are required")
	case r.Form != Desktop && r.Form != Notebook && r.Form != AnyForm:
		return errors.New("form must be desktop, notebook or any")
	}
	switch r.Family {
	case GeForce, Studio, RTX, LinuxRun:
	default:
		return fmt.Errorf("unknown family %q", r.Family)
	}
	return nil
}

// Newest is the newest row for goos, family and form within branch limit ("" none). A row of form
// "any" serves every form.
func (t Table) Newest(goos string, family Family, form Form, limit string) (Release, bool) {
	var best Release
	found := false
	for _, r := range t.Drivers {
		if r.OS != goos || r.Family != family || (r.Form != form && r.Form != AnyForm && form != AnyForm) {
			continue
		}
		if !WithinBranch(r.Version, limit) {
			continue
		}
		if !found || matrix.DriverLess(best.Version, r.Version) {
			best, found = r, true
		}
	}
	return best, found
}
