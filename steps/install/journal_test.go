package install

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gpuwiz/steps/i18n/i18ntest"
	"gpuwiz/steps/pyenv"
)

func switchJournal(venv string) Journal {
	return Journal{Format: 1, PID: 4242, Started: time.Date(2026, 12, 4, 10, 30, 0, 0, time.Local), Venv: venv,
		Framework: "torch", Version: "2.11.0", Channel: "cu128", Step: StepInstall, Changed: true,
		Remove: []string{"torch", "torchaudio", "torchvision"}, Install: []string{"torch==2.11.0+cu128", "torchvision==0.26.0+cu128"}}
}

// The sentence about an unfinished run says what, when, which step and what it had changed, in
// English and in Chinese (no English prose of gpuwiz's own in the Chinese one).
func TestInterruptedSummaryInBothLanguages(t *testing.T) {
	in := Interrupted{Journal: switchJournal("/v")}
	en := in.Summary()
	for _, want := range []string{"a switch to torch 2.11.0 (cu128) was interrupted", "2026-12-04 10:30:00", "“install the new build”",
		"process 4242", "uninstalled torch, torchaudio, torchvision", "torch==2.11.0+cu128"} {
		if !strings.Contains(en, want) {
			t.Errorf("%q does not say %q", en, want)
		}
	}
	err := (&InterruptedError{In: in}).Error()
	if !strings.Contains(err, `gpuwiz doctor --venv /v --fix`) || !strings.Contains(err, "--fix --finish") || !strings.Contains(err, "Nothing was changed") {
		t.Errorf("the refusal should give both ways out: %s", err)
	}
	i18ntest.Chinese(t)
	zh := in.Summary()
	for _, want := range []string{"切换到 torch 2.11.0（cu128）的操作被中断了", "“安装新版本”", "2026-12-04 10:30:00"} {
		if !strings.Contains(zh, want) {
			t.Errorf("%q does not say %q", zh, want)
		}
	}
	i18ntest.NoEnglishProse(t, "summary", zh)
	i18ntest.NoEnglishProse(t, "refusal", (&InterruptedError{In: in}).Error())
}

// A journal is written whole or not at all, and read back; a closed one is not an unfinished run.
func TestJournalRoundTripAndClose(t *testing.T) {
	venv := t.TempDir()
	w := &journal{j: switchJournal(venv), path: JournalPath(venv)}
	w.write()
	if w.err != nil {
		t.Fatal(w.err)
	}
	in := FindInterrupted(venv)
	if in == nil || in.Running || in.Journal.Step != StepInstall || !in.Journal.Changed {
		t.Fatalf("want the open journal back: %+v", in)
	}
	if _, err := os.Stat(JournalPath(venv) + ".tmp"); err == nil {
		t.Fatal("the temporary file stayed")
	}
	w.j.Finished, w.j.Result = time.Now(), ResultRestored
	w.write()
	if in := FindInterrupted(venv); in != nil {
		t.Fatalf("a closed journal is no unfinished run: %+v", in)
	}
}

// The state folder keeps the newest three snapshots and no backup once a run is closed.
func TestPruneStateKeepsThreeSnapshots(t *testing.T) {
	dir := t.TempDir()
	for _, s := range []string{"20261201T000000Z", "20261202T000000Z", "20261203T000000Z", "20261204T000000Z", "20261205T000000Z"} {
		must(t, os.WriteFile(filepath.Join(dir, "snapshot-"+s+".txt"), nil, 0o644))
		must(t, os.WriteFile(filepath.Join(dir, "snapshot-"+s+".json"), nil, 0o644))
	}
	must(t, os.MkdirAll(filepath.Join(dir, "backup-20261201T000000Z", "files"), 0o755))
	must(t, os.MkdirAll(filepath.Join(dir, "backup-20261205T000000Z"), 0o755))
	pruneState(dir, filepath.Join(dir, "backup-20261205T000000Z"))
	var names []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		names = append(names, e.Name())
	}
	want := "backup-20261205T000000Z snapshot-20261203T000000Z.json snapshot-20261203T000000Z.txt snapshot-20261204T000000Z.json snapshot-20261204T000000Z.txt snapshot-20261205T000000Z.json snapshot-20261205T000000Z.txt"
	if strings.Join(names, " ") != want {
		t.Fatalf("state folder:\n%s\nwant\n%s", strings.Join(names, " "), want)
	}
}

// add, like install, refuses a venv whose last run did not finish, and names the run.
func TestAddRefusesAVenvWithAnUnfinishedRun(t *testing.T) {
	venv := t.TempDir()
	w := &journal{j: switchJournal(venv), path: JournalPath(venv)}
	w.write()
	_, err := PreviewAdd(context.Background(), nil, AddOptions{Venv: pyenv.Venv{Root: venv}, Packages: []string{"numpy"}})
	var ie *InterruptedError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "was interrupted") {
		t.Fatalf("want the unfinished run named: %v", err)
	}
}
