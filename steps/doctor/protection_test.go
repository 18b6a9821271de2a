package doctor

import (
	"os"
	"path/filepath"
	"testing"

	"gpuwiz/steps/keep"
)

func protectionCodes(t *testing.T, venv string) []string {
	t.Helper()
	e := &Evidence{GOOS: "linux", Venv: venv, Protection: readProtection(OSFS{}, "linux", venv)}
	var codes []string
	for _, f := range checkProtection(e) {
		codes = append(codes, f.Code)
		if f.Fix == "" || len(f.Evidence) == 0 {
			t.Errorf("%s without evidence or fix: %+v", f.Code, f)
		}
	}
	return codes
}

func TestProtectionFindings(t *testing.T) {
	venv := t.TempDir()
	if got := protectionCodes(t, venv); len(got) != 0 {
		t.Fatalf("a venv gpuwiz never installed into: %v", got)
	}
	os.WriteFile(filepath.Join(venv, "requirements.lock"), []byte("# written by gpuwiz: pip freeze of x after installing torch 2.6.0 (cu126)\ntorch==2.6.0+cu126\n"), 0o644)
	os.WriteFile(filepath.Join(venv, "constraints.txt"), []byte("torch==2.6.0+cu126\n"), 0o644)
	if got := protectionCodes(t, venv); len(got) != 1 || got[0] != CodeNotProtected {
		t.Fatalf("unprotected venv: %v", got)
	}
	if _, err := keep.Protect(venv, filepath.Join(venv, "constraints.txt"), "linux"); err != nil {
		t.Fatal(err)
	}
	if got := protectionCodes(t, venv); len(got) != 0 {
		t.Fatalf("protected venv: %v", got)
	}
	os.WriteFile(filepath.Join(venv, "constraints.txt"), []byte("torch==2.5.1+cu121\n"), 0o644)
	if got := protectionCodes(t, venv); len(got) != 1 || got[0] != CodeConstraintsStale {
		t.Fatalf("stale constraints: %v", got)
	}
	os.Remove(filepath.Join(venv, "constraints.txt"))
	keep.Unprotect(venv, "linux")
	if got := protectionCodes(t, venv); len(got) != 2 {
		t.Fatalf("both gone: %v", got)
	}
}
