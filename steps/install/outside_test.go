package install

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/steps/envroot"
	"gpuwiz/steps/pyenv"
)

// recordNamesOutside adds to torch's RECORD in v three files outside the venv: an absolute path, a
// path up through .., and a path through a symlinked folder inside site-packages. It returns a
// check that each is still there, byte for byte.
func recordNamesOutside(t *testing.T, v pyenv.Venv) func() {
	t.Helper()
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.MkdirAll(victim, 0o755); err != nil {
		t.Fatal(err)
	}
	site := venvSiteDirs(v.Root)[0]
	infos, _ := filepath.Glob(filepath.Join(site, "torch-*.dist-info"))
	if len(infos) != 1 {
		t.Fatalf("torch's dist-info: %v", infos)
	}
	want := map[string][]byte{}
	lines := ""
	for _, n := range []string{"abs.txt", "rel.txt", "linked.txt"} {
		p := filepath.Join(victim, n)
		want[p] = []byte("the user's own " + n)
		if err := os.WriteFile(p, want[p], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(victim, filepath.Join(site, "torch", "victim-link")); err != nil {
		t.Fatal(err)
	}
	lines += filepath.ToSlash(filepath.Join(victim, "abs.txt")) + ",,\n"
	lines += strings.Repeat("../", 16) + strings.TrimPrefix(filepath.ToSlash(filepath.Join(victim, "rel.txt")), "/") + ",,\n"
	lines += "torch/victim-link/linked.txt,,\n"
	f, err := os.OpenFile(filepath.Join(infos[0], "RECORD"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(lines)
	f.Close()
	return func() {
		t.Helper()
		for p, b := range want {
			if got, err := os.ReadFile(p); err != nil || !bytes.Equal(got, b) {
				t.Errorf("outside the venv, %s: %v %q", p, err, got)
			}
		}
	}
}

// A channel switch in a venv whose torch RECORD names files outside it succeeds, leaves those files
// byte for byte as they were, and names them: per dist in the outcome (--json), in the log, and in a
// line of the uninstall step.
func TestSwitchLeavesFilesTheRecordNamesOutsideTheVenv(t *testing.T) {
	ix := serve(t)
	v := userVenv(t)
	check := recordNamesOutside(t, v)
	o := options(t, v, torchTarget(ix, "cu126"), t.TempDir())
	_, out, events := install(t, context.Background(), o, nil)
	if out.Result != ResultInstalled || !out.OK() {
		t.Fatalf("the switch did not succeed: %+v", out)
	}
	check()
	if len(out.Outside) != 1 || out.Outside[0].Dist != "torch" || len(out.Outside[0].Paths) != 3 {
		t.Fatalf("want torch's 3 outside paths in the outcome, got %+v", out.Outside)
	}
	line := false
	for _, ev := range events {
		line = line || strings.Contains(ev.Line, "3 files outside this environment")
	}
	if !line {
		t.Error("no line on screen names the files left alone")
	}
	log, _ := os.ReadFile(o.LogPath)
	if !strings.Contains(string(log), "rel.txt") || !strings.Contains(string(log), "left alone") {
		t.Errorf("the log does not list the files left alone:\n%s", log)
	}
}

// A switch that fails after the uninstall puts the old set back from the backup: the backup never
// held the files outside, and the restore writes nothing there.
func TestRestoreAfterAFailedSwitchLeavesFilesOutsideTheVenv(t *testing.T) {
	ix := serve(t)
	v := userVenv(t)
	check := recordNamesOutside(t, v)
	before := freeze(t, v)
	was := uninstallDist
	defer func() { uninstallDist = was }()
	uninstallDist = func(dir string, roots envroot.Roots) ([]string, []string, error) {
		removed, outside, err := was(dir, roots)
		if err == nil && strings.Contains(filepath.Base(dir), "torchvision") {
			err = &fs.PathError{Op: "remove", Path: filepath.Join(filepath.Dir(dir), "torchvision", "_C.pyd"), Err: fs.ErrPermission}
		}
		return removed, outside, err
	}
	_, out, _ := install(t, context.Background(), options(t, v, torchTarget(ix, "cu126"), t.TempDir()), nil)
	if out.Result != ResultRestored || !out.Restored {
		t.Fatalf("want the old set restored, got %+v", out)
	}
	check()
	if after := freeze(t, v); after != before {
		t.Fatalf("pip freeze differs:\nbefore\n%s\nafter\n%s", before, after)
	}
}

// A backup manifest or a journal is a file on disk: one edited to name paths outside the venv
// never makes the restore write or remove there.
func TestManifestPathsOutsideTheVenvAreDropped(t *testing.T) {
	venv := t.TempDir()
	outside := t.TempDir()
	e := &engine{plan: Plan{Venv: venv}, backupDir: filepath.Join(venv, ".gpuwiz", "backup-1")}
	os.MkdirAll(e.backupDir, 0o755)
	m := `{"purelib":"` + venv + `","platlib":"` + venv + `","dists":[{"name":"torch","version":"1","files":[["` +
		filepath.ToSlash(filepath.Join(outside, "x")) + `","1"],["` + filepath.ToSlash(filepath.Join(venv, "lib", "ok.py")) + `","2"],["` +
		filepath.ToSlash(filepath.Join(venv, "lib", "y")) + `","../../../../../escape"]]}],"moved":[["` + outside + `","` + filepath.ToSlash(filepath.Join(e.backupDir, "moved", "0")) + `"]]}`
	os.WriteFile(e.manifestPath(), []byte(m), 0o644)
	got, err := e.readManifest()
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Dists[0].Files) != 1 || got.Dists[0].Files[0][1] != "2" || len(got.Moved) != 0 {
		t.Fatalf("want only the file inside kept, got %+v", got)
	}
	if bad := journalOutside(Journal{Backup: outside}, venv, filepath.Join(venv, ".gpuwiz")); bad != outside {
		t.Errorf("a journal's backup outside the state folder: %q", bad)
	}
	if bad := journalOutside(Journal{NewVenv: true, CreatedAt: filepath.Dir(outside)}, venv, filepath.Join(venv, ".gpuwiz")); bad == "" {
		t.Error("a journal's created folder that is not above the venv was accepted")
	}
	if bad := journalOutside(Journal{NewVenv: true, CreatedAt: filepath.Dir(venv)}, venv, filepath.Join(venv, ".gpuwiz")); bad == "" {
		t.Error("a created folder above the venv that holds other things was accepted")
	}
	top := filepath.Join(t.TempDir(), "a")
	deep := filepath.Join(top, "b", "venv")
	os.MkdirAll(deep, 0o755)
	if bad := journalOutside(Journal{NewVenv: true, CreatedAt: top, Backup: filepath.Join(deep, ".gpuwiz", "backup-2")}, deep, filepath.Join(deep, ".gpuwiz")); bad != "" {
		t.Errorf("the run's own chain of folders was refused: %q", bad)
	}
	if _, err := os.Stat(outside); err != nil {
		t.Fatal(err)
	}
}
