package doctor

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/steps/gpu"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/i18n/i18ntest"
)

// These tests switch the process-wide language: none of them may run in parallel.

// inChinese runs f with the catalog in Chinese and puts English back afterwards.
func inChinese(t *testing.T, f func()) {
	t.Helper()
	i18n.Set(i18n.Chinese)
	t.Cleanup(func() { i18n.Set(i18n.English) })
	defer i18n.Set(i18n.English)
	f()
}

// sameFindings fails unless both reports hold the same codes with the same severities, in order.
func sameFindings(t *testing.T, en, zh Report) {
	t.Helper()
	if codes(en) != codes(zh) || en.Problems != zh.Problems {
		t.Fatalf("codes differ by language:\n en: %s (%d problems)\n zh: %s (%d problems)", codes(en), en.Problems, codes(zh), zh.Problems)
	}
}

// chineseReport checks a report rendered in Chinese: no English prose in the text report nor in any
// finding, every title and fix differs from its English, and the codes are in it as they are.
func chineseReport(t *testing.T, what string, en, zh Report) string {
	t.Helper()
	sameFindings(t, en, zh)
	var b bytes.Buffer
	inChinese(t, func() { WriteText(&b, zh) })
	text := b.String()
	i18ntest.NoEnglishOnScreen(t, what+" text report", text)
	t.Log(text)
	for i, f := range zh.Findings {
		if f.Title == en.Findings[i].Title || f.Fix == en.Findings[i].Fix {
			t.Errorf("%s: %s reads the same in both languages: %q / %q", what, f.Code, f.Title, f.Fix)
		}
		if f.Code == "" || strings.Contains(text, f.Code) { // the code is for --json and the logs
			t.Errorf("%s: the Chinese text report shows the code %q (or the finding has none):\n%s", what, f.Code, text)
		}
	}
	for _, want := range []string{"已按以下顺序检查：", "显卡驱动"} {
		if !strings.Contains(text, want) {
			t.Errorf("%s: the text report lacks %q:\n%s", what, want, text)
		}
	}
	return text
}

// runBoth runs doctor over the same venv in English, then in Chinese.
func runBoth(t *testing.T, d Deps, venv string) (en, zh Report) {
	t.Helper()
	en = runDoctor(t, d, venv)
	inChinese(t, func() { zh = runDoctor(t, d, venv) })
	return en, zh
}

// Real venvs with the stub builds the other tests use, each broken one way, checked in both languages.
func TestChineseFindingsOfBrokenVenvs(t *testing.T) {
	cases := []struct {
		name  string
		gpu   string
		env   map[string]string
		setup func(t *testing.T, venv string)
		code  string
		facts []string // what the Chinese report must still show
	}{
		{"both paddle dists", "gpu-cc90.json", nil, func(t *testing.T, venv string) {
			writeDist(t, venv, "paddlepaddle", "3.0.0", paddleFiles())
			writeDist(t, venv, "paddlepaddle-gpu", "3.0.0", paddleFiles())
		}, CodePaddleMixed, []string{"paddlepaddle-gpu 3.0.0", "pip uninstall -y paddlepaddle paddlepaddle-gpu", "gpuwiz doctor --fix", "飞桨"}},
		{"cpu torch", "gpu-cc90.json", nil, func(t *testing.T, venv string) {
			writeDist(t, venv, "torch", "2.8.0+cpu", torchStub("2.8.0+cpu", "", nil, false))
		}, CodeCPUBuild, []string{"torch 2.8.0+cpu", "+cpu", "pip cache remove torch", "https://download.pytorch.org/whl/<channel>", "CPU 版"}},
		{"no kernels for cc 12.0", "gpu-cc120.json", nil, func(t *testing.T, venv string) {
			writeDist(t, venv, "torch", "2.8.0+cu126", torchStub("2.8.0+cu126", "12.6", []string{"sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"}, true))
		}, CodeArchMissing, []string{"sm_50, sm_60, sm_70, sm_75, sm_80, sm_86, sm_90", "sm_120", "算力 12.0", "MiB"}},
		{"interrupted uninstall", "gpu-cc90.json", nil, func(t *testing.T, venv string) {
			writeDist(t, venv, "torch", "2.8.0+cu128", torchStub("2.8.0+cu128", "12.8", goodArchs, true))
			must(t, os.MkdirAll(filepath.Join(sitePackages(t, venv), "~orch", "lib"), 0o755))
		}, CodeLeftoverPartial, []string{"~orch", "Ignoring invalid distribution", "1 处"}},
		{"extra index in the environment", "gpu-cc90.json", map[string]string{"PIP_EXTRA_INDEX_URL": "https://bob:s3cret@mirror.example/simple"}, func(t *testing.T, venv string) {},
			CodePipExtraIndex, []string{"环境变量 PIP_EXTRA_INDEX_URL 加了一个额外安装源：https://***@mirror.example", "mirror.example", "--extra-index-url", "pip config unset global.<key>"}},
		{"lock says cu126, cu118 installed", "gpu-cc90.json", nil, func(t *testing.T, venv string) {
			writeDist(t, venv, "torch", "2.6.0+cu118", torchStub("2.6.0+cu118", "11.8", []string{"sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"}, true))
			must(t, os.WriteFile(filepath.Join(venv, "requirements.lock"), []byte("# written by gpuwiz\n--index-url https://download.pytorch.org/whl/cu126\ntorch==2.6.0+cu126\n"), 0o644))
		}, CodeChannelMismatch, []string{"torch==2.6.0+cu126", "2.6.0+cu118", "requirements.lock", "-c "}},
		{"no framework", "gpu-cc90.json", nil, func(t *testing.T, venv string) {}, CodeNoFramework, []string{"gpuwiz install", "site-packages"}},
		{"conda's own pytorch beside pip's torch", "gpu-cc90.json", nil, func(t *testing.T, venv string) {
			writeDist(t, venv, "torch", "2.8.0+cu128", torchStub("2.8.0+cu128", "12.8", goodArchs, true))
			must(t, os.MkdirAll(filepath.Join(venv, "conda-meta"), 0o755))
			must(t, os.WriteFile(filepath.Join(venv, "conda-meta", "pytorch-2.5.1-py3.12_cuda12.4_0.json"), []byte(`{"name":"pytorch","version":"2.5.1"}`), 0o644))
		}, CodeCondaConflict, []string{"pytorch 2.5.1", "conda remove -p", "pytorch-2.5.1-py3.12_cuda12.4_0.json", "conda"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			venv := newVenv(t)
			c.setup(t, venv)
			en, zh := runBoth(t, linuxDeps(t, c.gpu, c.env), venv)
			requireCode(t, en, c.code, "")
			requireCode(t, zh, c.code, "")
			text := chineseReport(t, c.name, en, zh)
			for _, want := range c.facts {
				if !strings.Contains(text, want) {
					t.Errorf("the Chinese report lacks %q:\n%s", want, text)
				}
			}
			if strings.Contains(text, "s3cret") {
				t.Errorf("password not redacted in Chinese:\n%s", text)
			}
			if strings.Contains(text, "[doctor.") {
				t.Errorf("a message id instead of its text:\n%s", text)
			}
		})
	}
}

