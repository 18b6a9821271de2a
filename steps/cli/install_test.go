package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/steps/testkit/pyindex"
)

// rigArgs points --simulate at an H200 rig (driver 580, CUDA 13.0, cc 9.0), on which torch 2.6.0 cu126 fits.
func rigArgs(t *testing.T) []string {
	t.Helper()
	rig := filepath.Join(t.TempDir(), "rig.json")
	if err := os.WriteFile(rig, []byte(rigH200), 0o644); err != nil {
		t.Fatal(err)
	}
	return []string{"--simulate", rig}
}

func withRig(t *testing.T, args ...string) []string { return append(rigArgs(t), args...) }

// cliIndex serves torch 2.6.0 cu126 stubs (the embedded matrix's packages for that build).
func cliIndex(t *testing.T) *pyindex.Index {
	t.Helper()
	dir := t.TempDir()
	spec := pyindex.StubSpec{Version: "2.6.0+cu126", CUDA: "12.6", CudaAvailable: true, CuDNN: 90100, ArchList: []string{"sm_80", "sm_90"}}
	files := pyindex.TorchFamily(t, dir, spec, 0)
	return pyindex.Serve(t, map[string][]string{"cu126": files})
}

func TestInstallDryRunJSONRunsNothing(t *testing.T) {
	ix := cliIndex(t)
	venv := filepath.Join(t.TempDir(), "new venv")
	out, stderr, code := runCLI(t, withRig(t, "install", "--framework", "torch", "--framework-version", "2.6.0", "--channel", "cu126",
		"--venv", venv, "--python", pyindex.Python(t), "--index-url", ix.ChannelURL("cu126"), "--dry-run", "--json", "--cache-dir", t.TempDir())...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		Uninstall []string   `json:"uninstall"`
		Install   []string   `json:"install"`
		Commands  [][]string `json:"commands"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if strings.Join(got.Install, " ") != "torch==2.6.0 torchvision==0.21.0 torchaudio==2.6.0" || len(got.Uninstall) != 0 || len(got.Commands) < 5 {
		t.Fatalf("plan: %+v", got)
	}
	for _, c := range got.Commands {
		s := strings.Join(c, " ")
		if strings.Contains(s, "--extra-index-url") {
			t.Errorf("extra index in %s", s)
		}
		if strings.Contains(s, " download ") && !strings.Contains(s, "--no-index") && !strings.Contains(s, "--index-url "+ix.ChannelURL("cu126")) {
			t.Errorf("download without the channel's index: %s", s)
		}
	}
	if _, err := os.Stat(venv); err == nil {
		t.Error("--dry-run created the venv")
	}
	if ix.TotalRequests() != 0 {
		t.Error("--dry-run fetched wheels")
	}
}

func TestInstallBadInput(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	_ = os.WriteFile(file, nil, 0o644)
	answers := filepath.Join(t.TempDir(), "a.toml")
	_ = os.WriteFile(answers, []byte("framework = \"torch\"\nvenv = \"v\"\nchanel = \"cu126\"\n"), 0o644)
	base := withRig(t, "install", "--framework-version", "2.6.0", "--channel", "cu126", "--python", pyindex.Python(t))
	noRig := []string{"install", "--framework-version", "2.6.0", "--channel", "cu126", "--python", pyindex.Python(t), "--dry-run"}
	notPython := filepath.Join(t.TempDir(), "python3")
	_ = os.WriteFile(notPython, []byte("#!/bin/sh\necho not python\n"), 0o755)
	for _, tc := range []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"venv is a file", append(base, "--venv", file, "--yes"), 2, "file"},
		{"read-only parent", append(base, "--venv", "/proc/gpuwiz-venv", "--yes"), 2, "/proc"},
		{"plain http", append(base, "--venv", filepath.Join(t.TempDir(), "v"), "--index-url", "http://example.com/whl/cu126", "--yes"), 2, "loopback"},
		{"no terminal, no --yes", append(base, "--venv", filepath.Join(t.TempDir(), "v")), 2, "--yes"},
		{"unknown answer key", []string{"install", "--config", answers, "--yes"}, 2, "chanel"},
		{"unknown version", []string{"install", "--framework-version", "9.9", "--channel", "cu126", "--venv", filepath.Join(t.TempDir(), "v"), "--python", pyindex.Python(t), "--yes"}, 2, "no torch release 9.9 (it knows 2.4.1"},
		{"unknown channel", append(base, "--channel", "cu999", "--venv", filepath.Join(t.TempDir(), "v"), "--dry-run"), 2, "torch has no such channel (it has cu118"},
		{"not a python", append(base, "--python", notPython, "--venv", filepath.Join(t.TempDir(), "v"), "--dry-run"), 2, "does not run as a Python 3 interpreter"},
		{"build asked for does not fit", append(noRig, "--venv", filepath.Join(t.TempDir(), "v")), 3, "torch 2.6.0 on cu126 does not fit this machine: no NVIDIA driver found"},
		{"driver too old for the channel", []string{"--simulate", "../../ui/testdata/e2e/rig-rtx3060.json", "install", "--channel", "cu130", "--framework-version", "2.9",
			"--python", pyindex.Python(t), "--venv", filepath.Join(t.TempDir(), "v"), "--dry-run"}, 3, "driver 560.94 supports CUDA 12.6; cu130 needs driver ≥ 580 on Linux"},
		{"bad framework", []string{"install", "--framework", "jax", "--venv", "v"}, 2, "torch or paddle"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := runCLI(t, tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.msg) {
				t.Fatalf("exit %d (want %d), stderr %q (want %q)", code, tc.code, stderr, tc.msg)
			}
		})
	}
	if b, _ := os.ReadFile(file); len(b) != 0 {
		t.Error("the file was written")
	}
}

// An answer file drives an unattended install (as docs/fleet.md does); verify then reads the venv.
func TestInstallFromAnswerFileThenVerify(t *testing.T) {
	useConfigDir(t)
	ix := cliIndex(t)
	t.Setenv("GPUWIZ_VERIFY_MATRIX_N", "8")
	dir := t.TempDir()
	answers := filepath.Join(dir, "answers.toml")
	body := "framework = \"torch\"\nframework-version = \"2.6.0\"\nchannel = \"cu126\"\nvenv = \"env; 中文\"\n" +
		"python = \"" + pyindex.Python(t) + "\"\nindex-url = \"" + ix.ChannelURL("cu126") + "\"\ncache-dir = \"" + filepath.Join(dir, "cache") + "\"\nno-pip-upgrade = true\n"
	_ = os.WriteFile(answers, []byte(body), 0o644)
	out, stderr, code := runCLI(t, withRig(t, "install", "--config", answers, "--yes", "--json", "--log", filepath.Join(dir, "install.log"))...)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, stderr, out)
	}
	var rep struct {
		ExitCode int `json:"exit_code"`
		Outcome  struct {
			Result string `json:"result"`
			Verify struct {
				OK bool `json:"ok"`
			} `json:"verify"`
			ConstraintsFile string `json:"constraints_file"`
		} `json:"outcome"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if rep.ExitCode != 0 || rep.Outcome.Result != "installed" || !rep.Outcome.Verify.OK || !strings.HasPrefix(rep.Outcome.ConstraintsFile, filepath.Join(dir, "env; 中文")) {
		t.Fatalf("report: %+v", rep)
	}
	out, stderr, code = runCLI(t, "verify", "--venv", filepath.Join(dir, "env; 中文"), "--json")
	if code != 0 || !strings.Contains(out, `"local_label": "+cu126"`) {
		t.Fatalf("verify exit %d: %s\n%s", code, stderr, out)
	}
	// The constraints file names the channel: a cu118 expectation fails with exit 4.
	_, _, code = runCLI(t, "verify", "--venv", filepath.Join(dir, "env; 中文"), "--channel", "cu118")
	if code != 4 {
		t.Fatalf("verify against cu118: exit %d, want 4", code)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "install.log"))
	if !strings.Contains(string(log), "pip install") && !strings.Contains(string(log), "install") {
		t.Error("the log has no commands")
	}
	// The venv is on the list of venvs gpuwiz worked on, with what it holds and how the run ended.
	known := knownVenvs(t)
	if len(known) != 1 || known[0].Path != filepath.Join(dir, "env; 中文") || known[0].Known == nil ||
		known[0].Known.Action != "install" || known[0].Known.Result != "installed" || !known[0].Known.OK ||
		known[0].Holds.Framework != "torch" || known[0].Holds.FrameworkVersion != "2.6.0" || known[0].Holds.Channel != "cu126" {
		t.Fatalf("gpuwiz venvs: %+v", known)
	}
	text, _, _ := runCLI(t, "venvs")
	if !strings.Contains(text, filepath.Join(dir, "env; 中文")+"\n    PyTorch 2.6.0 (cu126), Python ") || !strings.Contains(text, "· installed on ") {
		t.Errorf("gpuwiz venvs:\n%s", text)
	}
	// A venv that no longer exists leaves the list.
	if err := os.RemoveAll(filepath.Join(dir, "env; 中文")); err != nil {
		t.Fatal(err)
	}
	if known := knownVenvs(t); len(known) != 0 {
		t.Fatalf("a removed venv is still listed: %+v", known)
	}
}

