// Package fakeinstaller builds a stand-in for NVIDIA's driver installer (testdata/driver/installer):
// a Windows program that appends its arguments to the file LogEnv names and exits with the code
// ExitEnv gives. Only tests import it.
package fakeinstaller

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"gpuwiz/steps/testkit/gobuild"
)

// LogEnv and ExitEnv are read by the stand-in installer, never by gpuwiz.
const (
	LogEnv  = "GPUWIZ_TEST_INSTALLER_LOG"
	ExitEnv = "GPUWIZ_TEST_INSTALLER_EXIT"
)

var (
	once  sync.Once
	built []byte
	err   error
	dir   string
)

// Program is the stand-in installer's bytes (built once per test binary, for windows/amd64).
func Program(t testing.TB) []byte {
	t.Helper()
	once.Do(func() {
		dir, err = os.MkdirTemp("", "gpuwiz-fakeinstaller-")
		if err != nil {
			return
		}
		out := filepath.Join(dir, "installer.exe")
		if err = gobuild.BuildErr(gobuild.Options{Package: "./testdata/driver/installer", Out: out,
			Env: []string{"GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0"}, Flags: []string{"-ldflags", "-s -w"}}); err != nil {
			return
		}
		built, err = os.ReadFile(out)
	})
	if err != nil {
		t.Fatal(err)
	}
	return append([]byte{}, built...)
}

// WithSecurityDir is b (a PE32+ program) with an Authenticode security directory entry that points
// past its end: the shape of a signed file, which CheckInstaller's own look finds; the signature
// itself is then the verifier's to judge (a stand-in for WinVerifyTrust off Windows).
func WithSecurityDir(b []byte) []byte {
	out := append([]byte{}, b...)
	peOff := binary.LittleEndian.Uint32(out[0x3c:])
	dd := int(peOff) + 24 + 112 + 4*8 // PE32+ optional header: data directory 4 (security)
	binary.LittleEndian.PutUint32(out[dd:], uint32(len(out)))
	binary.LittleEndian.PutUint32(out[dd+4:], 8)
	return out
}
