package venvs

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// makeVenv lays out what a venv's files say: pyvenv.cfg and dist-info folders in site-packages.
func makeVenv(t *testing.T, root, python string, dists ...string) string {
	t.Helper()
	site := filepath.Join(root, "lib", "python"+python[:strings.LastIndex(python, ".")], "site-packages")
	if err := os.MkdirAll(site, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "pyvenv.cfg"), []byte("home = /usr/bin\ninclude-system-site-packages = false\nversion = "+python+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, d := range dists {
		if err := os.MkdirAll(filepath.Join(site, d+".dist-info"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestRecordKeepsOneEntryPerVenvNewestFirst(t *testing.T) {
	dir := t.TempDir()
	s := Store{Path: filepath.Join(dir, "cfg", "gpuwiz", "venvs.json")}
	ctx := context.Background()
	a := makeVenv(t, filepath.Join(dir, "a"), "3.12.8", "torch-2.6.0+cu126")
	b := makeVenv(t, filepath.Join(dir, "b"), "3.11.9", "paddlepaddle_gpu-3.0.0")
	for _, e := range []Entry{
		{Path: a, Framework: "torch", FrameworkVersion: "2.6.0", Channel: "cu118", Action: "install", Result: "installed", OK: true},
		{Path: b, Framework: "paddle", FrameworkVersion: "3.0.0", Action: "repair", Result: "repaired", OK: true},
		{Path: a + "/", Framework: "torch", FrameworkVersion: "2.6.0", Channel: "cu126", Action: "install", Result: "installed", OK: true},
	} {
		if err := s.Record(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	list, warning, err := s.List(ctx)
	if err != nil || warning != "" {
		t.Fatalf("%v %q", err, warning)
	}
	if len(list) != 2 || list[0].Path != a || list[0].Channel != "cu126" || list[1].Path != b || list[0].When.IsZero() {
		t.Fatalf("list %+v", list)
	}
	// A venv that is gone is dropped from the list, and from the file.
	if err := os.RemoveAll(b); err != nil {
		t.Fatal(err)
	}
	list, _, _ = s.List(ctx)
	if len(list) != 1 || list[0].Path != a {
		t.Fatalf("after removing b: %+v", list)
	}
	stored, _, _ := s.Load()
	if len(stored) != 1 {
		t.Fatalf("the file still lists the removed venv: %+v", stored)
	}
	if err := s.Forget(ctx, a); err != nil {
		t.Fatal(err)
	}
	if stored, _, _ := s.Load(); len(stored) != 0 {
		t.Fatalf("Forget left %+v", stored)
	}
}

func TestListReadsANewerFileAndSurvivesADamagedOne(t *testing.T) {
	dir := t.TempDir()
	s := Store{Path: filepath.Join(dir, "venvs.json")}
	a := makeVenv(t, filepath.Join(dir, "a"), "3.12.8")
	newer := fmt.Sprintf(`{"schema":2,"colour":"blue","venvs":[{"path":%q,"action":"install","result":"installed","ok":true,"when":"2026-12-01T10:00:00Z","gpu":"RTX 3060"}]}`, a)
	os.WriteFile(s.Path, []byte(newer), 0o644)
	list, warning, err := s.List(context.Background())
	if err != nil || len(list) != 1 || list[0].Path != a {
		t.Fatalf("%v %+v", err, list)
	}
	if !strings.Contains(warning, `"colour", "venvs[0].gpu"`) || !strings.Contains(warning, s.Path) {
		t.Errorf("warning %q", warning)
	}
	os.WriteFile(s.Path, []byte(`{"venvs": "not a list"}`), 0o644)
	if _, _, err := s.Load(); err == nil || !strings.Contains(err.Error(), s.Path) || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("damaged file: err = %v", err)
	}
	if err := s.Record(context.Background(), Entry{Path: a, Action: "install", Result: "installed", OK: true}); err != nil {
		t.Fatal(err)
	}
	if bad, err := os.ReadFile(s.Path + ".bad"); err != nil || !strings.Contains(string(bad), "not a list") {
		t.Errorf("the damaged list was not kept aside: %v %q", err, bad)
	}
	list, _, err = s.List(context.Background())
	if err != nil || len(list) != 1 {
		t.Fatalf("after Record over a damaged list: %v %+v", err, list)
	}
	var f map[string]any
	data, _ := os.ReadFile(s.Path)
	if json.Unmarshal(data, &f) != nil || f["schema"] != float64(1) {
		t.Errorf("written file %s", data)
	}
}

// Two runs recording at once both land: the read-modify-write is under a file lock.
func TestRecordFromManyRunsAtOnceLosesNothing(t *testing.T) {
	dir := t.TempDir()
	s := Store{Path: filepath.Join(dir, "venvs.json")}
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- s.Record(context.Background(), Entry{Path: filepath.Join(dir, fmt.Sprint("v", i)), Action: "install", Result: "installed"})
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if list, _, _ := s.Load(); len(list) != 40 {
		t.Fatalf("%d entries after 40 records", len(list))
	}
}

func TestReadSaysWhatAVenvHoldsFromItsFiles(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		dists []string
		want  string
	}{
		{[]string{"torch-2.6.0+cu126", "torchvision-0.21.0+cu126", "numpy-2.1.0"}, "PyTorch 2.6.0 (cu126), Python 3.11.9"},
		{[]string{"paddlepaddle_gpu-3.0.0"}, "PaddlePaddle 3.0.0 (GPU), Python 3.11.9"},
		{[]string{"paddlepaddle-3.0.0"}, "PaddlePaddle 3.0.0 (CPU), Python 3.11.9"},
		{[]string{"paddlepaddle-3.0.0", "paddlepaddle_gpu-3.0.0"}, "PaddlePaddle 3.0.0 (paddlepaddle and paddlepaddle-gpu both), Python 3.11.9"},
		{[]string{"numpy-2.1.0"}, "no PyTorch or PaddlePaddle, Python 3.11.9"},
	} {
		root := makeVenv(t, filepath.Join(dir, fmt.Sprint(len(tc.dists), tc.dists[0])), "3.11.9", tc.dists...)
		if got := Read(root, "linux").Describe(); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.dists, got, tc.want)
		}
	}
	// Windows layout: Lib\site-packages; uv's pyvenv.cfg says version_info.
	win := filepath.Join(dir, "win")
	os.MkdirAll(filepath.Join(win, "Lib", "site-packages", "torch-2.7.1+cu118.dist-info"), 0o755)
	os.WriteFile(filepath.Join(win, "pyvenv.cfg"), []byte("home = C:\\Python312\nversion_info = 3.12.8.final.0\n"), 0o644)
	if got := Read(win, "windows").Describe(); got != "PyTorch 2.7.1 (cu118), Python 3.12.8" {
		t.Errorf("windows layout: %q", got)
	}
	// A conda env: conda-meta, no pyvenv.cfg.
	conda := filepath.Join(dir, "conda")
	os.MkdirAll(filepath.Join(conda, "conda-meta"), 0o755)
	os.WriteFile(filepath.Join(conda, "conda-meta", "python-3.10.14-h955ad1f_0.json"), []byte("{}"), 0o644)
	os.MkdirAll(filepath.Join(conda, "lib", "python3.10", "site-packages", "torch-2.5.1.dist-info"), 0o755)
	if h := Read(conda, "linux"); !h.Conda || h.Describe() != "PyTorch 2.5.1, Python 3.10.14" {
		t.Errorf("conda env: %+v %q", h, h.Describe())
	}
}

func TestFindListsKnownThenActiveThenHereThenConda(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	s := Store{Path: filepath.Join(dir, "venvs.json")}
	known := makeVenv(t, filepath.Join(dir, "known"), "3.12.8", "torch-2.6.0+cu126")
	gone := filepath.Join(dir, "gone")
	s.Record(ctx, Entry{Path: gone, Action: "install", Result: "installed"})
	s.Record(ctx, Entry{Path: known, Framework: "torch", FrameworkVersion: "2.6.0", Channel: "cu126", Action: "install", Result: "installed", OK: true})
	active := makeVenv(t, filepath.Join(dir, "active"), "3.11.9", "paddlepaddle_gpu-3.0.0")
	work := filepath.Join(dir, "work")
	makeVenv(t, filepath.Join(work, ".venv"), "3.12.8")
	home := filepath.Join(dir, "home")
	condaEnv := filepath.Join(home, "miniconda3", "envs", "tf")
	os.MkdirAll(filepath.Join(condaEnv, "conda-meta"), 0o755)
	os.MkdirAll(filepath.Join(home, "anaconda3", "envs", "not-an-env"), 0o755)
	env := map[string]string{"VIRTUAL_ENV": known} // the known venv is active too: listed once
	o := FindOptions{Store: s, GOOS: "linux", Dir: work, Home: home, Env: func(k string) string { return env[k] },
		LookPath: func(string) (string, error) { return "", os.ErrNotExist }}
	found, warning := Find(ctx, o)
	if warning != "" {
		t.Fatal(warning)
	}
	var got []string
	for _, f := range found {
		got = append(got, f.Source+" "+filepath.Base(f.Path))
	}
	if want := "gpuwiz known|here .venv|conda tf"; strings.Join(got, "|") != want {
		t.Errorf("found %q, want %q", got, want)
	}
	if found[0].Known == nil || found[0].Holds.Describe() != "PyTorch 2.6.0 (cu126), Python 3.12.8" {
		t.Errorf("known entry %+v", found[0])
	}
	env["VIRTUAL_ENV"] = active
	o.CondaEnvs = func(context.Context) []string { return []string{condaEnv, filepath.Join(dir, "nothing")} }
	found, _ = Find(ctx, o)
	if len(found) != 4 || found[1].Source != SourceActive || found[1].Holds.Framework != "paddle" || found[3].Source != SourceConda {
		t.Errorf("with an active venv and conda's list: %+v", found)
	}
	if list, _, _ := s.Load(); len(list) != 1 {
		t.Errorf("the venv that is gone is still on the list: %+v", list)
	}
}

func TestCondaEnvList(t *testing.T) {
	out := "some banner\n{\n  \"envs\": [\"/opt/conda\", \"/opt/conda/envs/torch\"]\n}\n"
	if got := CondaEnvList(out); strings.Join(got, ",") != "/opt/conda,/opt/conda/envs/torch" {
		t.Errorf("%q", got)
	}
	if CondaEnvList("no json") != nil {
		t.Error("junk parsed")
	}
}
