package pyindex

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

var (
	//go:embed stubs/tensor.py
	tensorPy string
	//go:embed stubs/torch_init.py
	torchInitPy string
	//go:embed stubs/paddle_init.py
	paddleInitPy string
)

// StubSpec describes the build a stub module pretends to be.
type StubSpec struct {
	Module        string   // "torch", "paddle"; default from the stub function
	Version       string   // "2.6.0+cu126"
	CUDA          string   // "12.6", or "" for a CPU build
	ArchList      []string // ["sm_80", "sm_90"]; a device whose capability is missing fails at the first kernel
	DeviceName    string
	CudaAvailable bool
	CuDNN         int               // 90100; 0 for none
	Capability    string            // the device's compute capability, "9.0" when empty
	DeviceCount   int               // devices seen when CudaAvailable; 1 when 0
	WrongResult   bool              // the GPU matmul returns wrong numbers, for verify's CPU comparison
	Extra         map[string]string // extra files in the wheel (archive path → content)
	Requires      []string          // torch's Requires-Dist in TorchFamily ("nvidia-cublas-cu12==12.6.4.1", as the real wheels pin their CUDA libraries)
	ImportTime    time.Duration     // the import sleeps this long first (a real torch's import and CUDA start take seconds), for benchmarks
}

type stubJSON struct {
	Version       string   `json:"version"`
	CUDA          string   `json:"cuda"`
	ArchList      []string `json:"arch_list"`
	DeviceName    string   `json:"device_name"`
	CudaAvailable bool     `json:"cuda_available"`
	CuDNN         int      `json:"cudnn"`
	Capability    string   `json:"capability"`
	DeviceCount   int      `json:"device_count"`
	WrongResult   bool     `json:"wrong_result"`
}

func (s StubSpec) render(init string) string {
	j := stubJSON{s.Version, s.CUDA, s.ArchList, s.DeviceName, s.CudaAvailable, s.CuDNN, s.Capability, s.DeviceCount, s.WrongResult}
	if j.ArchList == nil {
		j.ArchList = []string{}
	}
	if j.Capability == "" {
		j.Capability = "9.0"
	}
	if j.DeviceCount == 0 {
		j.DeviceCount = 1
	}
	if j.DeviceName == "" {
		j.DeviceName = "NVIDIA H200"
	}
	b, _ := json.Marshal(j)
	init = strings.Replace(init, "@SPEC@", string(b), 1)
	if s.ImportTime > 0 {
		init = fmt.Sprintf("import time as _time\n_time.sleep(%.3f)\n", s.ImportTime.Seconds()) + init
	}
	return init
}

func (s StubSpec) files(module, init string) map[string]string {
	if s.Module != "" {
		module = s.Module
	}
	files := map[string]string{
		module + "/__init__.py": s.render(init),
		module + "/_tensor.py":  tensorPy,
	}
	for k, v := range s.Extra {
		files[k] = v
	}
	return files
}

// TorchStub returns the files of an importable stub torch package (torch/__init__.py and a tiny
// pure-Python tensor): __version__, torch.version.cuda, torch.backends.cudnn.version(),
// torch.cuda.is_available/device_count/get_device_name/get_device_capability/get_arch_list/
// synchronize/get_device_properties/mem_get_info, torch.device, Generator/manual_seed, randn,
// ones, zeros, @, +, -, *, .cpu(), .cuda(), .to(), .double(), .abs(), .max(), .sum(), .item(),
// torch.allclose. Keep matrices small (pure Python: 64×64 takes ~30 ms).
func TorchStub(spec StubSpec) map[string]string { return spec.files("torch", torchInitPy) }

// PaddleStub returns the files of an importable stub paddle package: __version__,
// paddle.version.cuda()/cudnn() (strings, "False" for a CPU build as real Paddle does),
// is_compiled_with_cuda(), paddle.device.cuda.device_count()/get_device_name(), set_device,
// get_device, paddle.utils.run_check(), seed, randn, to_tensor, matmul, CPUPlace, CUDAPlace.
func PaddleStub(spec StubSpec) map[string]string { return spec.files("paddle", paddleInitPy) }

// TorchFamily builds in dir the three wheels of a torch 2.6.0 build as its channel serves them:
// torch from spec (spec.Version "2.6.0+cu126", padded with torchPad bytes), and torchvision 0.21.0 and
// torchaudio 2.6.0 stubs with the same local label. It returns their paths, torch first.
func TorchFamily(t testing.TB, dir string, spec StubSpec, torchPad int) []string {
	t.Helper()
	return TorchFamilyOf(t, dir, spec, "0.21.0", torchPad)
}

// TorchFamilyOf is TorchFamily for the torch release spec.Version names ("2.8.0+cu128"), with
// torchvision at torchvision and torchaudio at torch's own version, both with the same label.
func TorchFamilyOf(t testing.TB, dir string, spec StubSpec, torchvision string, torchPad int) []string {
	t.Helper()
	public, label, _ := strings.Cut(spec.Version, "+")
	if label != "" {
		label = "+" + label
	}
	var out []string
	for _, w := range []struct {
		dist, version string
		files         map[string]string
		requires      []string
		pad           int
	}{
		{"torch", public + label, TorchStub(spec), spec.Requires, torchPad},
		{"torchvision", torchvision + label, map[string]string{"torchvision/__init__.py": "__version__ = '" + torchvision + label + "'\n"}, nil, 0},
		{"torchaudio", public + label, map[string]string{"torchaudio/__init__.py": "__version__ = '" + public + label + "'\n"}, nil, 0},
	} {
		p, err := BuildWheel(dir, w.dist, w.version, w.files, w.requires, w.pad)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}
