package winetest

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gpuwiz/steps/testkit/fakeinstaller"
	"gpuwiz/steps/testkit/nvlookup"
	"gpuwiz/steps/testkit/tmux"
)

// winPath is a Unix path as Windows programs under Wine name it (Z:\...).
func winPath(p string) string { return "Z:" + strings.ReplaceAll(p, "/", `\`) }

// The driver step under Wine. NVIDIA's lookup and download host are a loopback stand-in; the
// installer is a stand-in that records its arguments and exits with a chosen code.
//
//   - gpuwiz.exe driver --download for a desktop GTX 1060 on 456.71 fetches the 580-branch file; cut
//     off, the next run asks only for the rest (a Range from the middle);
//   - the real WinVerifyTrust refuses a file that is no signed program (the downloaded one, a file
//     given with --file): nothing runs, the downloaded one leaves the cache;
//   - the driver session (steps/app, as a Windows test program) starts the installer with the real
//     elevated start (ShellExecuteEx runas) and -s -noreboot; its exit 3010 leaves the resume point in
//     %AppData%\gpuwiz, and gpuwiz.exe then refuses another install until Windows restarts;
//   - the wizard (tmux) offers u on the GPU screen, shows the chosen file, and refuses the file whose
//     signature does not check; started with the new driver, it continues at the channel step and
//     says so.
//
// Wine's WinVerifyTrust accepts no test signature (a file signed with osslsigncode under a root the
// prefix trusts fails with E_INVALIDARG in Wine 8), so the session program stands in for that one
// check; docs/windows.md lists what only a real Windows proves.
func TestDriverStepUnderWine(t *testing.T) {
	w := windows(t)
	dir := t.TempDir()
	plain := filepath.Join(dir, "installer.exe")
	prog := fakeinstaller.Program(t)
	if err := os.WriteFile(plain, prog, 0o755); err != nil {
		t.Fatal(err)
	}
	shaped := fakeinstaller.WithSecurityDir(prog) // a security directory, but no real signature
	name := "581.94-desktop-win10-win11-64bit-international-dch-whql.exe"
	s := nvlookup.Serve(t, []nvlookup.Product{{Series: "101", Name: "GeForce GTX 1060", PFID: "815"}},
		map[string][]nvlookup.Driver{"815": {{Version: "581.94", Name: "GeForce Game Ready Driver", WHQL: true, File: name}}})
	s.File("581.94", name, append(shaped, make([]byte, 2<<20)...))

	rig := filepath.Join(w.root, "testdata", "driver", "rig-gtx1060-456.json")
	log := filepath.Join(dir, "installer.log")
	env := []string{"GPUWIZ_NVIDIA_LOOKUP=" + s.URL, fakeinstaller.LogEnv + "=" + winPath(log)}
	_, local := w.localAppData(t)
	cache := filepath.Join(local, "gpuwiz", "drivers")
	appData := strings.TrimSpace(w.wine(t, nil, "cmd", "/c", "echo %APPDATA%").stdout)
	resume := filepath.Join(w.driveC(appData[3:]), "gpuwiz", "resume.json")
	t.Cleanup(func() { os.RemoveAll(cache); os.Remove(resume) })
	ran := func() string { b, _ := os.ReadFile(log); return string(b) }

	// The download, cut off after 1 MiB: the part stays, and the next run goes on from it.
	s.CutNextAfter(1 << 20)
	r := w.gpuwiz(t, env, "--simulate", rig, "driver", "--download")
	if r.code != 1 || !strings.Contains(r.stdout, name) || !strings.Contains(r.stderr, "go on from there") {
		t.Fatalf("cut download: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if fi, err := os.Stat(filepath.Join(cache, name+".part")); err != nil || fi.Size() == 0 {
		t.Fatalf("no partial download in %s: %v", cache, err)
	}
	s.Up()
	r = w.gpuwiz(t, env, "--simulate", rig, "driver", "--download")
	if r.code != 0 || !strings.Contains(r.stdout, "came in an earlier, interrupted download") || !strings.Contains(r.stdout, "100%") {
		t.Fatalf("resumed download: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	resumed := false
	for _, rg := range s.Ranges {
		resumed = resumed || strings.HasPrefix(rg, "bytes=") && !strings.HasPrefix(rg, "bytes=0-")
	}
	if !resumed {
		t.Errorf("no Range from the middle of the file: %v", s.Ranges)
	}

	// The real WinVerifyTrust: the downloaded file and a file of the user's are refused, never run.
	r = w.gpuwiz(t, env, "--simulate", rig, "driver", "--install")
	if r.code != 1 || !strings.Contains(r.stderr, "digital signature does not check out") || !strings.Contains(r.stderr, "Nothing was run") {
		t.Errorf("install of the downloaded file: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(cache, name)); err == nil {
		t.Errorf("the refused file stays in the cache")
	}
	r = w.gpuwiz(t, env, "--simulate", rig, "driver", "--install", "--file", winPath(plain))
	if r.code != 1 || !strings.Contains(r.stderr, "no digital signature") || !strings.Contains(r.stderr, "Nothing was run") {
		t.Errorf("--file of an unsigned program: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if got := ran(); got != "" {
		t.Fatalf("a refused file ran: %q", got)
	}

	// The wizard with the old driver: u on the GPU screen, the chosen file, the refused signature.
	p := startPane(t, w)
	p.WaitFor("$", 10*time.Second)
	start := func(rig string) {
		cmd := append([]string{"env"}, env...)
		cmd = append(cmd, "wine", w.exe, "--ascii", "--simulate", rig)
		p.Text(strings.Join(tmux.QuoteAll(cmd), " ") + "; echo EXIT=$?")
		p.Keys("Enter")
	}
	start(rig)
	p.WaitFor("Set up a new environment", 60*time.Second)
	p.Keys("Enter")
	gpu := p.WaitFor("Press u to update the driver", 60*time.Second)
	if !strings.Contains(gpu, "Driver 581.94 would add CUDA") || !strings.Contains(gpu, "runs the CUDA 11.8 builds now") {
		t.Errorf("the GPU screen's story:\n%s", gpu)
	}
	p.Keys("u")
	offer := p.WaitFor("Press enter to start", 30*time.Second)
	if !strings.Contains(offer, name) || !strings.Contains(offer, "580 driver branch") {
		t.Errorf("the driver screen does not show the chosen file and why:\n%s", offer)
	}
	p.Keys("Enter")
	p.WaitFor("Nothing was run", 60*time.Second)
	if got := ran(); got != "" {
		t.Errorf("the wizard ran a refused file: %q", got)
	}
	p.Keys("q")
	p.WaitFor("EXIT=", 30*time.Second)

	// The session with the real elevated start; the installer asks for a restart.
	test := filepath.Join(w.dir, "app.test.exe")
	build := exec.Command("go", "test", "-c", "-o", test, "./steps/app")
	build.Dir = w.root
	build.Env = append(os.Environ(), windowsBuild...)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the Windows test of steps/app: %v\n%s", err, out)
	}
	r = w.wine(t, append(env, fakeinstaller.ExitEnv+"=3010", "GPUWIZ_TEST_INSTALLER="+winPath(plain), "GPUWIZ_TEST_RIG="+winPath(rig)),
		test, "-test.run", "^TestDriverSessionOnWindows$", "-test.v")
	if r.code != 0 || !strings.Contains(r.stdout, "--- PASS: TestDriverSessionOnWindows") {
		t.Fatalf("the session under Wine: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if got := ran(); got != "ran -s -noreboot\n" {
		t.Fatalf("the installer ran with %q, want -s -noreboot once", got)
	}
	b, err := os.ReadFile(resume)
	var point struct{ Step, Before, Version string }
	if err != nil || json.Unmarshal(b, &struct {
		Step    *string `json:"step"`
		Before  *string `json:"driver_before"`
		Version *string `json:"driver_installed"`
	}{&point.Step, &point.Before, &point.Version}) != nil || point.Step != "channel" || point.Before != "456.71" || point.Version != "581.94" {
		t.Fatalf("resume point %s: %v %+v\n%s", resume, err, point, b)
	}
	r = w.gpuwiz(t, env, "--simulate", rig, "driver", "--install")
	if r.code != 1 || !strings.Contains(r.stderr, "waiting for a restart") {
		t.Errorf("an install before the restart: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	// The wizard, before the restart: the story, no u, and why.
	p.Text("clear")
	p.Keys("Enter")
	start(rig)
	p.WaitFor("Set up a new environment", 60*time.Second)
	p.Keys("Enter")
	p.WaitFor("waiting for a restart", 60*time.Second)
	p.Keys("q")
	p.WaitFor("EXIT=", 30*time.Second)

	// After the restart: the new driver answers, and the wizard continues at the channel step.
	after := filepath.Join(dir, "after.json")
	orig, _ := os.ReadFile(rig)
	_ = os.WriteFile(after, []byte(strings.Replace(strings.Replace(string(orig), `"456.71"`, `"581.94"`, 1), `"11.1"`, `"13.0"`, 1)), 0o644)
	p.Text("clear")
	p.Keys("Enter")
	start(after)
	ch := p.WaitFor("found after the restart", 60*time.Second)
	if !strings.Contains(ch, "won't run here") || !strings.Contains(ch, "(before: 456.71)") {
		t.Errorf("the channel step after the restart:\n%s", ch)
	}
	if _, err := os.Stat(resume); err == nil {
		t.Errorf("the resume point stays after the new driver was found")
	}
	p.Keys("q")
	p.WaitFor("EXIT=0", 30*time.Second)
}
