package doctor

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gpuwiz/steps/envroot"
	"gpuwiz/steps/i18n"
)

// recordedSite writes a site-packages folder on disk: each dist's files and a RECORD listing them.
func recordedSite(t *testing.T, dists map[string][]string) string {
	t.Helper()
	sp := t.TempDir()
	for info, files := range dists {
		var rec strings.Builder
		for _, f := range files {
			p := filepath.Join(sp, filepath.FromSlash(f))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(f), 0o644); err != nil {
				t.Fatal(err)
			}
			rec.WriteString(f + ",sha256=x,1\n")
		}
		rec.WriteString(info + "/RECORD,,\n" + strings.Split(info, "/")[0] + "/__pycache__/x.cpython-312.pyc,,\n")
		if err := os.MkdirAll(filepath.Join(sp, info), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(sp, info, "RECORD"), []byte(rec.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return sp
}

// A CUDA library deleted from the venv (torch cu130 still imports and multiplies without
// libcublasLt) is a finding naming the dist and the file. doctor --fix reinstalls the build and
// tells the engine to put that dist back too (a plain reinstall keeps a CUDA dist at the same
// version as it is); by hand, the fix is pip at that dist's version. Files missing only from the
// framework's own dists are repaired by reinstalling the build alone. Bytecode and dists that are
// neither are not looked at.
func TestDeletedCUDALibraryIsAFinding(t *testing.T) {
	i18n.Set(i18n.English)
	sp := recordedSite(t, map[string][]string{
		"nvidia_cublas-13.1.0.3.dist-info": {"nvidia/cu13/lib/libcublas.so.13", "nvidia/cu13/lib/libcublasLt.so.13"},
		"torch-2.11.0+cu130.dist-info":     {"torch/__init__.py", "torch/lib/libtorch_cuda.so"},
		"requests-2.32.0.dist-info":        {"requests/__init__.py"},
	})
	dists := []Dist{{Name: "nvidia-cublas", Version: "13.1.0.3"}, {Name: "torch", Version: "2.11.0", LocalLabel: "+cu130"}, {Name: "requests", Version: "2.32.0"}}
	if got, _ := findMissingFiles(OSFS{}, "linux", sp, dists, envroot.New(sp)); len(got) != 0 {
		t.Fatalf("a whole venv has missing files: %+v", got)
	}
	os.Remove(filepath.Join(sp, "nvidia", "cu13", "lib", "libcublasLt.so.13"))
	os.Remove(filepath.Join(sp, "requests", "__init__.py"))
	e := &Evidence{GOOS: "linux", Python: PythonFacts{Path: "/v/bin/python"}, Dists: dists, Venv: "/v"}
	e.MissingFiles, _ = findMissingFiles(OSFS{}, "linux", sp, dists, envroot.New(sp))
	fs := checkMissingFiles(e)
	if len(fs) != 1 || fs[0].Code != CodeFilesMissing || fs[0].Severity != SeverityError {
		t.Fatalf("findings %+v", fs)
	}
	if ev := strings.Join(fs[0].Evidence, "\n"); ev != "nvidia-cublas 13.1.0.3: 1 file missing: nvidia/cu13/lib/libcublasLt.so.13" {
		t.Errorf("evidence %q", ev)
	}
	if !strings.Contains(fs[0].Fix, "/v/bin/python -m pip install --force-reinstall --no-deps nvidia-cublas==13.1.0.3") {
		t.Errorf("fix %q", fs[0].Fix)
	}
	installed := []Dist{{Name: "torch", Version: "2.11.0", LocalLabel: "+cu130"}}
	rep := Report{Venv: "/v", Framework: "torch", Findings: fs, MissingFiles: e.MissingFiles, Python: e.Python, Installed: installed}
	r := RepairPlan(rep, RepairOptions{Matrix: embeddedMatrix(t)})
	if r.Reinstall == nil || !r.SameBuild || len(r.Unfixable) != 0 || !slices.Equal(r.ReinstallDists, []string{"nvidia-cublas"}) {
		t.Fatalf("a CUDA dist's files: reinstall %v (same build %v), dists %q, left to the user %d", r.Reinstall, r.SameBuild, r.ReinstallDists, len(r.Unfixable))
	}
	var titles []string
	for _, a := range r.Actions {
		titles = append(titles, a.Title)
	}
	if !strings.Contains(strings.Join(titles, "\n"), "Put back nvidia-cublas at the same version") {
		t.Errorf("the plan does not say the CUDA dist is put back: %q", titles)
	}

	os.WriteFile(filepath.Join(sp, "nvidia", "cu13", "lib", "libcublasLt.so.13"), nil, 0o644)
	os.Remove(filepath.Join(sp, "torch", "lib", "libtorch_cuda.so"))
	e.MissingFiles, _ = findMissingFiles(OSFS{}, "linux", sp, dists, envroot.New(sp))
	fs = checkMissingFiles(e)
	if len(fs) != 1 || !strings.Contains(fs[0].Evidence[0], "torch 2.11.0+cu130: 1 file missing: torch/lib/libtorch_cuda.so") ||
		!strings.Contains(fs[0].Fix, "gpuwiz doctor --fix") {
		t.Fatalf("torch's file: %+v", fs)
	}
	rep = Report{Venv: "/v", Framework: "torch", Findings: fs, MissingFiles: e.MissingFiles, Python: e.Python, Installed: installed}
	if r := RepairPlan(rep, RepairOptions{Matrix: embeddedMatrix(t)}); r.Reinstall == nil || len(r.ReinstallDists) != 0 {
		t.Errorf("torch's own file: reinstall %v, other dists %q", r.Reinstall, r.ReinstallDists)
	}
}

// A RECORD of the build's dists that names files outside the environment (an absolute path, a path
// up through ..) is a warning naming the dist and the paths; those files are not looked for as
// missing, and doctor --fix reinstalls the dist: the framework with the build, a CUDA library dist
// beside it.
func TestRecordNamingFilesOutsideIsAFinding(t *testing.T) {
	i18n.Set(i18n.English)
	sp := recordedSite(t, map[string][]string{
		"nvidia_cublas-13.1.0.3.dist-info": {"nvidia/cu13/lib/libcublas.so.13"},
		"torch-2.11.0+cu130.dist-info":     {"torch/__init__.py"},
	})
	for info, line := range map[string]string{"torch-2.11.0+cu130.dist-info": "/tmp/victim/abs.txt,,\n", "nvidia_cublas-13.1.0.3.dist-info": "../../../../../../../../tmp/victim/rel.txt,,\n"} {
		f, _ := os.OpenFile(filepath.Join(sp, info, "RECORD"), os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString(line)
		f.Close()
	}
	dists := []Dist{{Name: "nvidia-cublas", Version: "13.1.0.3"}, {Name: "torch", Version: "2.11.0", LocalLabel: "+cu130"}}
	e := &Evidence{GOOS: "linux", Python: PythonFacts{Path: "/v/bin/python"}, Dists: dists, Venv: "/v"}
	e.MissingFiles, e.RecordOutside = findMissingFiles(OSFS{}, "linux", sp, dists, envroot.New(sp))
	if len(e.MissingFiles) != 0 {
		t.Errorf("files outside are looked for as missing: %+v", e.MissingFiles)
	}
	fs := checkRecordOutside(e)
	if len(fs) != 1 || fs[0].Code != CodeRecordOutside || fs[0].Severity != SeverityWarning {
		t.Fatalf("findings %+v", fs)
	}
	ev := strings.Join(fs[0].Evidence, "\n")
	for _, want := range []string{"torch 2.11.0+cu130: its RECORD names 1 file outside the environment: /tmp/victim/abs.txt",
		"nvidia-cublas 13.1.0.3: its RECORD names 1 file outside the environment: ../../../../../../../../tmp/victim/rel.txt"} {
		if !strings.Contains(ev, want) {
			t.Errorf("evidence lacks %q:\n%s", want, ev)
		}
	}
	rep := Report{Venv: "/v", Framework: "torch", Findings: fs, RecordOutside: e.RecordOutside, Python: e.Python,
		Installed: []Dist{{Name: "torch", Version: "2.11.0", LocalLabel: "+cu130"}}}
	r := RepairPlan(rep, RepairOptions{Matrix: embeddedMatrix(t)})
	if r.Reinstall == nil || !r.SameBuild || len(r.Unfixable) != 0 || !slices.Equal(r.ReinstallDists, []string{"nvidia-cublas"}) {
		t.Fatalf("reinstall %v (same build %v), dists %q, left to the user %+v", r.Reinstall, r.SameBuild, r.ReinstallDists, r.Unfixable)
	}
}
