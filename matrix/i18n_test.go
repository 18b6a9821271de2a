package matrix

import (
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/i18n/i18ntest"
)

// Every note of the embedded matrix has a Chinese twin, and the twin is Chinese.
func TestEveryEmbeddedNoteHasChinese(t *testing.T) {
	m := loadEmbedded(t)
	check := func(where, en, zh string) {
		t.Helper()
		if en == "" && zh == "" {
			return
		}
		if en == "" {
			t.Errorf("%s: note_zh without note", where)
		}
		if zh == "" {
			t.Errorf("%s: note %q has no note_zh", where, en)
			return
		}
		i18ntest.NoEnglishProse(t, where+" note_zh", zh)
	}
	n := 0
	for _, c := range m.CUDA {
		check("cuda "+c.Version, c.Note, c.NoteZh)
		if c.Note != "" {
			n++
		}
	}
	for fw, rs := range map[string][]Release{"torch": m.Torch, "paddle": m.Paddle} {
		for _, r := range rs {
			check(fw+" "+r.Version, r.Note, r.NoteZh)
			if r.Note != "" {
				n++
			}
			for _, b := range r.Builds {
				check(fw+" "+r.Version+" "+b.Channel, b.Note, b.NoteZh)
				if b.Note != "" {
					n++
				}
			}
		}
	}
	if n < 40 {
		t.Errorf("only %d notes found in the embedded matrix; the walk misses rows", n)
	}
}

// A channels-style judgement in Chinese: every reason, note and selection note is Chinese, the
// facts (versions, channels, drivers) survive, and the rows carry the matrix's Chinese notes.
func TestJudgementsInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	m := loadEmbedded(t)
	machines := map[string]Facts{
		"rtx5090 windows": rtx5090Win,
		"gtx1080 windows": gtx1080Win,
		"gtx1080 linux":   gtx1080Lin,
		"old driver":      oldDriver,
		"h200":            h200,
		"paddle cc 6.0":   paddleWin60,
		"32-bit python":   {Framework: "torch", OS: "windows", DriverVersion: "566.36", CUDAMax: "12.7", ComputeCaps: []string{"8.6"}, PythonVersion: "3.12", PythonBits: 32},
		"python 3.7":      {Framework: "torch", OS: "linux", DriverVersion: "580.65.06", CUDAMax: "13.0", ComputeCaps: []string{"8.6"}, PythonVersion: "3.7", PythonBits: 64},
		"no gpu":          {Framework: "paddle", OS: "linux", NoGPU: true, PythonVersion: "3.12", PythonBits: 64},
		"no driver":       {Framework: "torch", OS: "windows", PythonVersion: "3.12", PythonBits: 64},
		"bad facts":       {Framework: "torch", OS: "linux", DriverVersion: "abc", CUDAMax: "x", ComputeCaps: []string{"99.9"}},
		"unknown release": {Framework: "torch", FrameworkVersion: "1.0", OS: "linux"},
		"kepler":          {Framework: "torch", OS: "linux", DriverVersion: "580.65.06", CUDAMax: "13.0", ComputeCaps: []string{"3.5"}, PythonVersion: "3.12", PythonBits: 64},
	}
	var notes, reasons int
	for name, f := range machines {
		s := m.Select(f)
		for _, n := range s.Notes {
			i18ntest.NoEnglishProse(t, name+": note", n)
			notes++
		}
		for _, c := range s.Candidates {
			what := name + ": " + c.FrameworkVersion + " " + c.Channel
			for _, r := range c.Reasons {
				i18ntest.NoEnglishProse(t, what+" reason", r)
				reasons++
			}
			i18ntest.NoEnglishProse(t, what+" note", c.Note)
			for _, p := range c.NoteParts {
				i18ntest.NoEnglishProse(t, what+" note part", p)
			}
		}
	}
	if notes < 10 || reasons < 100 {
		t.Errorf("only %d notes and %d reasons judged: the machines above should give many more", notes, reasons)
	}

	// Key facts survive: the driver, the CUDA it supports and the driver a build needs.
	s := m.Select(oldDriver)
	var driverReason string
	for _, c := range s.Candidates {
		for _, r := range c.Reasons {
			if strings.Contains(r, "472.12") {
				driverReason = r
			}
		}
	}
	if driverReason == "" || !strings.Contains(driverReason, "显卡驱动") || !strings.Contains(driverReason, "11.4") {
		t.Errorf("old driver: no Chinese reason naming driver 472.12 and CUDA 11.4: %q", driverReason)
	}
	var unlock string
	for _, n := range s.Notes {
		if strings.Contains(n, "更新到") {
			unlock = n
		}
	}
	if unlock == "" || !strings.Contains(unlock, "Windows") {
		t.Errorf("old driver: no Chinese driver-update note in %q", s.Notes)
	}

	// The rows show the matrix's Chinese notes, exactly as note_zh has them.
	s = m.Select(gtx1080Win)
	zh := map[string]bool{}
	for _, r := range m.Torch {
		for _, b := range r.Builds {
			if b.NoteZh != "" {
				zh[b.NoteZh] = true
			}
		}
		if r.NoteZh != "" {
			zh[r.NoteZh] = true
		}
	}
	shown := 0
	for _, c := range s.Candidates {
		for _, p := range c.NoteParts {
			if zh[p] {
				shown++
			}
		}
	}
	if shown == 0 {
		t.Error("gtx1080 windows: no candidate carries a note_zh of the matrix")
	}
	cu128 := find(t, s, "2.8.0", "cu128")
	if !strings.Contains(cu128.Note, "Pascal") || !strings.Contains(cu128.Note, "cu126") || !strings.Contains(cu128.Note, "Windows") {
		t.Errorf("2.8.0 cu128 note in Chinese lost its facts: %q", cu128.Note)
	}
}

