package cli

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"gpuwiz/steps/pyenv"
)

func TestPythonWithNoneFoundNamesWhatToInstall(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("CONDA_EXE", "")
	version := regexp.MustCompile(`install (64-bit )?Python 3\.\d+ `)

	_, stderr, code := runCLI(t, "python")
	if code != ExitFailure || !version.MatchString(stderr) || !strings.Contains(stderr, "--python PATH") {
		t.Fatalf("exit %d, stderr: %s", code, stderr)
	}

	out, _, code := runCLI(t, "python", "--json")
	var doc struct {
		Interpreters []any  `json:"interpreters"`
		Advice       string `json:"advice"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if code != ExitFailure || doc.Interpreters == nil || len(doc.Interpreters) != 0 || !version.MatchString(doc.Advice) {
		t.Fatalf("exit %d, doc %+v", code, doc)
	}
}

// On Linux python install shows the distribution's command and runs nothing; a bad version is exit 2.
func TestPythonInstallOnLinuxShowsTheDistributionCommand(t *testing.T) {
	t.Setenv("PATH", t.TempDir()) // no Python 3.12 already here
	t.Setenv("CONDA_EXE", "")
	out, stderr, code := runCLI(t, "python", "install", "3.12")
	if code != ExitOK || !strings.Contains(out, "gpuwiz does not run a package manager as root") {
		t.Fatalf("exit %d\n%s%s", code, out, stderr)
	}
	if pyenv.ReadDistro().Manager() == "apt" && !strings.Contains(out, "apt install python3.12 python3.12-venv") {
		t.Errorf("no apt command on this Debian-like machine:\n%s", out)
	}
	out, _, code = runCLI(t, "python", "install", "3.12", "--json")
	var doc struct {
		Plan struct {
			Method string `json:"method"`
		} `json:"plan"`
		ExitCode int `json:"exit_code"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 0 || doc.Plan.Method != "distribution package" {
		t.Fatalf("--json: exit %d %v\n%s", code, err, out)
	}
	if _, stderr, code := runCLI(t, "python", "install", "2.7"); code != ExitUsage || !strings.Contains(stderr, "give 3.X") {
		t.Fatalf("2.7: exit %d %s", code, stderr)
	}
}
