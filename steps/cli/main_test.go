package cli

import (
	"encoding/json"
	"os"
	"testing"
)

// TestMain keeps the list of venvs gpuwiz worked on (the user config dir) out of the real one; tests
// that read it set their own with useConfigDir.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gpuwiz-cli-config-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CONFIG_HOME", dir)
	os.Setenv("APPDATA", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// useConfigDir gives the test its own user config dir, so its list of venvs starts empty.
func useConfigDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("APPDATA", dir)
	return dir
}

// knownVenvs is `gpuwiz venvs --json`.
type knownVenvEntry struct {
	Path   string
	Source string
	Known  *struct {
		Framework        string
		FrameworkVersion string `json:"framework_version"`
		Channel          string
		Action, Result   string
		OK               bool
	}
	Holds struct {
		Framework        string
		FrameworkVersion string `json:"framework_version"`
		Channel          string
		Python           string
	}
}

func knownVenvs(t *testing.T) []knownVenvEntry {
	t.Helper()
	out, stderr, code := runCLI(t, "venvs", "--json")
	if code != 0 {
		t.Fatalf("venvs: exit %d: %s", code, stderr)
	}
	var rep struct {
		List  string
		Venvs []knownVenvEntry
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return rep.Venvs
}
