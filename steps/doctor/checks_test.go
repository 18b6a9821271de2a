package doctor

import (
	"testing"

	"gpuwiz/steps/gpu"
	"gpuwiz/steps/urls"
)

func mib(n uint64) *uint64 { return &n }
func str(s string) *string { return &s }

func TestGPUChecks(t *testing.T) {
	h200 := gpu.GPU{Index: 0, Name: "H200", UUID: "GPU-1234", ComputeCapability: "9.0", MemoryTotalMiB: 143771}
	torch := []Dist{{Name: "torch", Version: "2.8.0", LocalLabel: "+cu128"}}
	cases := []struct {
		name string
		ev   Evidence
		code string
		sev  Severity // "" means: must be absent
	}{
		{"no driver", Evidence{GPU: gpu.Report{Backend: "none", Message: "no nvml"}}, CodeNoDriver, SeverityError},
		{"driver ok", Evidence{GPU: gpu.Report{Available: true}}, CodeNoDriver, ""},
		{"driver too old for cu128 (11.x driver)", Evidence{GOOS: "linux", Dists: torch, GPU: gpu.Report{Available: true, DriverVersion: "470.82", CUDAMax: "11.4", GPUs: []gpu.GPU{h200}}}, CodeDriverTooOld, SeverityError},
		{"cu128 on 12.4 driver runs by minor compat", Evidence{GOOS: "linux", Dists: torch, GPU: gpu.Report{Available: true, DriverVersion: "550.54.15", CUDAMax: "12.4", GPUs: []gpu.GPU{h200}}}, CodeDriverTooOld, SeverityInfo},
		{"driver new enough", Evidence{GOOS: "linux", Dists: torch, GPU: gpu.Report{Available: true, DriverVersion: "580.65.06", CUDAMax: "13.0", GPUs: []gpu.GPU{h200}}}, CodeDriverTooOld, ""},
		{"CUDA_VISIBLE_DEVICES=-1", Evidence{CUDAVisibleDevices: str("-1"), GPU: gpu.Report{Available: true, GPUs: []gpu.GPU{h200}}}, CodeCUDAVisibleDevices, SeverityError},
		{"CUDA_VISIBLE_DEVICES empty", Evidence{CUDAVisibleDevices: str(""), GPU: gpu.Report{Available: true, GPUs: []gpu.GPU{h200}}}, CodeCUDAVisibleDevices, SeverityError},
		{"CUDA_VISIBLE_DEVICES=1 on one GPU", Evidence{CUDAVisibleDevices: str("1"), GPU: gpu.Report{Available: true, GPUs: []gpu.GPU{h200}}}, CodeCUDAVisibleDevices, SeverityError},
		{"CUDA_VISIBLE_DEVICES=0,7", Evidence{CUDAVisibleDevices: str("0,7"), GPU: gpu.Report{Available: true, GPUs: []gpu.GPU{h200}}}, CodeCUDAVisibleDevices, SeverityWarning},
		{"CUDA_VISIBLE_DEVICES=GPU-1234", Evidence{CUDAVisibleDevices: str("GPU-1234"), GPU: gpu.Report{Available: true, GPUs: []gpu.GPU{h200}}}, CodeCUDAVisibleDevices, SeverityInfo},
		{"CUDA_VISIBLE_DEVICES unset", Evidence{GPU: gpu.Report{Available: true, GPUs: []gpu.GPU{h200}}}, CodeCUDAVisibleDevices, ""},
		{"a python process holds VRAM", Evidence{GPU: gpu.Report{Available: true, GPUs: []gpu.GPU{withProcs(h200, gpu.Process{PID: 9, Name: "python", UsedMemoryMiB: mib(20000)})}}}, CodeGPUMemoryHeld, SeverityWarning},
		{"own process is not a problem", Evidence{SelfPID: 9, GPU: gpu.Report{Available: true, GPUs: []gpu.GPU{withProcs(h200, gpu.Process{PID: 9, Name: "python", UsedMemoryMiB: mib(20000)})}}}, CodeGPUMemoryHeld, ""},
		{"small desktop process", Evidence{GPU: gpu.Report{Available: true, GPUs: []gpu.GPU{withProcs(h200, gpu.Process{PID: 5, Name: "Xorg", UsedMemoryMiB: mib(40)})}}}, CodeGPUMemoryHeld, SeverityInfo},
		{"torch and paddle", Evidence{Dists: []Dist{{Name: "torch", Version: "2.8.0"}, {Name: "paddlepaddle-gpu", Version: "3.0.0"}}, GPU: gpu.Report{Available: true}}, CodeTorchAndPaddleTogether, SeverityWarning},
		{"unlabelled torch on windows is PyPI's CPU build", Evidence{GOOS: "windows", Dists: []Dist{{Name: "torch", Version: "2.8.0"}}, GPU: gpu.Report{Available: true}}, CodeCPUBuild, SeverityError},
		{"unlabelled torch on linux is PyPI's CUDA build", Evidence{GOOS: "linux", Dists: []Dist{{Name: "torch", Version: "2.8.0"}}, GPU: gpu.Report{Available: true}}, CodeCPUBuild, ""},
		{"paddle CPU package alone", Evidence{Dists: []Dist{{Name: "paddlepaddle", Version: "3.0.0"}}, GPU: gpu.Report{Available: true}}, CodeCPUBuild, SeverityError},
		{"orphan paddle dir", Evidence{PaddleDirOrphan: "/sp/paddle", GPU: gpu.Report{Available: true}}, CodePaddleMixed, SeverityError},
		{"import failure with nothing else wrong", Evidence{Dists: torch, GPU: gpu.Report{Available: true}, Framework: FrameworkCheck{Ran: true, Framework: "torch", ImportError: "OSError: [WinError 126] c10.dll"}}, CodeFrameworkCheckFailed, SeverityError},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.ev.Matrix = embeddedMatrix(t)
			rep := Report{Findings: Diagnose(&c.ev)}
			f := rep.Finding(c.code)
			switch {
			case c.sev == "" && f != nil:
				t.Fatalf("unexpected %s: %+v", c.code, *f)
			case c.sev != "" && (f == nil || f.Severity != c.sev):
				t.Fatalf("want %s %s, got %s", c.sev, c.code, codes(rep))
			}
			for _, f := range rep.Findings {
				if f.Title == "" || f.Fix == "" || len(f.Evidence) == 0 {
					t.Fatalf("finding without title, evidence or fix: %+v", f)
				}
			}
		})
	}
}

