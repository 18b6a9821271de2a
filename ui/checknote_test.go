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
