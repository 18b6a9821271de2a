package verify

import (
	"strings"
	"testing"
	"time"

	"gpuwiz/steps/i18n/i18ntest"
	"gpuwiz/steps/testkit/pyindex"
)

// ours is the text of a check that gpuwiz writes (the evidence may quote the framework's own
// English error, so it is checked only where gpuwiz wrote it).
func ours(c Check, withEvidence bool) string {
	parts := []string{c.Title, c.Cause, c.Fix}
	if withEvidence {
		parts = append(parts, c.Evidence)
	}
	return strings.Join(parts, "\n")
}

// A good torch build, verified in Chinese: every check's title and evidence is Chinese and still
// names the facts (framework, channel, card, compute capability, matrix size, device count).
func TestChineseChecksOfAGoodBuild(t *testing.T) {
	i18ntest.Chinese(t)
	rep := run(t, "torch", "cu126", pyindex.TorchStub(goodTorch), 0)
	if !rep.OK {
		t.Fatalf("want OK, got %+v", rep.Failed())
	}
	want := map[string][]string{
		"import":         {"导入 torch"},
		"cuda-build":     {"torch 是 CUDA 版", "编译时用的 CUDA 版本：12.6"},
		"channel":        {"cu126 通道", "+cu126 标签"},
		"cudnn":          {"cuDNN", "90100"},
		"cuda-available": {"torch 能识别到显卡", "1 个设备"},
		"arch-0":         {"GPU 0（NVIDIA H200，算力 9.0）", "架构列表：sm_80 sm_90"},
		"matmul":         {"16×16 矩阵乘法", "最大相对误差"},
	}
	for _, c := range rep.Checks {
		text := ours(c, true)
		for _, w := range want[c.ID] {
			if !strings.Contains(text, w) {
				t.Errorf("check %s lacks %q:\n%s", c.ID, w, text)
			}
		}
		delete(want, c.ID)
		i18ntest.NoEnglishProse(t, "check "+c.ID, text)
	}
	if len(want) > 0 {
		t.Errorf("checks missing: %v", want)
	}
}

// Failed checks in Chinese: each cause and fix (and gpuwiz's own evidence) reads in Chinese and
// keeps the commands, DLL names and versions a user needs.
func TestChineseCausesAndFixes(t *testing.T) {
	i18ntest.Chinese(t)
	cpu := goodTorch
	cpu.Version, cpu.CUDA, cpu.CudaAvailable, cpu.CuDNN = "2.6.0+cpu", "", false, 0
	noArch := goodTorch
	noArch.Capability = "12.0"
	wrong := goodTorch
	wrong.WrongResult = true
	noDev := goodTorch
	noDev.CudaAvailable = false
	cases := []struct {
		name     string
		files    map[string]string
		id       string
		evidence bool // the evidence is gpuwiz's words, not the framework's
		want     []string
	}{
		{"cpu build", pyindex.TorchStub(cpu), "cuda-build", true, []string{"装的是 CPU 版", "gpuwiz install --framework torch --channel cuXYZ", "编译时用的 CUDA 版本：无"}},
		{"cpu build's label", pyindex.TorchStub(cpu), "channel", true, []string{"装上的是别的版本", "gpuwiz doctor --venv VENV --fix", "gpuwiz install --venv VENV --framework torch --channel cu126", "2.6.0+cpu"}},
		{"arch missing", pyindex.TorchStub(noArch), "arch-0", true, []string{"算力 12.0", "不支持这块显卡的架构", "gpuwiz channels"}},
		{"wrong numbers", pyindex.TorchStub(wrong), "matmul", true, []string{"GPU 算出的结果不对", "gpuwiz verify", "上限 0.01"}},
		{"no device", pyindex.TorchStub(noDev), "cuda-available", true, []string{"0 个设备", "CUDA_VISIBLE_DEVICES", "nvidia-smi"}}, // on Linux: no Windows graphics preference
		{"vc runtime", map[string]string{"torch/__init__.py": `raise OSError('[WinError 126] The specified module could not be found. Error loading "fbgemm.dll" or one of its dependencies.')`}, "import", false, []string{"找不到 fbgemm.dll", "[WinError 126]", "Visual C++ 运行库", "vc_redist.x64.exe"}},
		{"nothing imports", map[string]string{}, "import", false, []string{"没有安装该框架", "gpuwiz install --venv VENV"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := check(t, run(t, "torch", "cu126", tc.files, 0), tc.id)
			text := ours(c, tc.evidence)
			if c.OK || c.Cause == "" || c.Fix == "" {
				t.Fatalf("want a failed check with cause and fix: %+v", c)
			}
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("lacks %q:\n%s", w, text)
				}
			}
			i18ntest.NoEnglishProse(t, tc.name, text)
		})
	}
}

