package ui

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/steps/cli"
)

func TestRunWithoutTerminalPointsToHeadlessInstall(t *testing.T) {
	var out, errOut bytes.Buffer
	code := Run(context.Background(), cli.Globals{}, strings.NewReader(""), &out, &errOut)
	if code != cli.ExitUsage {
		t.Fatalf("exit %d, want 2", code)
	}
	if !strings.Contains(errOut.String(), "gpuwiz install --yes") || out.Len() != 0 {
		t.Fatalf("stderr %q stdout %q", errOut.String(), out.String())
	}
}

func TestRunRejectsBadInputFilesFirst(t *testing.T) {
	dir := t.TempDir()
	badMatrix := filepath.Join(dir, "m.toml")
	os.WriteFile(badMatrix, []byte("schema = 1\npythn = 3\n"), 0o644)
	badRig := filepath.Join(dir, "rig.json")
	os.WriteFile(badRig, []byte("{not json"), 0o644)
	for _, c := range []struct {
		g    cli.Globals
		want string
	}{
		{cli.Globals{MatrixFile: badMatrix}, "m.toml:2: unknown key 'pythn'"},
		{cli.Globals{MatrixFile: filepath.Join(dir, "missing.toml")}, "cannot read matrix file"},
		{cli.Globals{SimulateFile: badRig}, "--simulate"},
	} {
		var out, errOut bytes.Buffer
		code := Run(context.Background(), c.g, strings.NewReader(""), &out, &errOut)
		if code != cli.ExitUsage || !strings.Contains(errOut.String(), c.want) {
			t.Errorf("%+v: exit %d, stderr %q; want 2 and %q", c.g, code, errOut.String(), c.want)
		}
	}
}
