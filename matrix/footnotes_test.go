package matrix

import (
	"reflect"
	"testing"
)

func TestFootnotesNumberOnlySharedTexts(t *testing.T) {
	f := NewFootnotes([][]string{
		{"release note", "build note"},
		{"release note"},
		{"only here", "only here"}, // twice in one row is not shared
		{"driver reason"},
		{"driver reason", "release note"},
	})
	if want := []string{"release note", "driver reason"}; !reflect.DeepEqual(f.Texts, want) {
		t.Fatalf("footnotes %q, want %q", f.Texts, want)
	}
	for _, tc := range []struct {
		row  []string
		line string
	}{
		{[]string{"release note", "build note"}, "build note [1]"},
		{[]string{"only here", "only here"}, "only here"},
		{[]string{"driver reason", "release note"}, "[2][1]"},
		{nil, ""},
	} {
		if got := f.Line(tc.row); got != tc.line {
			t.Errorf("Line(%q) = %q, want %q", tc.row, got, tc.line)
		}
	}
}

func TestRowTextsKeepTheNotesApart(t *testing.T) {
	m := loadEmbedded(t)
	sel := m.Select(Facts{Framework: "torch", OS: "linux", DriverVersion: "560.94", CUDAMax: "12.6", ComputeCaps: []string{"8.6"}, PythonVersion: "3.12"})
	for _, c := range sel.Candidates {
		if !c.Compatible {
			if !reflect.DeepEqual(RowTexts(c), c.Reasons) {
				t.Errorf("%s %s: a row that does not fit shows its reasons", c.FrameworkVersion, c.Channel)
			}
			continue
		}
		if joined := joinNotes(RowTexts(c)); joined != c.Note {
			t.Errorf("%s %s: parts %q do not make the note %q", c.FrameworkVersion, c.Channel, RowTexts(c), c.Note)
		}
	}
}