// The script that hangs or crashes: the check, the cause (with the recognised one inside) and the
// fix in Chinese; the evidence starts with gpuwiz's words and keeps the interpreter's output.
func TestChineseScriptFailures(t *testing.T) {
	i18ntest.Chinese(t)
	crash := check(t, run(t, "torch", "cu126", map[string]string{"torch/__init__.py": "import os, signal, sys\nsys.stderr.write('about to crash\\n')\nos.kill(os.getpid(), signal.SIGSEGV)\n"}, 0), "script")
	if !strings.HasPrefix(crash.Evidence, "解释器没有给出结果就退出了") || !strings.Contains(crash.Evidence, "about to crash") ||
		!strings.Contains(crash.Cause, "加载 torch 时 Python 进程崩溃了（") || !strings.Contains(crash.Title, "torch 验证脚本") {
		t.Errorf("crash: %+v", crash)
	}
	i18ntest.NoEnglishProse(t, "crash", ours(crash, false))
	hang := check(t, run(t, "torch", "cu126", map[string]string{"torch/__init__.py": "import time\ntime.sleep(60)\n"}, 2*time.Second), "script")
	if !strings.HasPrefix(hang.Evidence, "2s 后仍没有结果；输出：") || !strings.Contains(hang.Fix, "gpuwiz doctor --venv VENV") {
		t.Errorf("hang: %+v", hang)
	}
	i18ntest.NoEnglishProse(t, "hang", ours(hang, true))
}

// Paddle in Chinese: the cuDNN DLL mismatch and a CPU build, the two the Paddle guide warns about.
func TestChinesePaddle(t *testing.T) {
	i18ntest.Chinese(t)
	dll := check(t, run(t, "paddle", "cu126", map[string]string{"paddle/__init__.py": `raise OSError("(PreconditionNotMet) The third-party dynamic library (cudnn64_8.dll) that Paddle depends on is not configured correctly. (error code is 126)")`}, 0), "import")
	if !strings.Contains(dll.Cause, "cuDNN DLL") || !strings.Contains(dll.Fix, "gpuwiz doctor") {
		t.Errorf("cudnn dll: %+v", dll)
	}
	i18ntest.NoEnglishProse(t, "cudnn dll", ours(dll, false))
	cpu := pyindex.StubSpec{Version: "3.0.0", Capability: "8.6", DeviceName: "NVIDIA GeForce RTX 3090"}
	c := check(t, run(t, "paddle", "cu126", pyindex.PaddleStub(cpu), 0), "channel")
	if c.OK || !strings.Contains(c.Evidence, "paddle.version.cuda() = 无，应为 12.6") {
		t.Errorf("cpu paddle: %+v", c)
	}
	i18ntest.NoEnglishProse(t, "cpu paddle", ours(c, true))
}

// Issue: Windows graphics-preference advice was shown on Linux. Each system gets its own fix.
func TestNoDeviceFixIsTheSystems(t *testing.T) {
	defer func(g string) { hostGOOS = g }(hostGOOS)
	hostGOOS = "linux"
	if _, fix := noDeviceCause("", "12.6"); strings.Contains(fix, "Windows") || strings.Contains(fix, "python.exe") {
		t.Errorf("Linux fix: %s", fix)
	}
	hostGOOS = "windows"
	if _, fix := noDeviceCause("", "12.6"); !strings.Contains(fix, "graphics preference") {
		t.Errorf("Windows fix: %s", fix)
	}
}

// The fix for another build than the channel's names gpuwiz's ways to reinstall it (doctor --fix,
// install with the framework and channel), in both languages; never pip's -c constraints.txt, which
// the venv's own pip configuration has made needless (gpuwiz protect).
func TestAnotherBuildFixIsGpuwizNotPipConstraints(t *testing.T) {
	cpu := goodTorch
	cpu.Version, cpu.CUDA, cpu.CudaAvailable, cpu.CuDNN = "2.6.0+cpu", "", false, 0
	for _, zh := range []bool{false, true} {
		if zh {
			i18ntest.Chinese(t)
		}
		c := check(t, run(t, "torch", "cu126", pyindex.TorchStub(cpu), 0), "channel")
		if c.OK {
			t.Fatalf("a +cpu build passed the channel check: %+v", c)
		}
		for _, want := range []string{"gpuwiz doctor --venv VENV --fix", "gpuwiz install --venv VENV --framework torch --channel cu126", "gpuwiz protect"} {
			if !strings.Contains(c.Fix, want) {
				t.Errorf("fix lacks %q: %s", want, c.Fix)
			}
		}
		if strings.Contains(c.Fix, " -c ") || strings.Contains(c.Fix, "constraints.txt") {
			t.Errorf("fix still says pip's -c constraints.txt: %s", c.Fix)
		}
	}
}
