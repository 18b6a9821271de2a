package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"gpuwiz/steps/doctor"
)

func runDoctorCLI(t *testing.T, args ...string) (int, string) {
	t.Helper()
	root, _ := NewRoot(Build{Version: "test"})
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(io.Discard)
	root.SetIn(bytes.NewReader(nil))
	root.SetArgs(append([]string{"doctor"}, args...))
	ctx := context.Background()
	return reportError(root.ExecuteContext(ctx), io.Discard, ctx), out.String()
}

func TestDoctorExitCodes(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	venv := filepath.Join(t.TempDir(), "v")
	if out, err := exec.Command("python3", "-m", "venv", "--without-pip", venv).CombinedOutput(); err != nil {
		t.Fatalf("venv: %v\n%s", err, out)
	}
	sp, _ := filepath.Glob(filepath.Join(venv, "lib", "python3*", "site-packages"))
	for _, n := range []string{"paddlepaddle", "paddlepaddle_gpu"} {
		info := filepath.Join(sp[0], n+"-3.0.0.dist-info")
		if err := os.MkdirAll(info, 0o755); err != nil {
			t.Fatal(err)
		}
		meta := "Metadata-Version: 2.1\nName: " + n + "\nVersion: 3.0.0\n"
		if err := os.WriteFile(filepath.Join(info, "METADATA"), []byte(meta), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out := runDoctorCLI(t, "--venv", venv, "--json")
	var rep doctor.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("--json output: %v\n%s", err, out)
	}
	if code != ExitProblems || !rep.HasCode(doctor.CodePaddleMixed) {
		t.Fatalf("exit %d, findings %+v", code, rep.Findings)
	}
	for _, bad := range [][]string{
		{"--venv", venv, "--python", "/usr/bin/python3"},
		{"--venv", filepath.Join(t.TempDir(), "missing")},
		{"--venv", t.TempDir()},
		{"--venv", venv, "--bundle", filepath.Join(t.TempDir(), "no", "such", "b.zip")},
		{"--yes"},
	} {
		if code, _ := runDoctorCLI(t, bad...); code != ExitUsage {
			t.Errorf("%q: exit %d, want %d", bad, code, ExitUsage)
		}
	}
}
