package cli

import (
	"bytes"
	"strings"
	"testing"
)

// The one question install, add, doctor --fix and python install ask: y or yes in any case goes on,
// anything else (no answer too) does not; the question is printed as given.
func TestConfirmedTakesYOrYesOnly(t *testing.T) {
	for answer, want := range map[string]bool{"y\n": true, "YES\n": true, " Yes \n": true, "n\n": false, "yess\n": false, "": false, "\n": false} {
		var out bytes.Buffer
		if got := confirmed(strings.NewReader(answer), &out, "Go? "); got != want || out.String() != "Go? " {
			t.Errorf("answer %q: %t, printed %q", answer, got, out.String())
		}
	}
}
