package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/steps/pyindex"
)

// cliIndex serves torch 2.6.0 cu126 stubs (the embedded matrix's packages for that build).
func cliIndex(t *testing.T) *pyindex.Index {
	t.Helper()
	dir := t.TempDir()
	spec := pyindex.StubSpec{Version: "2.6.0+cu126", CUDA: "12.6", CudaAvailable: true, CuDNN: 90100, ArchList: []string{"sm_80", "sm_90"}}
	var files []string
	for _, w := range []struct {
		dist, version string
		files         map[string]string
	}{
		{"torch", "2.6.0+cu126", pyindex.TorchStub(spec)},
		{"torchvision", "0.21.0+cu126", map[string]string{"torchvision/__init__.py": "__version__ = '0.21.0+cu126'\n"}},
		{"torchaudio", "2.6.0+cu126", map[string]string{"torchaudio/__init__.py": "__version__ = '2.6.0+cu126'\n"}},
	} {
		p, err := pyindex.BuildWheel(dir, w.dist, w.version, w.files, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	return pyindex.Serve(t, map[string][]string{"cu126": files})
}

func TestInstallDryRunJSONRunsNothing(t *testing.T) {
	ix := cliIndex(t)
	venv := filepath.Join(t.TempDir(), "new venv")
	out, stderr, code := runCLI(t, "install", "--framework", "torch", "--framework-version", "2.6.0", "--channel", "cu126",
		"--venv", venv, "--python", pyindex.Python(t), "--index-url", ix.ChannelURL("cu126"), "--dry-run", "--json", "--cache-dir", t.TempDir())
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
	base := []string{"install", "--framework-version", "2.6.0", "--channel", "cu126", "--python", pyindex.Python(t)}
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
		{"nothing compatible", []string{"install", "--framework-version", "9.9", "--channel", "cu126", "--venv", filepath.Join(t.TempDir(), "v"), "--python", pyindex.Python(t), "--yes"}, 3, "no torch 9.9"},
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
	ix := cliIndex(t)
	t.Setenv("GPUWIZ_VERIFY_MATRIX_N", "8")
	dir := t.TempDir()
	answers := filepath.Join(dir, "answers.toml")
	body := "framework = \"torch\"\nframework-version = \"2.6.0\"\nchannel = \"cu126\"\nvenv = \"env; 中文\"\n" +
		"python = \"" + pyindex.Python(t) + "\"\nindex-url = \"" + ix.ChannelURL("cu126") + "\"\ncache-dir = \"" + filepath.Join(dir, "cache") + "\"\nno-pip-upgrade = true\n"
	_ = os.WriteFile(answers, []byte(body), 0o644)
	out, stderr, code := runCLI(t, "install", "--config", answers, "--yes", "--json", "--log", filepath.Join(dir, "install.log"))
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
}

// An index that does not answer: exit 1, nothing changed, the venv the run created is gone again,
// the JSON says so and offers no activation of it.
func TestInstallUnreachableIndexRemovesTheNewVenv(t *testing.T) {
	ix := cliIndex(t)
	url := ix.ChannelURL("cu126")
	ix.Close()
	t.Setenv("PIP_RETRIES", "0")
	dir := t.TempDir()
	venv := filepath.Join(dir, "new env")
	out, stderr, code := runCLI(t, "install", "--framework", "torch", "--framework-version", "2.6.0", "--channel", "cu126",
		"--venv", venv, "--python", pyindex.Python(t), "--index-url", url, "--cache-dir", filepath.Join(dir, "cache"),
		"--no-pip-upgrade", "--yes", "--json", "--log", filepath.Join(dir, "install.log"))
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
}