// The checks that read the machine rather than the venv (Windows registry and paths, DLLs, the
// driver, the GPU's processes, CUDA_VISIBLE_DEVICES, the interpreter), from fixed evidence.
func TestChineseMachineFindings(t *testing.T) {
	h200 := gpu.GPU{Index: 0, Name: "NVIDIA H200", ComputeCapability: "9.0", MemoryTotalMiB: 143771}
	mib := func(n uint64) *uint64 { return &n }
	torch := []Dist{{Name: "torch", Version: "2.8.0", LocalLabel: "+cu128"}}
	longPathsOff := vcRuntimeRegistry(1, "v14.16.27012.00")
	longPathsOff.DWORDs[`HKLM\`+fileSystemKey+`\LongPathsEnabled`] = 0
	cases := []struct {
		name  string
		ev    Evidence
		codes []string
		facts []string
	}{
		{"windows registry and paths", Evidence{GOOS: "windows", Registry: readRegistryFacts(MapRegistry{}), GPU: gpu.Report{Available: true},
			Paths: []LabeledPath{{"TEMP", `C:\Users\张伟\AppData\Local\Temp`}}},
			[]string{CodeVCRuntimeMissing, CodeLongPathsDisabled, CodeNonASCIIPath},
			[]string{`VC\Runtimes\x64`, "https://aka.ms/vs/17/release/vc_redist.x64.exe", "LongPathsEnabled", `New-ItemProperty -Path "HKLM:\SYSTEM\CurrentControlSet\Control\FileSystem"`, `C:\venvs\gpu`, "PIP_CACHE_DIR=", "张伟"}},
		{"old runtime, long paths 0", Evidence{GOOS: "windows", Registry: readRegistryFacts(longPathsOff), GPU: gpu.Report{Available: true}},
			[]string{CodeVCRuntimeOld, CodeLongPathsDisabled}, []string{"v14.16.27012.00", "14.29", "LongPathsEnabled = 0"}},
		{"runtimes on PATH", Evidence{GOOS: "windows", GPU: gpu.Report{Available: true}, DLLs: []DLLHit{{Dir: `C:\CUDA\v11.8\bin`, File: "cudnn64_8.dll", From: "PATH"}}},
			[]string{CodeCUDADLLOnPath}, []string{`C:\CUDA\v11.8\bin (PATH): cudnn64_8.dll`, "CUDA_PATH"}},
		{"no driver", Evidence{GOOS: "windows", GPU: gpu.Report{Backend: "none", LookedFor: []gpu.Attempt{{Backend: "nvml.dll", Why: "nvmlInit: ERROR_DRIVER_NOT_LOADED"}},
			Adapters: []gpu.Adapter{{VendorID: 0x10de, DeviceID: 0x2684, Name: "GeForce RTX 4090", Architecture: "Ada Lovelace", ComputeCapability: "8.9"}}}},
			[]string{CodeNoDriver}, []string{"nvidia.com", "已查找 nvml.dll：nvmlInit: ERROR_DRIVER_NOT_LOADED", "PCI 总线上有这块卡", "RTX 4090"}},
		{"no driver, a report that says nothing of how it looked", Evidence{GOOS: "windows", GPU: gpu.Report{Backend: "none"}},
			[]string{CodeNoDriver}, []string{"nvidia.com", "检测方式：无"}},
		{"driver too old", Evidence{GOOS: "linux", Dists: torch, GPU: gpu.Report{Available: true, DriverVersion: "470.82", CUDAMax: "11.4", GPUs: []gpu.GPU{h200}}},
			[]string{CodeDriverTooOld}, []string{"470.82", "CUDA 12.8", "11.4"}},
		{"minor-version compatibility", Evidence{GOOS: "linux", Matrix: embeddedMatrix(t), Dists: torch, GPU: gpu.Report{Available: true, DriverVersion: "550.54.15", CUDAMax: "12.4", GPUs: []gpu.GPU{h200}}},
			[]string{CodeDriverTooOld}, []string{"550.54.15", "12.4", "PTX was compiled with an unsupported toolchain"}},
		{"memory held and CUDA_VISIBLE_DEVICES", Evidence{GOOS: "linux", CUDAVisibleDevices: str("0,7"), GPU: gpu.Report{Available: true, GPUs: []gpu.GPU{withProcs(h200,
			gpu.Process{PID: 9, Name: "python", UsedMemoryMiB: mib(20000)}, gpu.Process{PID: 5, Name: "Xorg"})}}},
			[]string{CodeGPUMemoryHeld, CodeCUDAVisibleDevices}, []string{"20000 MiB", "143771 MiB", "Xorg", `"7"`, "CUDA out of memory"}},
		{"CUDA_VISIBLE_DEVICES=-1", Evidence{GOOS: "linux", CUDAVisibleDevices: str("-1"), GPU: gpu.Report{Available: true, GPUs: []gpu.GPU{h200}}},
			[]string{CodeCUDAVisibleDevices}, []string{"-1", "只能用 CPU"}},
		{"store python, 32-bit", Evidence{GOOS: "windows", GPU: gpu.Report{Available: true}, Python: PythonFacts{Path: `C:\Users\a\AppData\Local\Microsoft\WindowsApps\PythonSoftwareFoundation.Python.3.12_qbz5n2kfra8p0\python.exe`, Version: "3.12.4", Bits: 32, Kind: "store"}},
			[]string{CodeStorePython, CodePython32Bit}, []string{"python.org", "3.12.4", "32 位（微软应用商店版）", "shm.dll", "from versions: none"}},
		{"python too new, pip elsewhere", Evidence{GOOS: "windows", Venv: `C:\venvs\gpu`, Matrix: embeddedMatrix(t), Dists: torch, GPU: gpu.Report{Available: true},
			SitePackages: `C:\venvs\gpu\Lib\site-packages`, Python: PythonFacts{Path: `C:\venvs\gpu\Scripts\python.exe`, Version: "3.99.0", Bits: 64, Kind: "unknown"},
			PipOnPath: &PipOnPath{Path: `C:\Python311\Scripts\pip.exe`, Location: `C:\Python311\Lib\site-packages\pip`, PythonVer: "3.11"}},
			[]string{CodePythonUnsupported, CodePipPythonMismatch}, []string{"3.99", `& C:\venvs\gpu\Scripts\Activate.ps1`, `C:\venvs\gpu\Scripts\activate.bat`, "python -m pip", `C:\Python311\Lib\site-packages（python 3.11）`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ev := c.ev
			en := buildReport(&ev, nil)
			var zh Report
			inChinese(t, func() { zh = buildReport(&ev, []string{i18n.T("doctor.checked.driver")}) })
			for _, code := range c.codes {
				requireCode(t, en, code, "")
			}
			text := chineseReport(t, c.name, en, zh)
			for _, want := range c.facts {
				if !strings.Contains(text, want) {
					t.Errorf("the Chinese report lacks %q:\n%s", want, text)
				}
			}
		})
	}
}

// The repair plan of a CPU torch venv with a leftover, in Chinese: the same actions (argv, paths,
// engine flags, codes), their titles and the notes in Chinese.
func TestChineseRepairPlan(t *testing.T) {
	venv := newVenv(t)
	writeDist(t, venv, "torch", "2.8.0+cpu", torchStub("2.8.0+cpu", "", nil, false))
	writeDist(t, venv, "paddlepaddle", "3.0.0", paddleFiles())
	writeDist(t, venv, "paddlepaddle-gpu", "3.0.0", paddleFiles())
	must(t, os.MkdirAll(filepath.Join(sitePackages(t, venv), "~orch"), 0o755))
	d := linuxDeps(t, "gpu-cc90.json", nil)
	g, _ := d.GPU(context.Background())
	en, zh := runBoth(t, d, venv)
	chineseReport(t, "cpu torch beside paddle", en, zh)
	o := RepairOptions{Matrix: d.Matrix, GPU: g}
	pe := RepairPlan(en, o)
	var pz Repair
	inChinese(t, func() { pz = RepairPlan(zh, o) })
	if len(pe.Actions) == 0 || len(pe.Actions) != len(pz.Actions) || len(pe.Notes) != len(pz.Notes) || len(pe.Unfixable) != len(pz.Unfixable) {
		t.Fatalf("plans differ by language:\n en %+v\n zh %+v", pe, pz)
	}
	if (pe.Reinstall == nil) != (pz.Reinstall == nil) || pe.Reinstall != nil && (pe.Reinstall.Framework != pz.Reinstall.Framework || pe.Reinstall.FrameworkVersion != pz.Reinstall.FrameworkVersion || pe.Reinstall.Channel != pz.Reinstall.Channel) {
		t.Fatalf("reinstall differs: %+v / %+v", pe.Reinstall, pz.Reinstall)
	}
	var all []string
	for i, a := range pz.Actions {
		b := pe.Actions[i]
		if strings.Join(a.Argv, " ") != strings.Join(b.Argv, " ") || a.RemovePath != b.RemovePath || a.Engine != b.Engine || a.Fixes != b.Fixes {
			t.Errorf("action %d differs beyond its title:\n en %+v\n zh %+v", i, b, a)
		}
		all = append(all, a.Title)
	}
	all = append(all, pz.Notes...)
	joined := strings.Join(all, "\n")
	i18ntest.NoEnglishProse(t, "the repair plan", joined)
	for _, want := range []string{"卸载 torch", "~orch", "安装引擎", "飞桨的包保持不动", "pip 缓存"} {
		if !strings.Contains(joined, want) {
			t.Errorf("the Chinese plan lacks %q:\n%s", want, joined)
		}
	}
	// Without an engine the install step fails with a Chinese reason naming the command to run.
	inChinese(t, func() {
		res, err := ApplyRepair(context.Background(), Deps{GOOS: "linux"}, pz, nil)
		if err != nil || !res.Failed || len(res.Steps) != 1 {
			t.Fatalf("ApplyRepair without an engine: %v %+v", err, res)
		}
		s := res.Steps[0]
		i18ntest.NoEnglishProse(t, "the failed step", s.Title+"\n"+s.Err)
		if !strings.Contains(s.Title, "通过安装引擎安装 torch") || !strings.Contains(s.Err, "gpuwiz install --venv "+venv) {
			t.Errorf("failed step: %+v", s)
		}
	})
	// A path the plan may not delete is refused in Chinese, and a failed delete still wraps its cause.
	inChinese(t, func() {
		err := removeRepairPath(filepath.Join(venv, "lib", "site"), Repair{Venv: venv})
		if err == nil || !strings.Contains(err.Error(), "拒绝删除") {
			t.Fatalf("refusal: %v", err)
		}
		i18ntest.NoEnglishProse(t, "the refusal", err.Error())
	})
}

// Bad options are refused in Chinese, with the flags and paths as given.
func TestChineseInputErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "python")
	must(t, os.WriteFile(file, nil, 0o755))
	cases := []struct {
		o    Options
		env  MapEnviron
		want string
	}{
		{Options{Venv: dir, Python: file}, nil, "--venv"},
		{Options{Venv: filepath.Join(dir, "nope")}, nil, "pyvenv.cfg"},
		{Options{Venv: dir}, nil, "conda-meta"},
		{Options{Python: filepath.Join(dir, "nope")}, nil, filepath.Join(dir, "nope")},
		{Options{}, MapEnviron{"PATH": filepath.Join(dir, "empty")}, "--python PATH"},
	}
	inChinese(t, func() {
		for _, c := range cases {
			_, _, err := ResolvePython(c.o, OSFS{}, "linux", c.env)
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("%+v: %v is not an InputError", c.o, err)
			}
			i18ntest.NoEnglishProse(t, "input error", ie.Msg)
			if !strings.Contains(ie.Msg, c.want) {
				t.Errorf("%+v: %q lacks %q", c.o, ie.Msg, c.want)
			}
		}
	})
}
