package install

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/shellquote"
	"gpuwiz/steps/testkit/filetree"
)

// tree is every file and folder under the venv's site-packages and scripts folder, by path, with
// its sha256 (bytecode caches as folders only).
func tree(t *testing.T, v pyenv.Venv) map[string]string {
	return filetree.Sums(t, v.Root, filetree.Options{Dirs: true}, append(venvSiteDirs(v.Root), v.BinDir())...)
}

// pip installs torch, torchvision and a new dependency, then fails on a torchaudio without a RECORD,
// leaving its dist-info behind: the old cu118 set must come back exactly, file by file.
func TestMidInstallFailureInAnExistingVenvRestoresEveryFile(t *testing.T) {
	ix := serve(t)
	v := userVenv(t)
	beforeFreeze, beforeTree := freeze(t, v), tree(t, v)
	target := torchTarget(ix, "cu126")
	target.IndexURL = ix.ChannelURL("cu126-norecord")
	target.Packages[2].Optional = false
	_, out, events := install(t, context.Background(), options(t, v, target, t.TempDir()), nil)
	if out.FailedStep != StepInstall {
		t.Fatalf("want a failure in the install step, got %+v", out)
	}
	if out.Result != ResultRestored || !out.Restored || len(out.Leftovers) > 0 {
		t.Fatalf("want restored, got %s (leftovers %+v): %v", out.Result, out.Leftovers, out.Err)
	}
	if !hasState(events, "restore", StateDone) {
		t.Fatalf("no restore event: %+v", events)
	}
	if d := filetree.Diff(beforeTree, tree(t, v)); len(d) > 0 {
		t.Fatalf("site-packages differs from before the run:\n%s", strings.Join(d, "\n"))
	}
	if after := freeze(t, v); after != beforeFreeze {
		t.Fatalf("pip freeze differs:\nbefore\n%s\nafter\n%s", beforeFreeze, after)
	}
}

// The same failure in a venv the run created: the venv is removed again.
func TestMidInstallFailureInANewVenvRemovesIt(t *testing.T) {
	ix := serve(t)
	root := filepath.Join(t.TempDir(), "envs", "new")
	v := pyenv.Venv{Root: root}
	target := torchTarget(ix, "cu126")
	target.IndexURL = ix.ChannelURL("cu126-norecord")
	target.Packages[2].Optional = false
	_, out, _ := install(t, context.Background(), options(t, v, target, t.TempDir()), nil)
	if out.FailedStep != StepInstall || out.Result != ResultRestored || !out.VenvRemoved {
		t.Fatalf("want the new venv removed after a failed install, got %s venv_removed=%v: %v", out.Result, out.VenvRemoved, out.Err)
	}
	if _, err := os.Stat(filepath.Dir(root)); !os.IsNotExist(err) {
		t.Fatalf("the folders the run made are still there: %v", err)
	}
}

// A difference the restore could not clear is reported as a leftover with its command.
func TestSiteStateCompareNamesEveryLeftover(t *testing.T) {
	site := filepath.Join(t.TempDir(), "site-packages")
	info := filepath.Join(site, "keep-1.0.dist-info")
	must(t, os.MkdirAll(info, 0o755))
	must(t, os.WriteFile(filepath.Join(site, "keep.py"), []byte("x=1\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(info, "RECORD"), []byte("keep.py,,\nkeep-1.0.dist-info/RECORD,,\n"), 0o644))
	before, err := readSiteState([]string{site})
	must(t, err)
	must(t, os.MkdirAll(filepath.Join(site, "half-2.0.dist-info"), 0o755))
	must(t, os.Remove(filepath.Join(site, "keep.py")))
	now, err := readSiteState([]string{site})
	must(t, err)
	left := before.compare(now, "linux", "/v/bin/python")
	var got []string
	for _, l := range left {
		got = append(got, l.What+" "+filepath.Base(l.Path)+" | "+l.Clear)
	}
	// Commands as one pastes them into a POSIX shell (steps/shellquote: quotes only where needed).
	want := []string{
		"extra half-2.0.dist-info | " + shellquote.Posix("rm", "-rf", "--", filepath.Join(site, "half-2.0.dist-info")),
		"missing keep.py | gpuwiz doctor --venv /v --fix",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("leftovers:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if c := removeCommand("windows", `C:\v\Lib\site-packages\it's`); c != `Remove-Item -Recurse -Force -LiteralPath 'C:\v\Lib\site-packages\it''s'` {
		t.Fatalf("windows command: %s", c)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
