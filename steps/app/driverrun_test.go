package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gpuwiz/steps/driver"
	"gpuwiz/steps/testkit/fakeinstaller"
	"gpuwiz/steps/testkit/nvlookup"
)

const rig1060 = "../../testdata/driver/rig-gtx1060-456.json"

const file1060 = "581.94-desktop-win10-win11-64bit-international-dch-whql.exe"

// lookup1060 is NVIDIA's lookup service on loopback, knowing a GTX 1060 and serving body as its
// newest 580-branch installer.
func lookup1060(t *testing.T, body []byte) (*nvlookup.Server, driver.Lookup) {
	t.Helper()
	s := nvlookup.Serve(t, []nvlookup.Product{{Series: "101", Name: "GeForce GTX 1060", PFID: "815"}},
		map[string][]nvlookup.Driver{"815": {{Version: "581.94", Name: "GeForce Game Ready Driver", WHQL: true, File: file1060}}})
	s.File("581.94", file1060, body)
	return s, driver.Service{Client: s.Client(), Products: s.ProductsURL(), Drivers: s.DriversURL()}
}

// recorder stands in for the elevated start only Windows has: it records the runs and answers code
// or err.
type recorder struct {
	runs [][]string
	code int
	err  error
}

func (r *recorder) Run(_ context.Context, path string, args []string) (int, error) {
	r.runs = append(r.runs, append([]string{filepath.Base(path)}, args...))
	return r.code, r.err
}

// trust stands in for WinVerifyTrust: the signer it names, or a broken signature.
type trust string

func (t trust) Verify(string) (string, error) {
	if t == "" {
		return "", errors.New("TRUST_E_BAD_DIGEST")
	}
	return string(t), nil
}

type driverRig struct {
	env    *Env
	server *nvlookup.Server
	lookup driver.Lookup
	cache  string
	resume string
	run    *recorder
}

func newDriverRig(t *testing.T, rig string, body []byte) *driverRig {
	t.Helper()
	return newDriverRigIn(t, t.TempDir(), rig, body)
}

func newDriverRigIn(t *testing.T, dir, rig string, body []byte) *driverRig {
	t.Helper()
	s, l := lookup1060(t, body)
	return &driverRig{env: &Env{G: &Globals{SimulateFile: rig}}, server: s, lookup: l,
		cache: filepath.Join(dir, "drivers"), resume: filepath.Join(dir, "config", "resume.json"), run: &recorder{}}
}

func (r *driverRig) req(install bool, v driver.Verifier) DriverActRequest {
	return DriverActRequest{Check: DriverRequest{OS: "windows", Channel: "cu128", Lookup: r.lookup}, Install: install,
		CacheDir: r.cache, System: DriverSystem{Verifier: v, Runner: r.run, RebootPending: func() bool { return false }, ResumePath: r.resume, Retries: -1}}
}

func (r *driverRig) plan(t *testing.T, req DriverActRequest) *DriverSession {
	t.Helper()
	s, err := r.env.PlanDriver(context.Background(), req)
	if err != nil {
		t.Fatalf("plan: %v", err)
	}
	return s
}

func collect(s *DriverSession, ctx context.Context) (DriverResult, []DriverEvent) {
	events := make(chan DriverEvent, 1024)
	res := s.Run(ctx, events)
	close(events)
	var evs []DriverEvent
	for e := range events {
		evs = append(evs, e)
	}
	return res, evs
}

func signedInstaller(t *testing.T) []byte {
	return fakeinstaller.WithSecurityDir(fakeinstaller.Program(t))
}

// --download: the lookup's file for a desktop GTX 1060 is fetched into the cache with progress
// numbers; cut off part-way it keeps what came, and the next session says how much is there and
// asks only for the rest.
func TestDriverDownloadResumesWithProgress(t *testing.T) {
	body := append(signedInstaller(t), make([]byte, 3<<20)...)
	r := newDriverRig(t, rig1060, body)
	r.server.CutNextAfter(1 << 20)
	s := r.plan(t, r.req(false, nil))
	if s.Release.File != file1060 || s.Have != 0 {
		t.Fatalf("chose %q (have %d), want %s", s.Release.File, s.Have, file1060)
	}
	res, _ := collect(s, context.Background())
	if res.Failure == nil || res.Failure.Code != DriverFailDownload || res.Exit != ExitFailure {
		t.Fatalf("a cut download: %+v %+v", res, res.Failure)
	}
	r.server.Up()
	s = r.plan(t, r.req(false, nil))
	if s.Have <= 0 {
		t.Fatalf("the next session does not see the partial download in %s", r.cache)
	}
	res, evs := collect(s, context.Background())
	if res.Failure != nil || !res.Downloaded || res.Reused < 1<<20 || res.Fetched >= int64(len(body)) {
		t.Fatalf("resumed download: %+v %+v", res, res.Failure)
	}
	got, _ := os.ReadFile(filepath.Join(r.cache, file1060))
	if len(got) != len(body) {
		t.Fatalf("file has %d bytes, want %d", len(got), len(body))
	}
	last := DriverEvent{}
	for _, e := range evs {
		if e.Step == "download" && e.State == "" {
			last = e
		}
	}
	if last.Total != int64(len(body)) || last.Done != last.Total {
		t.Errorf("no final progress numbers: %+v", last)
	}
	if len(r.run.runs) != 0 {
		t.Errorf("--download ran the installer: %v", r.run.runs)
	}
}

