package app

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLayering keeps the one way data flows: front end (ui, steps/cli) → application layer
// (steps/app) → steps → matrix. The wizard imports no command package, even through another
// package; app imports no front end; no step below app imports app or a front end; matrix imports
// no step but the shared vocabulary (i18n, pep, urls, shellquote).
func TestLayering(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go tool")
	}
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}|{{join .Imports \" \"}}", "gpuwiz/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	imports := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, deps, _ := strings.Cut(line, "|")
		if strings.HasPrefix(pkg, "gpuwiz") {
			imports[pkg] = strings.Fields(deps)
		}
	}
	if len(imports["gpuwiz/steps/app"]) == 0 {
		t.Fatalf("go list named no imports of steps/app:\n%s", out)
	}
	// What ui reaches, directly or not.
	reach := map[string]bool{}
	var walk func(string)
	walk = func(p string) {
		if reach[p] {
			return
		}
		reach[p] = true
		for _, d := range imports[p] {
			walk(d)
		}
	}
	walk("gpuwiz/ui")
	if reach["gpuwiz/steps/cli"] {
		t.Error("ui reaches gpuwiz/steps/cli: the wizard stands on steps/app, not on the commands")
	}
	frontEnds := map[string]bool{"gpuwiz/ui": true, "gpuwiz/steps/cli": true}
	// The shared vocabulary every layer may use, the matrix too: the catalog, packaging names and
	// versions, the URL policy, shell quoting.
	vocabulary := map[string]bool{"gpuwiz/steps/i18n": true, "gpuwiz/steps/pep": true, "gpuwiz/steps/urls": true, "gpuwiz/steps/shellquote": true}
	for pkg, deps := range imports {
		for _, d := range deps {
			switch {
			case pkg == "gpuwiz/steps/app" && (frontEnds[d] || strings.HasPrefix(d, "gpuwiz/ui/")):
				t.Errorf("steps/app imports the front end %s", d)
			case strings.HasPrefix(pkg, "gpuwiz/steps/") && pkg != "gpuwiz/steps/app" && pkg != "gpuwiz/steps/cli" &&
				(d == "gpuwiz/steps/app" || frontEnds[d]):
				t.Errorf("%s imports %s: a step stands below the application layer and the front ends", pkg, d)
			case strings.HasPrefix(pkg, "gpuwiz/matrix") && strings.HasPrefix(d, "gpuwiz/steps/") && !vocabulary[d]:
				t.Errorf("%s imports %s: the matrix stands below the steps", pkg, d)
			}
		}
	}
}
