package matrix

import (
	"fmt"

	"github.com/hashicorp/go-version"

	"gpuwiz/steps/i18n"
)

// WindowsRow is what a range of framework releases needs of a Windows machine beyond the driver:
// the VC++ runtime (msvcp140.dll) its DLLs were built against, and how deep its files go below the
// environment's root. A row holds from its release on, up to the next row of the same framework.
type WindowsRow struct {
	Framework string `toml:"framework" json:"framework"` // "torch", "paddle"
	From      string `toml:"from" json:"from"`           // the first release it holds for, "2.9.0"
	// MSVCP140 is the oldest msvcp140.dll (major.minor, "14.40") the release's DLLs load with.
	MSVCP140 string `toml:"msvcp140" json:"msvcp140"`
	// LongestPath is the longest file path below the environment's root (Lib\site-packages\...), in
	// characters, when known; 0: not recorded (gpuwiz then reads it from the wheels' file lists).
	LongestPath int    `toml:"longest_path" json:"longest_path,omitempty"`
	Source      string `toml:"source" json:"source"` // public references only
	Verified    bool   `toml:"verified" json:"verified"`
	Note        string `toml:"note" json:"note,omitempty"`
	NoteZh      string `toml:"note_zh" json:"note_zh,omitempty"`
}

// LocalNote is the row's note in the current language.
func (r WindowsRow) LocalNote() string { return i18n.Local(r.Note, r.NoteZh) }

// WindowsNeeds is the row that holds for framework at release v ("2.11.0", "2.11.0+cu128"): the
// one with the highest from at or below v; ok is false when no row covers it.
func (m *Matrix) WindowsNeeds(framework, v string) (WindowsRow, bool) {
	want, err := version.NewVersion(stripLocal(v))
	if m == nil || err != nil {
		return WindowsRow{}, false
	}
	var best *WindowsRow
	var bestFrom *version.Version
	for i := range m.Windows {
		r := &m.Windows[i]
		from, err := version.NewVersion(r.From)
		if r.Framework != framework || err != nil || from.GreaterThan(want) {
			continue
		}
		if best == nil || from.GreaterThan(bestFrom) {
			best, bestFrom = r, from
		}
	}
	if best == nil {
		return WindowsRow{}, false
	}
	return *best, true
}

// OldestWindowsRuntime is the lowest msvcp140 any row asks for ("" when none): what every
// framework build needs at least.
func (m *Matrix) OldestWindowsRuntime() string {
	low := ""
	for _, r := range m.Windows {
		if low == "" || versionLess(r.MSVCP140, low) {
			low = r.MSVCP140
		}
	}
	return low
}

func stripLocal(v string) string {
	for i, c := range v {
		if c == '+' {
			return v[:i]
		}
	}
	return v
}

func versionLess(a, b string) bool {
	va, ea := version.NewVersion(a)
	vb, eb := version.NewVersion(b)
	return ea == nil && eb == nil && va.LessThan(vb)
}

func (v *validator) windowsRows(rows []WindowsRow) {
	seen := map[string]bool{}
	for i, r := range rows {
		p := fmt.Sprintf("windows_runtime[%d]", i)
		if r.Framework != "torch" && r.Framework != "paddle" {
			v.add(p+".framework", i18n.T("matrix.check.windows_framework", i18n.D{"Framework": r.Framework}))
		}
		if _, err := version.NewVersion(r.From); err != nil || r.From == "" {
			v.add(p+".from", i18n.T("matrix.check.bad_release", i18n.D{"Framework": r.Framework, "Version": r.From}))
		} else if seen[r.Framework+" "+r.From] {
			v.add(p+".from", i18n.T("matrix.check.windows_duplicate", i18n.D{"Framework": r.Framework, "Version": r.From}))
		}
		seen[r.Framework+" "+r.From] = true
		if _, ok := parseMajorMinor(r.MSVCP140); !ok {
			v.add(p+".msvcp140", i18n.T("matrix.check.windows_msvcp140", i18n.D{"Version": r.MSVCP140}))
		}
		if r.LongestPath < 0 || r.LongestPath > 32767 {
			v.add(p+".longest_path", i18n.T("matrix.check.windows_longest_path", i18n.D{"Length": r.LongestPath}))
		}
		if r.Source == "" {
			v.add(p+".source", i18n.T("matrix.check.windows_source"))
		}
	}
}
