package doctor

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/steps/dllver/dllvertest"
	"gpuwiz/steps/gpu"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pipconf"
)

func vcRuntimeRegistry(installed uint32, version string) MapRegistry {
	k := `HKLM\` + vcRuntimeKeys[0]
	return MapRegistry{Keys: map[string]bool{k: true}, DWORDs: map[string]uint32{k + `\Installed`: installed, `HKLM\` + fileSystemKey + `\LongPathsEnabled`: 1}, Strings: map[string]string{k + `\Version`: version}}
}

func TestRegistryChecks(t *testing.T) {
	cases := []struct {
		name       string
		reg        Registry
		want, deny []string
	}{
		{"all set", vcRuntimeRegistry(1, "v14.40.33810.00"), nil, []string{CodeVCRuntimeMissing, CodeLongPathsDisabled}},
		{"empty registry", MapRegistry{}, []string{CodeVCRuntimeMissing, CodeLongPathsDisabled}, nil},
		{"runtime not installed", vcRuntimeRegistry(0, ""), []string{CodeVCRuntimeMissing}, []string{CodeLongPathsDisabled}},
		{"runtime old", vcRuntimeRegistry(1, "v14.16.27012.00"), []string{CodeVCRuntimeOld}, []string{CodeVCRuntimeMissing}},
		{"long paths 0", func() Registry {
			r := vcRuntimeRegistry(1, "v14.40.33810.00")
			r.DWORDs[`HKLM\`+fileSystemKey+`\LongPathsEnabled`] = 0
			return r
		}(), []string{CodeLongPathsDisabled}, []string{CodeVCRuntimeMissing}},
		{"runtime only under WOW6432Node", MapRegistry{
			Keys:   map[string]bool{`HKLM\` + vcRuntimeKeys[1]: true},
			DWORDs: map[string]uint32{`HKLM\` + vcRuntimeKeys[1] + `\Installed`: 1, `HKLM\` + fileSystemKey + `\LongPathsEnabled`: 1},
		}, nil, []string{CodeVCRuntimeMissing, CodeLongPathsDisabled}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ev := &Evidence{GOOS: "windows", Registry: readRegistryFacts(c.reg), GPU: gpu.Report{Available: true}}
			rep := Report{Findings: Diagnose(ev)}
			for _, w := range c.want {
				requireCode(t, rep, w, "")
			}
			for _, d := range c.deny {
				if rep.HasCode(d) {
					t.Fatalf("unexpected %s: %s", d, codes(rep))
				}
			}
		})
	}
	// Off Windows the registry is never consulted.
	ev := &Evidence{GOOS: "linux", Registry: readRegistryFacts(MapRegistry{})}
	if rep := (Report{Findings: Diagnose(ev)}); rep.HasCode(CodeVCRuntimeMissing) || rep.HasCode(CodeLongPathsDisabled) {
		t.Fatalf("registry findings on linux: %s", codes(rep))
	}
}

// The runtime torch needs follows the release (the matrix's windows_runtime rows): a 14.36 runtime
// is too old for torch 2.11 (14.40, pytorch/pytorch PR #196987) and enough for torch 2.8 (14.29); the
// copy that loads is the one next to python.exe before System32's, whatever the registry says.
func TestVCRuntimeFollowsTheReleaseAndTheCopyThatLoads(t *testing.T) {
	m := embeddedMatrix(t)
	root := t.TempDir()
	py := filepath.Join(root, "Python312")
	sys32 := filepath.Join(root, "Windows", "System32")
	onPath := filepath.Join(root, "Tools")
	must(t, os.MkdirAll(py, 0o755))
	must(t, os.MkdirAll(sys32, 0o755))
	must(t, os.MkdirAll(onPath, 0o755))
	dllvertest.Build(t, sys32, "msvcp140.dll", "14.44.35211.0")
	dllvertest.Build(t, onPath, "msvcp140.dll", "14.10.25008.0")
	env := MapEnviron{"SystemRoot": filepath.Join(root, "Windows"), "PATH": onPath}
	evidence := func(torch, registry string) *Evidence {
		ev := &Evidence{GOOS: "windows", Matrix: m, Registry: readRegistryFacts(vcRuntimeRegistry(1, registry)),
			GPU: gpu.Report{Available: true}, Dists: []Dist{{Name: "torch", Version: torch, LocalLabel: "+cu128"}},
			Python: PythonFacts{Path: filepath.Join(py, "python.exe")}}
		ev.VCRuntimeCopies = findRuntimeCopies(OSFS{}, "windows", env, ev)
		return ev
	}
	// Only System32's 14.44 and an old copy on PATH, which is searched after System32: fine for 2.11.
	ev := evidence("2.11.0", "v14.44.35211.00")
	if len(ev.VCRuntimeCopies) != 2 || !ev.VCRuntimeCopies[0].Loads || ev.VCRuntimeCopies[0].From != "System32" || ev.VCRuntimeCopies[1].Version != "14.10.25008.0" {
		t.Fatalf("copies: %+v", ev.VCRuntimeCopies)
	}
	if rep := (Report{Findings: Diagnose(ev)}); rep.HasCode(CodeVCRuntimeOld) {
		t.Fatalf("14.44 flagged: %s", codes(rep))
	}
	// A 14.36 runtime (registry and System32) for torch 2.11: an error naming the release, the
	// copy that loads and the source; for torch 2.8 nothing.
	dllvertest.Build(t, sys32, "msvcp140.dll", "14.36.32532.0")
	rep := Report{Findings: Diagnose(evidence("2.11.0", "v14.36.32532.00"))}
	f := requireCode(t, rep, CodeVCRuntimeOld, SeverityError)
	all := f.Title + "\n" + strings.Join(f.Evidence, "\n") + "\n" + f.Fix
	for _, want := range []string{"PyTorch 2.11.0", "14.40", "v14.36.32532.00", "msvcp140.dll that loads: " + filepath.Join(sys32, "msvcp140.dll") + " (14.36.32532.0, System32)", "WinError 1114", "PR #196987", "https://aka.ms/vs/17/release/vc_redist.x64.exe"} {
		if !strings.Contains(all, want) {
			t.Errorf("missing %q in:\n%s", want, all)
		}
	}
	if rep := (Report{Findings: Diagnose(evidence("2.8.0", "v14.36.32532.00"))}); rep.HasCode(CodeVCRuntimeOld) || rep.HasCode(CodeVCRuntimeMissing) {
		t.Fatalf("torch 2.8 with 14.36: %s", codes(rep))
	}
	// The registry says 14.44 but an old copy sits next to python.exe: that one loads, and the fix
	// says to move it out of the way.
	dllvertest.Build(t, sys32, "msvcp140.dll", "14.44.35211.0")
	dllvertest.Build(t, py, "msvcp140.dll", "14.36.32532.0")
	rep = Report{Findings: Diagnose(evidence("2.11.0", "v14.44.35211.00"))}
	f = requireCode(t, rep, CodeVCRuntimeOld, SeverityError)
	all = strings.Join(f.Evidence, "\n") + "\n" + f.Fix
	for _, want := range []string{"msvcp140.dll that loads: " + filepath.Join(py, "msvcp140.dll") + " (14.36.32532.0, next to python.exe)", "another copy: " + filepath.Join(sys32, "msvcp140.dll") + " (14.44.35211.0, System32)", "is loaded before the system's copy"} {
		if !strings.Contains(all, want) {
			t.Errorf("missing %q in:\n%s", want, all)
		}
	}
	if strings.Contains(all, "HKLM") {
		t.Errorf("the registry's 14.44 is not the problem, yet it is named:\n%s", all)
	}
}

func touch(t *testing.T, dir string, names ...string) {
	t.Helper()
	must(t, os.MkdirAll(dir, 0o755))
	for _, n := range names {
		must(t, os.WriteFile(filepath.Join(dir, n), []byte("MZ"), 0o644))
	}
}

func TestCUDADLLsOnWindowsPath(t *testing.T) {
	root := t.TempDir()
	toolkit := filepath.Join(root, "CUDA", "v11.8", "bin")
	conda := filepath.Join(root, "Anaconda3", "Library", "bin")
	clean := filepath.Join(root, "Tools")
	venv := filepath.Join(root, "venv")
	own := filepath.Join(venv, "Lib", "site-packages", "torch", "lib")
	cudaPath := filepath.Join(root, "CUDA", "v12.1")
	touch(t, toolkit, "cudart64_110.dll", "cudnn64_8.dll", "nvcc.exe")
	touch(t, conda, "LIBIOMP5MD.DLL", "zlib.dll")
	touch(t, clean, "git.exe", "cudart.txt")
	touch(t, own, "cudart64_12.dll", "cudnn64_9.dll")
	touch(t, filepath.Join(cudaPath, "bin"), "cudart64_12.dll")
	env := MapEnviron{"PATH": strings.Join([]string{toolkit, conda, clean, own}, ";"), "CUDA_PATH": cudaPath}
	hits := scanRuntimeDLLs(OSFS{}, "windows", env, []string{venv})
	got := map[string]bool{}
	for _, h := range hits {
		got[filepath.Base(h.Dir)+"/"+h.File+"/"+h.From] = true
	}
	for _, w := range []string{"bin/cudart64_110.dll/PATH", "bin/cudnn64_8.dll/PATH", "bin/LIBIOMP5MD.DLL/PATH", "bin/cudart64_12.dll/CUDA_PATH"} {
		if !got[w] {
			t.Errorf("missing hit %s in %v", w, got)
		}
	}
	if len(hits) != 4 {
		t.Fatalf("want 4 hits (nothing from the venv's own torch/lib or Tools), got %+v", hits)
	}
	rep := Report{Findings: Diagnose(&Evidence{GOOS: "windows", DLLs: hits, GPU: gpu.Report{Available: true}})}
	f := requireCode(t, rep, CodeCUDADLLOnPath, SeverityWarning)
	evidenceContains(t, f, toolkit)
	evidenceContains(t, f, conda)
	// No runtimes on PATH: no finding.
	if hits := scanRuntimeDLLs(OSFS{}, "windows", MapEnviron{"PATH": clean + ";" + own}, []string{venv}); len(hits) != 0 {
		t.Fatalf("clean PATH gave %+v", hits)
	}
}

func TestWindowsPipIniInAppData(t *testing.T) {
	appdata, programdata := t.TempDir(), t.TempDir()
	must(t, os.MkdirAll(filepath.Join(appdata, "pip"), 0o755))
	must(t, os.WriteFile(filepath.Join(appdata, "pip", "pip.ini"), []byte("[global]\nindex-url = https://pypi.tuna.tsinghua.edu.cn/simple\n[install]\nextra_index_url = https://u:p@a.example/simple https://b.example/simple\n"), 0o644))
	env := MapEnviron{"APPDATA": appdata, "ProgramData": programdata}
	cfg := pipconf.Read(pipconf.Source{GOOS: "windows", Prefix: `C:\venvs\gpu`, Environ: env.Environ()})
	got := indexSettingsOf(cfg)
	if len(got) != 3 || got[0].Key != "index-url" || got[1].Key != "extra-index-url" || got[2].Value != "https://b.example/simple" {
		t.Fatalf("settings: %+v", got)
	}
	f := requireCode(t, Report{Findings: Diagnose(&Evidence{GOOS: "windows", PipIndexes: got, GPU: gpu.Report{Available: true}})}, CodePipExtraIndex, SeverityWarning)
	evidenceContains(t, f, filepath.Join(appdata, "pip", "pip.ini"))
	if strings.Contains(strings.Join(f.Evidence, " "), "u:p@") {
		t.Fatalf("credentials in evidence: %q", f.Evidence)
	}
	var files []string
	for _, f := range cfg.Files {
		files = append(files, f.Path)
	}
	if files[len(files)-1] != `C:\venvs\gpu\pip.ini` {
		t.Fatalf("venv config file: %q", files)
	}
}

func TestWindowsPythonAndPathChecks(t *testing.T) {
	ev := &Evidence{GOOS: "windows", GPU: gpu.Report{Available: true},
		Python: PythonFacts{Path: `C:\Users\张三\AppData\Local\Microsoft\WindowsApps\PythonSoftwareFoundation.Python.3.11_qbz5n2kfra8p0\python.exe`, Version: "3.11.9", Bits: 32},
		Paths:  []LabeledPath{{"venv", `C:\Users\张三\venv`}, {"TEMP", `C:\Users\张三\AppData\Local\Temp`}, {"pip cache", `C:\cache`}},
	}
	rep := Report{Findings: Diagnose(ev)}
	requireCode(t, rep, CodeStorePython, SeverityError)
	requireCode(t, rep, CodePython32Bit, SeverityError)
	f := requireCode(t, rep, CodeNonASCIIPath, SeverityWarning)
	evidenceContains(t, f, "TEMP: ")
	if strings.Contains(strings.Join(f.Evidence, " "), `C:\cache`) {
		t.Fatalf("ASCII path reported: %q", f.Evidence)
	}
	// A venv over a Store Python: the venv's home (base prefix) gives it away.
	ev = &Evidence{GOOS: "windows", GPU: gpu.Report{Available: true}, Python: PythonFacts{Path: `C:\v\Scripts\python.exe`, Kind: "venv", Bits: 64,
		BasePrefix: `C:\Program Files\WindowsApps\PythonSoftwareFoundation.Python.3.12_3.12.2288.0_x64__qbz5n2kfra8p0`}}
	requireCode(t, Report{Findings: Diagnose(ev)}, CodeStorePython, SeverityError)
	ev.Python.BasePrefix = `C:\Users\a\AppData\Local\Programs\Python\Python312`
	if rep := (Report{Findings: Diagnose(ev)}); rep.HasCode(CodeStorePython) || rep.HasCode(CodeNonASCIIPath) {
		t.Fatalf("python.org Python flagged: %s", codes(rep))
	}
}

func TestFindPipOnWindowsPathWithPathext(t *testing.T) {
	dir := t.TempDir()
	env := MapEnviron{"PATH": t.TempDir() + ";" + dir, "PATHEXT": ".COM;.EXE;.BAT"}
	touch(t, dir, "pip.exe")
	// joinFor keeps the separator the PATH entry uses (Windows accepts both).
	if got := findOnPath(OSFS{}, "windows", env, "pip"); got != dir+"/pip.exe" {
		t.Fatalf("findOnPath = %q", got)
	}
}

// The framework's own check failing with WinError 1114 says the DLL was found but failed to
// initialise, with the msvcp140.dll that loads; 126 says not found, with another fix.
func TestFrameworkCheckTells1114From126(t *testing.T) {
	copies := []RuntimeCopy{{Path: `C:\Anaconda3\msvcp140.dll`, Version: "14.29.30139.0", From: "python", Loads: true}, {Path: `C:\Windows\System32\msvcp140.dll`, Version: "14.44.35211.0", From: "System32"}}
	run := func(importErr string) *Finding {
		ev := &Evidence{GOOS: "windows", GPU: gpu.Report{Available: true}, VCRuntimeCopies: copies,
			Framework: FrameworkCheck{Ran: true, Framework: "torch", ImportError: importErr}}
		rep := Report{Findings: Diagnose(ev)}
		return requireCode(t, rep, CodeFrameworkCheckFailed, SeverityError)
	}
	f := run(`OSError: [WinError 1114] A dynamic link library (DLL) initialization routine failed. Error loading "C:\venvs\gpu\Lib\site-packages\torch\lib\c10.dll" or one of its dependencies.`)
	ev := strings.Join(f.Evidence, "\n")
	for _, want := range []string{`c10.dll was found but failed to initialise ([WinError 1114])`, `msvcp140.dll that loads: C:\Anaconda3\msvcp140.dll (14.29.30139.0, next to python.exe)`, `another copy: C:\Windows\System32\msvcp140.dll`} {
		if !strings.Contains(ev, want) {
			t.Errorf("1114 evidence lacks %q:\n%s", want, ev)
		}
	}
	g := run(`OSError: [WinError 126] The specified module could not be found. Error loading "C:\venvs\gpu\Lib\site-packages\torch\lib\fbgemm.dll" or one of its dependencies.`)
	ev = strings.Join(g.Evidence, "\n")
	if !strings.Contains(ev, "fbgemm.dll, or a DLL it needs, was not found ([WinError 126])") || strings.Contains(ev, "msvcp140.dll that loads") || g.Fix == f.Fix {
		t.Errorf("126: %s\nfix %q", ev, g.Fix)
	}
}

// doctor --fix offers Microsoft's redistributable for a missing or old runtime (fetched, its
// signature checked, started unelevated: steps/vcredist), not for an old copy shadowing System32's.
func TestRepairOffersTheRedistributable(t *testing.T) {
	old := Finding{Code: CodeVCRuntimeOld, Severity: SeverityError, Fix: i18n.T("doctor.vc_runtime.fix")}
	shadowed := Finding{Code: CodeVCRuntimeOld, Severity: SeverityError, Fix: "rename C:\\Anaconda3\\msvcp140.dll"}
	plan := RepairPlan(Report{GOOS: "windows", Python: PythonFacts{Path: `C:\Python312\python.exe`}, Findings: []Finding{old}}, RepairOptions{})
	if len(plan.Actions) != 1 || !plan.Actions[0].VCRedist || plan.Actions[0].Fixes != CodeVCRuntimeOld || !strings.Contains(plan.Actions[0].Title, "aka.ms") {
		t.Fatalf("plan: %+v", plan)
	}
	ran := 0
	defer func(f func(context.Context) error) { installRedist = f }(installRedist)
	installRedist = func(context.Context) error { ran++; return nil }
	// (doctor's run afterwards cannot inspect the made-up Python: only the step is judged here)
	res, _ := ApplyRepair(context.Background(), Deps{GOOS: "windows", FS: OSFS{}, Env: MapEnviron{}}, plan, nil)
	if ran != 1 || len(res.Steps) != 1 || !res.Steps[0].OK {
		t.Fatalf("apply: %+v ran %d", res, ran)
	}
	plan = RepairPlan(Report{GOOS: "windows", Findings: []Finding{shadowed}}, RepairOptions{})
	if len(plan.Actions) != 0 || len(plan.Unfixable) != 1 {
		t.Fatalf("a shadowing copy got the redistributable: %+v", plan)
	}
}