// --install: a file with a verified NVIDIA signature runs once with the chosen arguments (-s
// -noreboot for --silent) and leaves the cache; a file that fails the check is refused, removed
// from the cache and never run; a refused UAC prompt and a failing exit code are named.
func TestDriverInstallChecksThenRuns(t *testing.T) {
	r := newDriverRig(t, rig1060, signedInstaller(t))
	req := r.req(true, trust(driver.Signer))
	req.Silent = true
	res, evs := collect(r.plan(t, req), context.Background())
	if res.Failure != nil || !res.Checked || !res.Ran || res.Exit != 0 || res.Restart {
		t.Fatalf("install: %+v %+v", res, res.Failure)
	}
	if len(r.run.runs) != 1 || strings.Join(r.run.runs[0], " ") != file1060+" -s -noreboot" {
		t.Errorf("runs %v", r.run.runs)
	}
	if _, err := os.Stat(filepath.Join(r.cache, file1060)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the installed driver's file stays in the cache: %v", err)
	}
	var steps []string
	for _, e := range evs {
		if e.State != "" {
			steps = append(steps, e.Step+":"+e.State)
		}
	}
	if strings.Join(steps, " ") != "download:running download:done check:running check:done install:running install:done" {
		t.Errorf("events %v", steps)
	}

	for _, tc := range []struct {
		name    string
		v       driver.Verifier
		refusal string
	}{{"broken signature", trust(""), "bad_signature"}, {"someone else's", trust("Contoso Ltd"), "signer"}} {
		res, _ := collect(r.plan(t, r.req(true, tc.v)), context.Background())
		if res.Failure == nil || res.Failure.Code != DriverFailRefused || res.Failure.Refusal.Code != tc.refusal || res.Ran {
			t.Errorf("%s: %+v %+v", tc.name, res, res.Failure)
		}
		if _, err := os.Stat(filepath.Join(r.cache, file1060)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: the refused file stays in the cache", tc.name)
		}
	}
	if len(r.run.runs) != 1 {
		t.Fatalf("a refused file was run: %v", r.run.runs)
	}

	r.run.err = driver.ErrElevationRefused
	res, _ = collect(r.plan(t, r.req(true, trust(driver.Signer))), context.Background())
	if res.Failure == nil || res.Failure.Code != DriverFailUAC || res.Exit != ExitFailure {
		t.Errorf("UAC refused: %+v", res.Failure)
	}
	if _, err := os.Stat(filepath.Join(r.cache, file1060)); err != nil {
		t.Errorf("the checked file is gone after a refused prompt: %v", err)
	}
	r.run.err, r.run.code = nil, 1
	res, _ = collect(r.plan(t, r.req(true, trust(driver.Signer))), context.Background())
	if res.Failure == nil || res.Failure.Code != DriverFailExitCode || res.Failure.ExitCode != 1 || res.Exit != ExitFailure {
		t.Errorf("exit code 1: %+v", res.Failure)
	}
}

// --file: a file the user fetched is checked the same way and run; nothing is downloaded and the
// file is never removed, even when refused.
func TestDriverFileIsCheckedThenRun(t *testing.T) {
	r := newDriverRig(t, rig1060, nil)
	mine := filepath.Join(t.TempDir(), "581.57-desktop-win10-win11-64bit-international-dch-whql.exe")
	if err := os.WriteFile(mine, fakeinstaller.Program(t), 0o644); err != nil {
		t.Fatal(err)
	}
	req := r.req(true, trust(driver.Signer))
	req.File = mine
	s := r.plan(t, req)
	if s.Release.Version != "581.57" {
		t.Errorf("version of the file: %q", s.Release.Version)
	}
	res, _ := collect(s, context.Background())
	if res.Failure == nil || res.Failure.Refusal == nil || res.Failure.Refusal.Code != "unsigned" || len(r.run.runs) != 0 {
		t.Fatalf("an unsigned file: %+v %+v runs %v", res, res.Failure, r.run.runs)
	}
	if _, err := os.Stat(mine); err != nil {
		t.Fatalf("the user's file was removed: %v", err)
	}
	_ = os.WriteFile(mine, signedInstaller(t), 0o644)
	res, _ = collect(r.plan(t, req), context.Background())
	if res.Failure != nil || res.Downloaded || len(r.run.runs) != 1 || len(r.run.runs[0]) != 1 {
		t.Fatalf("the user's signed file: %+v %+v runs %v", res, res.Failure, r.run.runs)
	}
	if _, err := os.Stat(mine); err != nil {
		t.Fatalf("the user's file was removed after the install: %v", err)
	}
	req.File = filepath.Join(t.TempDir(), "nothing.exe")
	var f *DriverFailure
	if _, err := r.env.PlanDriver(context.Background(), req); !errors.As(err, &f) || f.Exit != ExitUsage || f.Refusal.Code != "not_found" {
		t.Errorf("a missing --file: %v", err)
	}
}

