package winetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPathRuleUnderWine runs steps/envroot's tests as a Windows program: the rule for every file
// gpuwiz touches in an environment, with Windows' spellings (\\?\ prefixes, case, short names, UNC
// paths, drive-relative and rooted RECORD lines) resolved by the Windows API.
func TestPathRuleUnderWine(t *testing.T) {
	w := windows(t)
	exe := filepath.Join(w.dir, "envroot.test.exe")
	if _, err := os.Stat(exe); err != nil {
		cmd := exec.Command("go", "test", "-c", "-o", exe, "./steps/envroot")
		cmd.Dir = w.root
		cmd.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("building the Windows test: %v\n%s", err, out)
		}
	}
	r := w.wine(t, nil, exe, "-test.v")
	for _, name := range []string{"TestWindowsSpellings", "TestRecordPathsOutsideTheEnvironmentAreRefused", "TestNoRootOrFolderAboveOneGoesWhole", "FuzzRecordLine"} {
		if !strings.Contains(r.stdout, "--- PASS: "+name) {
			t.Errorf("%s did not pass under Wine", name)
		}
	}
	if r.code != 0 || t.Failed() {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}
