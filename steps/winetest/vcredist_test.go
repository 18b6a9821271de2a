package winetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRedistSignatureCheckUnderWine runs steps/vcredist's Windows test under Wine: WinVerifyTrust
// (wintrust.dll, through x/sys/windows) refuses an unsigned program, so a download that is not
// Microsoft's signed installer is never started.
func TestRedistSignatureCheckUnderWine(t *testing.T) {
	w := windows(t)
	exe := filepath.Join(w.dir, "vcredist.test.exe")
	if _, err := os.Stat(exe); err != nil {
		cmd := exec.Command("go", "test", "-c", "-o", exe, "./steps/vcredist")
		cmd.Dir = w.root
		cmd.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("building the Windows test: %v\n%s", err, out)
		}
	}
	r := w.wine(t, nil, exe, "-test.run", "TestUnsignedIsRefused", "-test.v")
	if r.code != 0 || !strings.Contains(r.stdout, "--- PASS: TestUnsignedIsRefused") {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	t.Log(r.stdout)
}
