//go:build windows

package vcredist

import (
	"os"
	"testing"
)

// An unsigned program (this test binary) and a missing file are refused by WinVerifyTrust. Run
// under Wine by steps/winetest (TestRedistSignatureCheckUnderWine), and on Windows by go test.
func TestUnsignedIsRefused(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := VerifySignature(self); err == nil {
		t.Errorf("%s (unsigned) passed the signature check", self)
	} else {
		t.Logf("refused: %v", err)
	}
	if err := VerifySignature(self + ".missing"); err == nil {
		t.Error("a missing file passed the signature check")
	}
}
