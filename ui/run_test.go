package ui

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/steps/app"
)

func TestRunWithoutTerminalPointsToHeadlessInstall(t *testing.T) {
	var out, errOut bytes.Buffer
	code := Run(context.Background(), app.Globals{}, strings.NewReader(""), &out, &errOut)
	if code != app.ExitUsage {
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
		g    app.Globals
		want string
	}{
		{app.Globals{MatrixFile: badMatrix}, "m.toml:2: unknown key 'pythn'"},
		{app.Globals{MatrixFile: filepath.Join(dir, "missing.toml")}, "cannot read matrix file"},
		{app.Globals{SimulateFile: badRig}, "--simulate"},
		{app.Globals{SourcesFile: badMatrix}, "--sources: " + badMatrix + ":2: unknown key 'pythn'"},
		{app.Globals{SourcesFile: filepath.Join(dir, "missing.toml")}, "--sources: cannot read the sources file"},
	} {
		var out, errOut bytes.Buffer
		code := Run(context.Background(), c.g, strings.NewReader(""), &out, &errOut)
		if code != app.ExitUsage || !strings.Contains(errOut.String(), c.want) {
			t.Errorf("%+v: exit %d, stderr %q; want 2 and %q", c.g, code, errOut.String(), c.want)
		}
	}
}

// stdout on a terminal but stdin not (`gpuwiz < /dev/null`): refused up front with the headless
// commands and exit 2, not started and stopped as "interrupted" (130).
func TestRunWithoutTerminalOnStdinNamesHeadlessCommands(t *testing.T) {
	dir := t.TempDir()
	out, err := os.Create(filepath.Join(dir, "tty"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	in, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	was := app.IsTerminal
	app.IsTerminal = func(f *os.File) bool { return f == out }
	defer func() { app.IsTerminal = was }()
	var errOut bytes.Buffer
	code := Run(context.Background(), app.Globals{}, in, out, &errOut)
	if code != app.ExitUsage {
		t.Fatalf("exit %d, want 2; stderr %q", code, errOut.String())
	}
	for _, want := range []string{"stdin is not", "gpuwiz install --yes", "gpuwiz --help"} {
		if !strings.Contains(errOut.String(), want) {
			t.Fatalf("stderr %q lacks %q", errOut.String(), want)
		}
	}
	if fi, _ := out.Stat(); fi.Size() != 0 {
		t.Fatalf("the wizard drew %d bytes on stdout", fi.Size())
	}
}
