package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMatrixPrintsEveryBuild(t *testing.T) {
	out, _, code := runCLI(t, "matrix")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"2.4.1", "2.15.0", "cu134", "3.0.0", "cu123", "https://www.paddlepaddle.org.cn/packages/stable/cu126/", "528.33 / 561.17", "on linux only"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q", want)
		}
	}
	out, _, _ = runCLI(t, "matrix", "--json")
	var m struct{ Torch, Paddle []any }
	if err := json.Unmarshal([]byte(out), &m); err != nil || len(m.Torch) != 12 || len(m.Paddle) != 7 {
		t.Errorf("json: %v, %d torch, %d paddle", err, len(m.Torch), len(m.Paddle))
	}
}

// The embedded file, printed with --toml and edited, is what --matrix and validate read.
func TestMatrixTOMLRoundTripsThroughValidate(t *testing.T) {
	out, _, code := runCLI(t, "matrix", "--toml")
	if code != 0 || !strings.HasPrefix(out, "# gpuwiz version matrix") {
		t.Fatalf("exit %d, output starts %.40q", code, out)
	}
	file := filepath.Join(t.TempDir(), "m.toml")
	if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runCLI(t, "matrix", "validate", file)
	if code != 0 || !strings.Contains(stdout, ": ok (12 torch releases, 7 paddle releases, 82 builds, 10 CUDA driver rows)") {
		t.Fatalf("exit %d: %s %s", code, stdout, stderr)
	}
	broken := strings.Replace(out, `index_url = "https://download.pytorch.org/whl/cu118"`, `index_url = "http://mirror.example.com/whl/cu118"`, 1)
	if err := os.WriteFile(file, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = runCLI(t, "matrix", "validate", file)
	if code != ExitFailure || !strings.Contains(stderr, "m.toml:") || !strings.Contains(stderr, "plain http to a public host") {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

func TestMatrixValidateTestdata(t *testing.T) {
	for file, want := range map[string]string{
		"unknown-key.toml":      "unknown-key.toml:15: unknown key 'pythn_min'",
		"duplicate-row.toml":    "duplicate-row.toml:37: duplicate build",
		"http-public-host.toml": "http-public-host.toml:26: ",
		"bad-version.toml":      "bad-version.toml:14: bad torch version",
	} {
		path := filepath.Join("..", "..", "testdata", "matrix", file)
		_, stderr, code := runCLI(t, "matrix", "validate", path)
		if code != ExitFailure || !strings.HasPrefix(stderr, filepath.Join(filepath.Dir(path), want)) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%s: exit %d, stderr %q", file, code, stderr)
		}
	}
	if _, _, code := runCLI(t, "matrix", "validate"); code != ExitUsage {
		t.Errorf("no FILE: exit %d", code)
	}
	if _, stderr, code := runCLI(t, "matrix", "validate", "/nonexistent.toml"); code != ExitFailure || !strings.Contains(stderr, "cannot read matrix file") {
		t.Errorf("missing file: exit %d %q", code, stderr)
	}
}