func withProcs(g gpu.GPU, ps ...gpu.Process) gpu.GPU { g.Processes = ps; return g }

func TestArchCoverage(t *testing.T) {
	cases := []struct {
		archs        []string
		gpu          string
		covered, ptx bool
	}{
		{[]string{"sm_80", "sm_86", "sm_90"}, "8.9", true, false},
		{[]string{"sm_50", "sm_90"}, "12.0", false, false},
		{[]string{"7.5", "9.0", "12.0+PTX"}, "12.1", true, false},
		{[]string{"7.5", "9.0+PTX"}, "12.0", true, true},
		{[]string{"sm_90", "compute_90"}, "10.0", true, true},
		{[]string{"sm_86"}, "8.0", false, false},
	}
	for _, c := range cases {
		cc, _ := parseComputeCap(c.gpu)
		if cov, ptx := archCovers(c.archs, cc); cov != c.covered || ptx != c.ptx {
			t.Errorf("archCovers(%v, %s) = %v,%v want %v,%v", c.archs, c.gpu, cov, ptx, c.covered, c.ptx)
		}
	}
}

func TestRedact(t *testing.T) {
	in := "PIP_EXTRA_INDEX_URL=https://x.example/simple\nhttps://bob:hunter2@mirror.example/simple ?token=abc&x=1 Authorization: Bearer zzz"
	out := urls.Redact(in)
	for _, secret := range []string{"hunter2", "abc", "zzz", "x.example"} {
		if contains := len(out) > 0 && (stringContains(out, secret)); contains {
			t.Fatalf("%q survived: %s", secret, out)
		}
	}
	if !stringContains(out, "mirror.example") {
		t.Fatalf("host lost: %s", out)
	}
}

func stringContains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}
