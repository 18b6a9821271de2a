package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A torch whose RECORD names files outside the venv (an absolute path, a path up through .., a
// path through a symlinked folder): doctor names the dist and the paths; doctor --fix reinstalls
// it from the wheel cache with no network, leaves every file outside byte for byte as it was, and
// the RECORD it writes stays inside, so the check after the repair finds nothing.
func TestDoctorFixRewritesARecordThatNamesFilesOutside(t *testing.T) {
	g, ix := cudaRig(t)
	installCUDABuild(t, g, ix)
	t.Setenv("PATH", filepath.Join(g.venv, "bin")+string(os.PathListSeparator)+os.Getenv("PATH")) // the venv is active
	victim := filepath.Join(t.TempDir(), "victim")
	must(t, os.MkdirAll(victim, 0o755))
	want := map[string]string{}
	for _, n := range []string{"abs.txt", "rel.txt", "linked.txt"} {
		want[filepath.Join(victim, n)] = "the user's own " + n
		must(t, os.WriteFile(filepath.Join(victim, n), []byte(want[filepath.Join(victim, n)]), 0o644))
	}
	infos, _ := filepath.Glob(filepath.Join(g.venv, "lib", "python3*", "site-packages", "torch-*.dist-info"))
	if len(infos) != 1 {
		t.Fatalf("torch's dist-info: %v", infos)
	}
	site := filepath.Dir(infos[0])
	must(t, os.Symlink(victim, filepath.Join(site, "torch", "victim-link")))
	record := filepath.Join(infos[0], "RECORD")
	f, err := os.OpenFile(record, os.O_APPEND|os.O_WRONLY, 0)
	must(t, err)
	f.WriteString(filepath.Join(victim, "abs.txt") + ",,\n" + strings.Repeat("../", 16) + strings.TrimPrefix(filepath.Join(victim, "rel.txt"), "/") + ",,\ntorch/victim-link/linked.txt,,\n")
	f.Close()

	out, _, _ := g.cli(t, "doctor", "--venv", g.venv, "--json")
	oneJSON(t, "doctor --json", out)
	if !strings.Contains(out, `"record-outside"`) || !strings.Contains(out, "torch 2.6.0+cu126: its RECORD names 3 files outside the environment") {
		t.Fatalf("doctor does not name torch's RECORD:\n%s", out)
	}
	rep := g.fix(t)
	if rep.Result.Failed || rep.Result.After == nil || rep.Result.After.Problems != 0 {
		t.Fatalf("repair: %+v", rep.Result)
	}
	for p, b := range want {
		if got, err := os.ReadFile(p); err != nil || string(got) != b {
			t.Errorf("outside the venv, %s: %v %q", p, err, got)
		}
	}
	rec, err := os.ReadFile(record)
	if err != nil || strings.Contains(string(rec), "victim") {
		t.Errorf("the RECORD after the repair still names the files outside (%v)", err)
	}
	if !strings.Contains(string(g.fixLog(t)), "left alone") {
		t.Error("the repair's log does not list what it left alone")
	}
}
