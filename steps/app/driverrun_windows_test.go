package app

import (
	"context"
	"os"
	"testing"

	"gpuwiz/steps/driver"
	"gpuwiz/steps/testkit/fakeinstaller"
)

// TestDriverSessionOnWindows is run by steps/winetest as a Windows program under Wine (it skips
// elsewhere): the session downloads the stand-in installer (GPUWIZ_TEST_INSTALLER names it) from a
// loopback lookup, and starts it with the real elevated start (ShellExecuteEx runas) and the real
// config dir's resume point. Only the signature check is stood in: Wine's WinVerifyTrust accepts no
// test signature (the real one refuses the unsigned and foreign files in the command's Wine test).
// The stand-in installer exits 3010 (GPUWIZ_TEST_INSTALLER_EXIT, read by it): success, restart to come.
func TestDriverSessionOnWindows(t *testing.T) {
	exe := os.Getenv("GPUWIZ_TEST_INSTALLER")
	if exe == "" {
		t.Skip("run by steps/winetest under Wine")
	}
	b, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	// Not t.TempDir: under Wine 8 Go's os.Remove fails ("Invalid function"), and so would its cleanup.
	dir, err := os.MkdirTemp("", "gpuwiz-driver-")
	if err != nil {
		t.Fatal(err)
	}
	r := newDriverRigIn(t, dir, os.Getenv("GPUWIZ_TEST_RIG"), fakeinstaller.WithSecurityDir(b))
	req := r.req(true, trust(driver.Signer))
	req.Silent = true
	req.System.Runner, req.System.RebootPending, req.System.ResumePath = nil, nil, "" // Windows's own
	s, err := r.env.PlanDriver(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	res, _ := collect(s, context.Background())
	if res.Failure != nil || !res.Ran || res.ExitCode != driver.ExitRebootRequired || !res.Restart || res.ResumeFile != ResumePath() {
		t.Fatalf("3010: %+v %+v", res, res.Failure)
	}
	t.Logf("resume point: %s", res.ResumeFile)
}
