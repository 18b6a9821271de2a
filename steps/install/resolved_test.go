package install

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
)

// installLogged prepares with one log and runs with another, so the run's own commands can be
// counted; it returns the outcome and the run's log.
func installLogged(t *testing.T, o Options) (Outcome, string) {
	t.Helper()
	ctx := context.Background()
	plan, err := Prepare(ctx, runner.New(nil), o)
	if err != nil {
		t.Fatalf("prepare: %v", err)
	}
	log, err := os.Create(o.LogPath)
	if err != nil {
		t.Fatal(err)
	}
	out := Run(ctx, runner.New(log), plan, nil)
	log.Close()
	b, _ := os.ReadFile(o.LogPath)
	return out, string(b)
}

// pipRuns are the pip commands a run's log shows ("$ python -m pip …", or gpuwiz's own pip).
func pipRuns(log string) []string {
	var out []string
	for _, l := range strings.Split(log, "\n") {
		f := strings.Fields(l)
		if len(f) > 3 && f[0] == "$" && (f[2] == "-m" && f[3] == "pip" || strings.HasSuffix(f[2], "__pip-runner__.py")) {
			out = append(out, l)
		}
	}
	return out
}

// editResolved changes the set recorded last (this Python's: a set recorded again goes last).
func editResolved(t *testing.T, dir string, edit func(*resolvedSet)) {
	t.Helper()
	rec := readResolved(dir)
	if len(rec.Sets) == 0 {
		t.Fatalf("the cache folder records no resolution")
	}
	edit(&rec.Sets[len(rec.Sets)-1])
	b, _ := json.Marshal(rec)
	if err := os.WriteFile(filepath.Join(dir, resolvedFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// The first install resolves with pip and records the set; a new venv and a reinstall in place
// with the cache warm take it and start no pip at all; every doubt falls back to pip, with the
// reason in the log, and the next run takes the set again.
func TestRecordedResolutionRunsNoPipAndFallsBackOnDoubt(t *testing.T) {
	ix := serve(t)
	cache := filepath.Join(t.TempDir(), "cache")
	target := torchTarget(ix, "cu126")
	newVenv := func() pyenv.Venv { return pyenv.Venv{Root: filepath.Join(t.TempDir(), "venv")} }

	out, log := installLogged(t, options(t, newVenv(), target, cache))
	if !out.OK() || len(pipRuns(log)) == 0 {
		t.Fatalf("first install: %+v; pip runs %q", out, pipRuns(log))
	}
	if !strings.Contains(log, "no resolution recorded for this request") || !strings.Contains(log, "the resolution (4 wheels) recorded in "+resolvedFile) {
		t.Fatalf("the first install's log does not say it recorded the resolution:\n%s", log)
	}
	stage := StageDir(cache, target)

	// A new venv, both caches warm: not one pip command in the whole run.
	v := newVenv()
	out, log = installLogged(t, options(t, v, target, cache))
	if !out.OK() || out.Source != "cache" || out.BytesDownloaded != 0 {
		t.Fatalf("warm new venv: %+v", out)
	}
	if runs := pipRuns(log); len(runs) != 0 {
		t.Errorf("a warm new venv ran pip %d times:\n%s", len(runs), strings.Join(runs, "\n"))
	}
	if !strings.Contains(log, "4 wheels, all in the cache and checked, taken without starting pip") {
		t.Errorf("the log does not say the recorded set was taken:\n%s", log)
	}
	for _, want := range []string{"torch==2.6.0+cu126", "torchvision==0.21.0+cu126", "torchaudio==2.6.0+cu126", "gpuwiz-dep==1.0"} {
		if f := freeze(t, v); !strings.Contains(f, want) {
			t.Errorf("the warm venv lacks %s:\n%s", want, f)
		}
	}
	// A reinstall in place, offline: no pip either.
	ix.Close()
	out, log = installLogged(t, options(t, v, target, cache))
	if !out.OK() || out.Source != "cache" {
		t.Fatalf("reinstall: %+v", out)
	}
	if runs := pipRuns(log); len(runs) != 0 {
		t.Errorf("a reinstall in place ran pip %d times:\n%s", len(runs), strings.Join(runs, "\n"))
	}

	// Each doubt: pip's offline try decides (the cache holds the whole build), the reason is in the
	// log, and the set is recorded again for the next run.
	torchvision := func() string {
		m, _ := filepath.Glob(filepath.Join(stage, "torchvision-*.whl"))
		return filepath.Base(m[0])
	}()
	for _, c := range []struct {
		name, why string
		doubt     func()
	}{
		{"another Python", "the recorded resolution is for Python 3.0.1, this is Python ", func() {
			editResolved(t, stage, func(r *resolvedSet) { r.Key.Python = "3.0.1" })
		}},
		{"a set pip would not accept", "torch-2.6.0+cu126-py3-none-any.whl requires gpuwiz-dep>=1.0, which no wheel of the set is", func() {
			editResolved(t, stage, func(r *resolvedSet) {
				r.Wheels = slices.DeleteFunc(r.Wheels, func(w resolvedWheel) bool { return strings.HasPrefix(w.File, "gpuwiz_dep-") })
			})
		}},
		{"a pin the set lacks", "no wheel of the set is torchvision==0.21.0+cu126", func() {
			editResolved(t, stage, func(r *resolvedSet) {
				r.Wheels = slices.DeleteFunc(r.Wheels, func(w resolvedWheel) bool { return w.File == torchvision })
			})
		}},
		{"a wheel recorded with another hash", torchvision + " changed since the resolution was recorded", func() {
			editResolved(t, stage, func(r *resolvedSet) {
				for i := range r.Wheels {
					if r.Wheels[i].File == torchvision {
						r.Wheels[i].SHA256 = strings.Repeat("0", 64)
					}
				}
			})
		}},
	} {
		c.doubt()
		out, log = installLogged(t, options(t, v, target, cache))
		if !out.OK() {
			t.Fatalf("%s: %+v", c.name, out)
		}
		if !strings.Contains(log, "stage: no recorded resolution taken: "+c.why) || len(pipRuns(log)) == 0 {
			t.Errorf("%s: the log does not give the reason %q, or pip did not decide (%d runs):\n%s", c.name, c.why, len(pipRuns(log)), log)
		}
		if !strings.Contains(log, "the resolution (4 wheels) recorded in ") {
			t.Errorf("%s: the set was not recorded again:\n%s", c.name, log)
		}
		out, log = installLogged(t, options(t, v, target, cache))
		if !out.OK() || len(pipRuns(log)) != 0 {
			t.Errorf("%s: the run after the fallback ran pip: %q", c.name, pipRuns(log))
		}
	}

	// A wheel gone from the cache or changed in it: the offline try cannot serve (the index is
	// closed): the run fails before any change, with the venv as it was, and says why in the log.
	for _, c := range []struct {
		name, why string
		doubt     func()
	}{
		{"a missing wheel", torchvision + " is no longer in the cache", func() {
			if err := os.Remove(filepath.Join(stage, torchvision)); err != nil {
				t.Fatal(err)
			}
		}},
		{"a changed wheel", "gpuwiz_dep-1.0-py3-none-any.whl changed since the resolution was recorded", func() {
			corrupt(t, filepath.Join(stage, "gpuwiz_dep-1.0-py3-none-any.whl"))
		}},
	} {
		c.doubt()
		before := freeze(t, v)
		out, log = installLogged(t, options(t, v, target, cache))
		if out.Result != ResultUnchanged || freeze(t, v) != before {
			t.Errorf("%s: %+v", c.name, out)
		}
		if !strings.Contains(log, "stage: no recorded resolution taken: "+c.why) {
			t.Errorf("%s: the log does not give the reason %q:\n%s", c.name, c.why, log)
		}
	}
}

// corrupt flips one byte in the middle of file, in place: the same size, the same modification
// time, the same file.
func corrupt(t *testing.T, file string) {
	t.Helper()
	st, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(file, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 1)
	if _, err := f.ReadAt(b, st.Size()/2); err != nil {
		t.Fatal(err)
	}
	b[0] ^= 0xff
	if _, err := f.WriteAt(b, st.Size()/2); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Chtimes(file, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
}