// An index that does not answer: exit 1, nothing changed, the venv the run created is gone again,
// the JSON says so and offers no activation of it.
func TestInstallUnreachableIndexRemovesTheNewVenv(t *testing.T) {
	useConfigDir(t)
	ix := cliIndex(t)
	url := ix.ChannelURL("cu126")
	ix.Close()
	t.Setenv("PIP_RETRIES", "0")
	dir := t.TempDir()
	venv := filepath.Join(dir, "new env")
	out, stderr, code := runCLI(t, withRig(t, "install", "--framework", "torch", "--framework-version", "2.6.0", "--channel", "cu126",
		"--venv", venv, "--python", pyindex.Python(t), "--index-url", url, "--cache-dir", filepath.Join(dir, "cache"),
		"--no-pip-upgrade", "--yes", "--json", "--log", filepath.Join(dir, "install.log"))...)
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s\n%s", code, stderr, out)
	}
	var rep struct {
		Outcome struct {
			Result      string `json:"result"`
			VenvRemoved bool   `json:"venv_removed"`
			Error       string `json:"error"`
		} `json:"outcome"`
		ActivateHints []string `json:"activate_hints"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if rep.Outcome.Result != "unchanged" || !rep.Outcome.VenvRemoved || len(rep.ActivateHints) != 0 ||
		!strings.Contains(rep.Outcome.Error, "could not reach the package index") {
		t.Fatalf("report: %+v", rep)
	}
	if _, err := os.Stat(venv); !os.IsNotExist(err) {
		t.Fatalf("the new venv is still there (%v)", err)
	}
	if known := knownVenvs(t); len(known) != 0 {
		t.Fatalf("a venv that was removed again is on the list: %+v", known)
	}
}

// --force installs the build asked for on a machine it does not fit (here: no driver at all), and the
// plan says why it would have been refused.
func TestInstallForceTakesABuildThatDoesNotFit(t *testing.T) {
	venv := filepath.Join(t.TempDir(), "v")
	args := []string{"install", "--framework-version", "2.6.0", "--channel", "cu126", "--python", pyindex.Python(t), "--venv", venv, "--dry-run", "--json"}
	if _, _, code := runCLI(t, args...); code != ExitIncompatible {
		t.Fatalf("without --force: exit %d, want 3", code)
	}
	out, stderr, code := runCLI(t, append(args, "--force")...)
	if code != 0 {
		t.Fatalf("--force: exit %d: %s", code, stderr)
	}
	var rep struct {
		Candidate struct {
			FrameworkVersion string `json:"framework_version"`
			Channel          string `json:"channel"`
		} `json:"candidate"`
		Plan struct {
			Notes []string `json:"notes"`
		} `json:"plan"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if rep.Candidate.FrameworkVersion != "2.6.0" || rep.Candidate.Channel != "cu126" || !strings.Contains(strings.Join(rep.Plan.Notes, "\n"), "--force: torch 2.6.0 (cu126) does not fit this machine: no NVIDIA driver found") {
		t.Fatalf("candidate %+v, notes %q", rep.Candidate, rep.Plan.Notes)
	}
	if _, err := os.Stat(venv); err == nil {
		t.Error("--dry-run created the venv")
	}
}

