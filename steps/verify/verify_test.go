package verify

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gpuwiz/steps/runner"
	"gpuwiz/steps/testkit/pyindex"
)

// stubPath writes a stub module's files under a temp dir and returns an environment whose
// PYTHONPATH imports it: the real interpreter runs the real script, no pip needed.
func stubPath(t *testing.T, files map[string]string) []string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return append(pyindex.PipEnv(t), "PYTHONPATH="+dir)
}

func run(t *testing.T, fw, channel string, files map[string]string, timeout time.Duration) Report {
	t.Helper()
	rep, err := RunWith(context.Background(), runner.New(nil), pyindex.Python(t), fw, channel,
		Options{Env: stubPath(t, files), MatrixN: 16, Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func check(t *testing.T, rep Report, id string) Check {
	t.Helper()
	for _, c := range rep.Checks {
		if c.ID == id {
			return c
		}
	}
	t.Fatalf("no check %q in %+v", id, rep.Checks)
	return Check{}
}

var goodTorch = pyindex.StubSpec{Version: "2.6.0+cu126", CUDA: "12.6", CudaAvailable: true, CuDNN: 90100,
	ArchList: []string{"sm_80", "sm_90"}, Capability: "9.0", DeviceName: "NVIDIA H200"}

func TestTorchGPUBuildPasses(t *testing.T) {
	rep := run(t, "torch", "cu126", pyindex.TorchStub(goodTorch), 0)
	if !rep.OK {
		t.Fatalf("want OK, got %+v", rep.Failed())
	}
	if rep.LocalLabel != "+cu126" || rep.CUDA != "12.6" || rep.CuDNN != "90100" || len(rep.Devices) != 1 || rep.Devices[0].Capability != "9.0" {
		t.Fatalf("facts: %+v", rep)
	}
	if c := check(t, rep, "matmul"); !strings.Contains(c.Evidence, "relative difference") {
		t.Fatalf("matmul evidence: %+v", c)
	}
}

func TestTorchFailuresMapToCauses(t *testing.T) {
	cpu := goodTorch
	cpu.Version, cpu.CUDA, cpu.CudaAvailable, cpu.CuDNN = "2.6.0+cpu", "", false, 0
	noArch := goodTorch
	noArch.Capability = "12.0"
	wrong := goodTorch
	wrong.WrongResult = true
	noDev := goodTorch
	noDev.CudaAvailable = false
	cases := []struct {
		name, channel string
		files         map[string]string
		failed        string
		cause         string
	}{
		{"cpu build", "cu126", pyindex.TorchStub(cpu), "cuda-build", "CPU build"},
		{"cpu build has the wrong label", "cu126", pyindex.TorchStub(cpu), "channel", "another build won"},
		{"arch missing", "cu126", pyindex.TorchStub(noArch), "arch-0", "lacks this GPU's architecture"},
		{"arch missing fails the kernel", "cu126", pyindex.TorchStub(noArch), "matmul", "architecture"},
		{"wrong numbers", "cu126", pyindex.TorchStub(wrong), "matmul", "wrong numbers"},
		{"no device", "cu126", pyindex.TorchStub(noDev), "cuda-available", "CUDA_VISIBLE_DEVICES"},
		{"label of another channel", "cu118", pyindex.TorchStub(goodTorch), "channel", "another build won"},
		{"vc runtime", "cu126", map[string]string{"torch/__init__.py": `raise OSError('[WinError 126] The specified module could not be found. Error loading "C:\\v\\Lib\\site-packages\\torch\\lib\\fbgemm.dll" or one of its dependencies.')`}, "import", "Visual C++"},
		{"openmp twice", "cu126", map[string]string{"torch/__init__.py": `raise RuntimeError("OMP: Error #15: Initializing libiomp5md.dll, but found libiomp5md.dll already initialized.")`}, "import", "OpenMP"},
		{"store python", "cu126", map[string]string{"torch/__init__.py": `raise OSError("[WinError 1455] Error loading shm.dll")`}, "import", "Store"},
		{"nothing imports", "cu126", map[string]string{}, "import", "not installed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rep := run(t, "torch", tc.channel, tc.files, 0)
			c := check(t, rep, tc.failed)
			if rep.OK || c.OK || !strings.Contains(c.Cause, tc.cause) || c.Fix == "" || c.Evidence == "" {
				t.Fatalf("want %s failed with cause %q and a fix, got OK=%v %+v", tc.failed, tc.cause, rep.OK, c)
			}
		})
	}
}

func TestCrashAndHangAreFailedChecks(t *testing.T) {
	crash := run(t, "torch", "cu126", map[string]string{"torch/__init__.py": "import os, signal, sys\nsys.stderr.write('about to crash\\n')\nos.kill(os.getpid(), signal.SIGSEGV)\n"}, 0)
	c := check(t, crash, "script")
	if crash.OK || c.OK || !strings.Contains(c.Evidence, "about to crash") || !strings.Contains(c.Cause, "crashed") {
		t.Fatalf("crash: %+v", c)
	}
	hang := run(t, "torch", "cu126", map[string]string{"torch/__init__.py": "import time\ntime.sleep(60)\n"}, 2*time.Second)
	c = check(t, hang, "script")
	if hang.OK || c.OK || !strings.Contains(c.Evidence, "no result after 2s") {
		t.Fatalf("hang: %+v", c)
	}
}

func TestPaddle(t *testing.T) {
	good := pyindex.StubSpec{Version: "3.0.0", CUDA: "12.6", CudaAvailable: true, CuDNN: 90501, Capability: "8.6", DeviceName: "NVIDIA GeForce RTX 3090"}
	rep := run(t, "paddle", "cu126", pyindex.PaddleStub(good), 0)
	if !rep.OK || rep.CuDNN != "9.5.1" || check(t, rep, "run-check").Evidence == "" {
		t.Fatalf("good paddle: %+v", rep)
	}
	rep = run(t, "paddle", "cu118", pyindex.PaddleStub(good), 0)
	if c := check(t, rep, "channel"); rep.OK || c.OK {
		t.Fatalf("cu126 build judged against cu118: %+v", c)
	}
	cpu := good
	cpu.CUDA, cpu.CudaAvailable = "", false
	rep = run(t, "paddle", "cu126", pyindex.PaddleStub(cpu), 0)
	if c := check(t, rep, "cuda-build"); rep.OK || c.OK || !strings.Contains(c.Cause, "CPU build") {
		t.Fatalf("cpu paddle: %+v", c)
	}
	dll := run(t, "paddle", "cu126", map[string]string{"paddle/__init__.py": `raise OSError("(PreconditionNotMet) The third-party dynamic library (cudnn64_8.dll) that Paddle depends on is not configured correctly. (error code is 126)")`}, 0)
	if c := check(t, dll, "import"); c.OK || !strings.Contains(c.Cause, "cuDNN") {
		t.Fatalf("cudnn dll: %+v", c)
	}
}

func TestArchCovers(t *testing.T) {
	for _, tc := range []struct {
		list []string
		cap  string
		want bool
	}{
		{[]string{"sm_80", "sm_90"}, "9.0", true},
		{[]string{"sm_80", "sm_90"}, "8.6", true},
		{[]string{"sm_80", "sm_90"}, "12.0", false},
		{[]string{"sm_80", "compute_90"}, "12.0", true},
		{[]string{"sm_86"}, "8.0", false},
		{[]string{"sm_90a"}, "9.0", true},
	} {
		if got := archCovers(tc.list, tc.cap); got != tc.want {
			t.Errorf("archCovers(%v, %s) = %v", tc.list, tc.cap, got)
		}
	}
}
