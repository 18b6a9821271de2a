package cli

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
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
