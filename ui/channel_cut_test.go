package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"gpuwiz/matrix"
	"gpuwiz/steps/app"
	"gpuwiz/steps/gpu"
)

// A long channel list in a short window: the footnotes under it are those of the rows it shows,
// never of rows scrolled out of view; moving down to the other rows brings theirs.
func TestChannelFootnotesOnlyForVisibleRows(t *testing.T) {
	var cands []matrix.Candidate
	for i := range 14 {
		c := matrix.Candidate{Framework: "torch", FrameworkVersion: "2.7.1", Channel: fmt.Sprintf("cu1%02d", i), CUDA: fmt.Sprintf("12.%d", i),
			Compatible: true, Verified: true}
		switch {
		case i < 2:
			c.NoteParts = []string{"note of the first rows"}
		case i >= 12:
			c.NoteParts = []string{"note of the last rows"}
		}
		cands = append(cands, c)
	}
	s := newChannelScreen(testCommon(newFakeBackend(), false), gpu.Report{}, "torch", "2.7.1", nil)
	s.SetSize(78, 14)
	s.Update(channelsMsg{about: "torch", value: matrix.Selection{Recommended: &cands[0], Candidates: cands}})
	v := ansi.Strip(s.View())
	if !strings.Contains(v, "note of the first rows") || strings.Contains(v, "note of the last rows") || strings.Contains(v, "cu113") {
		t.Fatalf("at the top: the first rows' footnote only, the last rows out of view:\n%s", v)
	}
	for range 13 {
		s.Update(keyMsg("down"))
	}
	v = ansi.Strip(s.View())
	if !strings.Contains(v, "note of the last rows") || strings.Contains(v, "note of the first rows") || strings.Contains(v, "cu100 ") {
		t.Fatalf("at the bottom: the last rows' footnote only:\n%s", v)
	}
}

// A check's title wider than the screen is wrapped on the verify screen, never cut: the user reads
// which card the build has kernels for.
func TestVerifyTitleIsWrappedNotCut(t *testing.T) {
	title := "the build has kernels for GPU 0 (NVIDIA GeForce RTX 3060, compute capability 8.6)"
	st := testCommon(newFakeBackend(), false).Styles
	for _, ok := range []bool{true, false} {
		got := ansi.Strip(checklist(st, []app.Check{{ID: "arch", Title: title, OK: ok, Evidence: "sm_86"}}, 78))
		if strings.Contains(got, "…") || !strings.Contains(strings.Join(strings.Fields(got), " "), title) {
			t.Errorf("ok=%v: the title is cut or lost:\n%s", ok, got)
		}
		for _, l := range strings.Split(got, "\n") {
			if ansi.StringWidth(l) > 78 {
				t.Errorf("ok=%v: a line wider than 78: %q", ok, l)
			}
		}
	}
}