// A restart asked for by the installer (3010) is success with Restart set and a resume point in
// the config dir; the next start of the wizard continues at the channel step once the new driver
// is found, and removes the point; before the restart it stays. An install on top of a pending
// restart is refused before anything is fetched.
func TestDriverRestartLeavesAResumePoint(t *testing.T) {
	r := newDriverRig(t, rig1060, signedInstaller(t))
	r.run.code = driver.ExitRebootRequired
	res, _ := collect(r.plan(t, r.req(true, trust(driver.Signer))), context.Background())
	if res.Failure != nil || !res.Restart || res.Exit != 0 || res.ResumeFile != r.resume {
		t.Fatalf("3010: %+v %+v", res, res.Failure)
	}
	p := ReadResume(r.resume)
	if p == nil || p.Step != "channel" || p.Before != "456.71" || p.Version != "581.94" || p.Channel != "cu128" {
		t.Fatalf("resume point %+v", p)
	}
	if !restartPending(r.resume, time.Now().Add(-time.Hour)) || restartPending(r.resume, time.Now().Add(time.Minute)) {
		t.Errorf("restartPending does not compare the boot time with the point")
	}

	// Before the restart: the old driver still answers; the point stays.
	got, err := r.env.TakeResume(context.Background(), r.resume)
	if err != nil || got == nil || got.Found || got.Now != "456.71" {
		t.Fatalf("before the restart: %+v %v", got, err)
	}
	// After it: a report with the new driver.
	after := filepath.Join(t.TempDir(), "after.json")
	b, _ := os.ReadFile(rig1060)
	_ = os.WriteFile(after, []byte(strings.Replace(strings.Replace(string(b), `"456.71"`, `"581.94"`, 1), `"11.1"`, `"13.0"`, 1)), 0o644)
	env := &Env{G: &Globals{SimulateFile: after}}
	got, err = env.TakeResume(context.Background(), r.resume)
	if err != nil || got == nil || !got.Found || got.Now != "581.94" || got.Point.Step != "channel" {
		t.Fatalf("after the restart: %+v %v", got, err)
	}
	if ReadResume(r.resume) != nil {
		t.Errorf("the resume point stays after the new driver was found")
	}
	if got, _ := env.TakeResume(context.Background(), r.resume); got != nil {
		t.Errorf("a second start resumes again: %+v", got)
	}

	req := r.req(true, trust(driver.Signer))
	req.System.RebootPending = func() bool { return true }
	before := r.server.Ranges
	s, err := r.env.PlanDriver(context.Background(), req)
	var f *DriverFailure
	if !errors.As(err, &f) || f.Code != DriverFailRebootPending || s == nil {
		t.Fatalf("pending restart: %v", err)
	}
	if len(r.server.Ranges) != len(before) {
		t.Errorf("something was fetched with a restart pending")
	}
}

// Honest failures before anything runs: --install on Linux names the distribution's way and
// refuses; a data-centre card has no installer from gpuwiz; the download host unreachable is "no
// network" with the partial file kept.
func TestDriverFailuresAreNamed(t *testing.T) {
	r := newDriverRig(t, rig1060, signedInstaller(t))
	req := r.req(true, trust(driver.Signer))
	req.Check.OS = "linux"
	s, err := r.env.PlanDriver(context.Background(), req)
	var f *DriverFailure
	if !errors.As(err, &f) || f.Code != DriverFailLinux || f.Exit == 0 || s == nil || s.Check.Linux == nil {
		t.Errorf("linux --install: %v", err)
	}
	req.Install = false
	if _, err := r.env.PlanDriver(context.Background(), req); !errors.As(err, &f) || f.Code != DriverFailLinux {
		t.Errorf("linux --download: %v", err)
	}

	dc := filepath.Join(t.TempDir(), "h100.json")
	_ = os.WriteFile(dc, []byte(`{"available": true, "backend": "simulated", "driver_version": "550.54", "cuda_max": "12.4", "os": "windows", "simulated": true,
 "gpus": [{"index": 0, "name": "NVIDIA H100 80GB HBM3", "compute_capability": "9.0", "processes": []}]}`), 0o644)
	env := &Env{G: &Globals{SimulateFile: dc}}
	if _, err := env.PlanDriver(context.Background(), r.req(true, trust(driver.Signer))); !errors.As(err, &f) || f.Code != DriverFailOwnPath {
		t.Errorf("data-centre card: %v", err)
	}

	s = r.plan(t, r.req(false, nil))
	r.server.Close()
	res, _ := collect(s, context.Background())
	if res.Failure == nil || res.Failure.Code != DriverFailNoNetwork {
		t.Errorf("download host gone: %+v", res.Failure)
	}
}
