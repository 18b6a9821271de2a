package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/steps/testkit/pyindex"
)

// A venv gpuwiz installed, a file of torch deleted, and another Python's pip first on PATH with no
// environment active (gpuwiz runs outside the venv, as it usually does): doctor --fix puts the file
// back and ends ✓ with exit 0, the foreign pip listed under it as context; the list of venvs says
// repaired, and plain doctor on the healthy venv exits 0.
func TestDoctorFixWithAForeignPipOnPathEndsRepaired(t *testing.T) {
	useConfigDir(t)
	g := newRepairRig(t)
	ix := cliIndex(t)
	g.installFromMirror(t, ix.ChannelURL("cu126"))
	other := pyindex.NewVenv(t, filepath.Join(g.dir, "other"))
	t.Setenv("PATH", other.BinDir()+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("VIRTUAL_ENV", "")
	t.Setenv("CONDA_PREFIX", "")

	out, stderr, code := g.cli(t, "doctor", "--venv", g.venv, "--fix", "--yes")
	after := out[strings.LastIndex(out, "gpuwiz doctor: "):]
	if code != 0 || !strings.Contains(after, "\n✓ Repaired: the check afterwards finds nothing that blocks or threatens the build.\n") ||
		!strings.Contains(after, "  for your information: `pip` on PATH installs into another Python\n") || strings.Contains(out, "✗") {
		t.Fatalf("doctor --fix: exit %d, want 0 and ✓ with the foreign pip as context\n%s\nstderr: %s", code, out, stderr)
	}
	if !strings.Contains(after, "No problems found.\n") || !strings.Contains(after, other.Root) {
		t.Errorf("the check afterwards should say no problems and name the other pip as context:\n%s", after)
	}
	known := knownVenvs(t)
	if len(known) != 1 || known[0].Known == nil || known[0].Known.Result != "repaired" || !known[0].Known.OK {
		t.Fatalf("gpuwiz venvs after the repair: %+v", known)
	}
	out, stderr, code = g.cli(t, "doctor", "--venv", g.venv)
	if code != 0 || !strings.Contains(out, "For your information (nothing to fix for this environment):") {
		t.Fatalf("plain doctor on the healthy venv: exit %d, want 0\n%s\nstderr: %s", code, out, stderr)
	}
}