// Under --json a command that fails before printing anything still prints one JSON object on stdout,
// so a fleet script that parses stdout (docs/fleet.md) gets an answer from every host.
func TestJSONErrorsArePrintedOnStdout(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"install", "--channel", "cu999", "--venv", filepath.Join(t.TempDir(), "v"), "--dry-run", "--json"}, 2, "--channel cu999"},
		{[]string{"install", "--channel", "cu126", "--venv", filepath.Join(t.TempDir(), "v"), "--python", pyindex.Python(t), "--dry-run", "--json"}, 3, "does not fit this machine"},
		{[]string{"channels", "--driver", "abc", "--json"}, 2, `driver version "abc"`},
	} {
		out, stderr, code := runCLI(t, tc.args...)
		var got struct {
			ExitCode int    `json:"exit_code"`
			Error    string `json:"error"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Errorf("%v: stdout is not JSON (%v): %q", tc.args, err, out)
			continue
		}
		if code != tc.code || got.ExitCode != tc.code || !strings.Contains(got.Error, tc.msg) || !strings.Contains(stderr, tc.msg) {
			t.Errorf("%v: exit %d, JSON %+v, stderr %q; want %d and %q", tc.args, code, got, stderr, tc.code, tc.msg)
		}
	}
}

// Credentials in an index URL never reach the screen or the JSON (the log redacts them too).
func TestInstallDryRunRedactsIndexCredentials(t *testing.T) {
	url := "https://bob:s3cr3t@example.com/simple/?token=t0ken"
	for _, extra := range [][]string{nil, {"--json"}} {
		args := withRig(t, append([]string{"install", "--framework-version", "2.6.0", "--channel", "cu126", "--python", pyindex.Python(t),
			"--venv", filepath.Join(t.TempDir(), "v"), "--index-url", url, "--dry-run"}, extra...)...)
		out, stderr, code := runCLI(t, args...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if strings.Contains(out, "s3cr3t") || strings.Contains(out, "t0ken") || !strings.Contains(out, "https://***@example.com/simple/?token=***") {
			t.Errorf("%v: output shows the secret or no redacted URL:\n%s", extra, out)
		}
		if extra != nil && !json.Valid([]byte(out)) {
			t.Errorf("redacted JSON is not valid JSON:\n%s", out)
		}
	}
}

// An unverified build that fits is installed when its channel is asked for; the plan says what that
// means instead of repeating the selection's offer of it.
func TestInstallOfAnUnverifiedBuildSaysWhatItMeans(t *testing.T) {
	venv := filepath.Join(t.TempDir(), "v")
	out, stderr, code := runCLI(t, withRig(t, "install", "--framework-version", "2.15.0", "--channel", "cu130", "--python", pyindex.Python(t),
		"--venv", venv, "--dry-run", "--json", "--lang", "en")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep struct {
		Candidate struct {
			FrameworkVersion string `json:"framework_version"`
			Channel          string `json:"channel"`
			Verified         bool   `json:"verified"`
		} `json:"candidate"`
		Plan struct {
			Notes []string `json:"notes"`
		} `json:"plan"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	notes := strings.Join(rep.Plan.Notes, "\n")
	if rep.Candidate.FrameworkVersion != "2.15.0" || rep.Candidate.Channel != "cu130" || rep.Candidate.Verified {
		t.Fatalf("candidate %+v", rep.Candidate)
	}
	if !strings.Contains(notes, "torch 2.15.0 (cu130) is unverified and is installed because it was asked for: Read from nightly builds") ||
		strings.Contains(notes, "to install it anyway") {
		t.Errorf("notes %q", rep.Plan.Notes)
	}
}

// A channel asked for alone takes its newest verified build, not a newer unverified one.
func TestChannelAloneTakesItsNewestVerifiedBuild(t *testing.T) {
	venv := filepath.Join(t.TempDir(), "v")
	out, stderr, code := runCLI(t, withRig(t, "install", "--channel", "cu130", "--python", pyindex.Python(t),
		"--venv", venv, "--dry-run", "--json", "--lang", "en")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep struct {
		Candidate struct {
			FrameworkVersion string `json:"framework_version"`
			Channel          string `json:"channel"`
			Verified         bool   `json:"verified"`
		} `json:"candidate"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if rep.Candidate.Channel != "cu130" || !rep.Candidate.Verified || rep.Candidate.FrameworkVersion == "2.15.0" {
		t.Fatalf("--channel cu130 alone chose %+v", rep.Candidate)
	}
	// On a driver too old for the channel, the refusal (and --force) names its newest verified build.
	rig, _ := filepath.Abs(filepath.Join("..", "..", "ui", "testdata", "e2e", "rig-rtx3060.json"))
	_, stderr, code = runCLI(t, "--simulate", rig, "install", "--channel", "cu130", "--python", pyindex.Python(t), "--venv", venv, "--dry-run", "--lang", "en")
	if code != 3 || !strings.Contains(stderr, "torch 2.14.1 on cu130 does not fit") {
		t.Fatalf("an old driver and cu130 alone: exit %d\n%s", code, stderr)
	}
}
