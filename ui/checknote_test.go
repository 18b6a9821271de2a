package ui

import (
	"strings"
	"testing"

	"gpuwiz/matrix"
)

// The "also fits, but unverified" note points at the channels table's note, which the check screen
// does not show: there it carries that note itself and the command that installs the build.
func TestCheckScreenSaysWhyABuildIsUnverified(t *testing.T) {
	c := matrix.Candidate{Framework: "torch", FrameworkVersion: "2.15.0", Channel: "cu130", Compatible: true,
		Note: "Read from nightly builds: the released channels are not yet confirmed."}
	sel := matrix.Selection{Framework: "torch", Candidates: []matrix.Candidate{c}, AlsoFits: &c}
	got := checkNote("linux", "torch", sel, matrix.AlsoFitsNote("torch", c))
	for _, want := range []string{"2.15.0 (cu130) fits too", "Read from nightly builds", "gpuwiz install --framework torch --framework-version 2.15.0 --channel cu130"} {
		if !strings.Contains(got, want) {
			t.Fatalf("lacks %q: %s", want, got)
		}
	}
	if strings.Contains(got, "its note says why") {
		t.Fatalf("points at a note the screen does not show: %s", got)
	}
	if other := "no NVIDIA GPU to use"; checkNote("linux", "torch", sel, other) != other {
		t.Fatal("other notes must pass unchanged")
	}
}

// A row of the check screen lists a channel's versions newest first, even when the recommendation
// put a verified older version before an unverified newer one ("3.3.1 3.4.0 3.2.2" read as a typo).
func TestCheckScreenListsEachChannelNewestFirst(t *testing.T) {
	cand := func(v, ch string) matrix.Candidate {
		return matrix.Candidate{Framework: "paddle", FrameworkVersion: v, Channel: ch, Compatible: true}
	}
	sel := matrix.Selection{Candidates: []matrix.Candidate{cand("3.3.1", "cu126"), cand("3.4.0", "cu126"), cand("3.2.2", "cu126"),
		cand("3.10.0", "cu126"), cand("3.0.0", "cu118"), {FrameworkVersion: "9.9.9", Channel: "cu118"}}}
	got := compatibleByChannel(sel)
	want := []string{"cu126   3.10.0 3.4.0 3.3.1 3.2.2", "cu118   3.0.0"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
