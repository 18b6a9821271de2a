package pyenv

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"testing"

	"gpuwiz/steps/runner"
)

// freezeGivenEnv names the Python of an environment whose snapshot read in Go is compared with its
// own pip, byte for byte: a venv built elsewhere (the real torch family on a GPU machine, where this
// package's test binary is carried: GPUWIZ_FREEZE_PYTHON=/path/bin/python ./pyenv.test -test.run
// TestFreezeOfTheGivenEnvironment -test.v). Without it the test has nothing to compare and skips.
const freezeGivenEnv = "GPUWIZ_FREEZE_PYTHON"

func TestFreezeOfTheGivenEnvironment(t *testing.T) {
	py := os.Getenv(freezeGivenEnv)
	if py == "" {
		t.Skip(freezeGivenEnv + " names no Python: the tests' families are compared by the install package's TestSnapshotReadInGoEqualsPipFreeze")
	}
	facts, err := AskPathFacts(context.Background(), runner.New(nil), py, os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		read func(PathFacts) ([]byte, error)
	}{{[]string{"freeze", "--all"}, FreezeAll}, {[]string{"freeze"}, Freeze}} {
		var want bytes.Buffer
		cmd := exec.Command(py, append([]string{"-m", "pip"}, c.args...)...)
		cmd.Stdout, cmd.Stderr = &want, os.Stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("pip %v: %v", c.args, err)
		}
		got, err := c.read(facts)
		if err != nil {
			t.Fatalf("read in Go for pip %v: %v", c.args, err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("pip %v differs from the Go reading:\npip:\n%s\nGo:\n%s", c.args, want.Bytes(), got)
		}
		t.Logf("pip %v: %d lines, equal byte for byte", c.args, bytes.Count(got, []byte("\n")))
	}
}