// The same judgement in English keeps the English notes (the default).
func TestNotesStayEnglishInEnglish(t *testing.T) {
	s := loadEmbedded(t).Select(gtx1080Win)
	for _, c := range s.Candidates {
		if strings.ContainsFunc(c.Note, func(r rune) bool { return unicode.Is(unicode.Han, r) }) {
			t.Errorf("%s %s: the English judgement shows a Chinese note: %q", c.FrameworkVersion, c.Channel, c.Note)
		}
	}
}

// A user's own matrix file without note_zh shows its English notes in Chinese (nothing else to
// show), while the judge's own words are Chinese.
func TestOwnMatrixWithoutChineseNotes(t *testing.T) {
	i18ntest.Chinese(t)
	m, err := LoadFile(filepath.Join("..", "testdata", "matrix", "shared-notes.toml"))
	if err != nil {
		t.Fatal(err)
	}
	s := m.Select(Facts{Framework: "torch", OS: "linux", DriverVersion: "560.35.05", CUDAMax: "12.6", ComputeCaps: []string{"8.6"}, PythonVersion: "3.12", PythonBits: 64})
	english := 0
	for _, c := range s.Candidates {
		for _, p := range c.NoteParts {
			if len(i18ntest.EnglishProse(p)) > 0 {
				english++
			}
		}
		for _, r := range c.Reasons {
			i18ntest.NoEnglishProse(t, c.FrameworkVersion+" "+c.Channel+" reason", r)
		}
	}
	if english == 0 {
		t.Error("the file's English notes were not shown")
	}
}

// A matrix file's errors are readable in Chinese, with the file, line and bad value kept.
func TestFileErrorsInChinese(t *testing.T) {
	i18ntest.Chinese(t)
	for _, file := range []string{"bad-version.toml", "duplicate-row.toml", "http-public-host.toml", "unknown-key.toml", "duplicate-key.toml"} {
		_, err := LoadFile(filepath.Join("..", "testdata", "matrix", file))
		if err == nil {
			t.Errorf("%s: no error", file)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, file) {
			t.Errorf("%s: the error does not name the file: %q", file, msg)
		}
		if file == "duplicate-key.toml" {
			continue // go-toml's own words: not gpuwiz's to translate
		}
		i18ntest.NoEnglishProse(t, file, msg)
	}
	_, err := LoadFile(filepath.Join("..", "testdata", "matrix", "no-such-file.toml"))
	if err == nil || !strings.Contains(err.Error(), "无法读取版本矩阵文件") {
		t.Errorf("missing file: %v", err)
	}
	broken := strings.Replace(string(EmbeddedTOML()), `channel = "cu126"`, `channel = "cu12x"`, 1)
	broken = strings.Replace(broken, "schema = 1", "schema = 2", 1)
	broken = strings.Replace(broken, `python_min = "3.9"`, `python_min = "3"`, 1)
	_, err = Parse([]byte(broken), "mine.toml")
	if err == nil {
		t.Fatal("a broken copy of the embedded matrix parsed")
	}
	i18ntest.NoEnglishProse(t, "broken matrix", err.Error())
	for _, want := range []string{"mine.toml:", "cu12x", "schema = 2"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("broken matrix: %q missing from %q", want, err)
		}
	}
	for _, e := range []error{ValidateDriverVersion("56x"), ValidateComputeCap("8"), ValidateComputeCap("16.0"), ValidatePythonVersion("2.7"), ValidatePythonVersion("3"), ValidateCUDAVersion("twelve")} {
		if e == nil {
			t.Fatal("a bad value passed")
		}
		i18ntest.NoEnglishProse(t, "value check", e.Error())
	}
}

// Texts side by side read the Chinese way: "；" between clauses, nothing after a "。".
func TestChineseJoins(t *testing.T) {
	i18ntest.Chinese(t)
	f := NewFootnotes([][]string{{"甲。", "乙", "丙"}, {"丙"}})
	if got := f.Line([]string{"甲。", "乙", "丙"}); got != "甲。乙 [1]" {
		t.Errorf("footnote line %q", got)
	}
	if got := joinNotes([]string{"甲。", "乙", "丙"}); got != "甲。乙；丙" {
		t.Errorf("notes %q", got)
	}
	i18n.Set(i18n.English)
	if got := joinNotes([]string{"A.", "b", "c"}); got != "A. b; c" {
		t.Errorf("English notes %q", got)
	}
}

// A note about the Windows wheel is shown on Windows only: on Linux the same build's row says
// nothing of Windows, and a note that speaks of every system stays on both.
func TestWindowsNotesOnlyOnWindows(t *testing.T) {
	m := loadEmbedded(t)
	win, lin := m.Select(gtx1080Win), m.Select(gtx1080Lin)
	for _, v := range []string{"2.8.0", "2.9.1", "2.11.0"} {
		if c := find(t, win, v, "cu126"); !strings.Contains(c.Note, "Windows") {
			t.Errorf("windows %s cu126: the Windows note is gone: %q", v, c.Note)
		}
	}
	for _, c := range lin.Candidates {
		for _, p := range c.NoteParts {
			if strings.HasPrefix(p, "On Windows") || strings.Contains(p, "not covered on Windows") || strings.Contains(p, "offered this build on Windows") {
				t.Errorf("linux %s %s: a Windows-only note is shown: %q", c.FrameworkVersion, c.Channel, p)
			}
		}
	}
	if c := find(t, lin, "2.10.0", "cu129"); !strings.Contains(c.Note, "Linux only") {
		t.Errorf("linux 2.10.0 cu129: the note for every system is gone: %q", c.Note)
	}
}
