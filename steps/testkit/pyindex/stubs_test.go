package pyindex

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/steps/runner"
)

// runStub writes files to a dir and runs code with that dir first on sys.path (no pip needed).
func runStub(t *testing.T, files map[string]string, code string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lines := make(chan runner.Line, 1000)
	res := runner.New(nil).Run(context.Background(), runner.Cmd{Argv: []string{Python(t), "-I", "-c", "import sys; sys.path.insert(0, sys.argv[1])\n" + code, dir}}, lines)
	close(lines)
	var out []string
	for l := range lines {
		out = append(out, l.Text)
	}
	if res.Err != nil {
		t.Fatalf("%v\n%s", res.Err, strings.Join(out, "\n"))
	}
	return strings.Join(out, "\n")
}

const gpuVsCPU = `
def check(torch):
    try:
        g = torch.Generator().manual_seed(0)
        a, b = torch.randn(16, 16, generator=g), torch.randn(16, 16, generator=g)
        d = torch.device("cuda", 0)
        gpu = (a.to(d) @ b.to(d)).cpu().double()
        torch.cuda.synchronize()
        return "diff=%g" % (gpu - (a @ b).double()).abs().max().item()
    except Exception as e:
        return "%s: %s" % (type(e).__name__, e)
import torch
print(check(torch))
`

func TestTorchStubFailureModes(t *testing.T) {
	good := StubSpec{Version: "2.6.0+cu126", CUDA: "12.6", ArchList: []string{"sm_90"}, CudaAvailable: true}
	for _, c := range []struct {
		name string
		spec StubSpec
		want string
	}{
		{"works", good, "diff=0"},
		{"cpu build", StubSpec{Version: "2.6.0+cpu"}, "AssertionError: Torch not compiled with CUDA enabled"},
		{"no device", StubSpec{Version: "2.6.0+cu126", CUDA: "12.6", ArchList: []string{"sm_90"}}, "RuntimeError: No CUDA GPUs are available"},
		{"arch missing", StubSpec{Version: "2.6.0+cu118", CUDA: "11.8", ArchList: []string{"sm_80"}, CudaAvailable: true, Capability: "12.0"}, "RuntimeError: CUDA error: no kernel image is available for execution on the device"},
		{"wrong result", func() StubSpec { s := good; s.WrongResult = true; return s }(), "diff=0.5"},
	} {
		if got := runStub(t, TorchStub(c.spec), gpuVsCPU); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestPaddleStub(t *testing.T) {
	gpu := PaddleStub(StubSpec{Version: "3.0.0", CUDA: "12.6", CuDNN: 90501, CudaAvailable: true, DeviceName: "NVIDIA GeForce RTX 4090", DeviceCount: 2})
	out := runStub(t, gpu, `import paddle
print(paddle.__version__, paddle.version.cuda(), paddle.version.cudnn(), paddle.is_compiled_with_cuda(),
      paddle.device.cuda.device_count(), paddle.device.cuda.get_device_name(0))
paddle.set_device("gpu:0")
paddle.seed(1)
a = paddle.randn([8, 8])
c = paddle.to_tensor(a, place=paddle.CPUPlace())
print((paddle.matmul(a, a).cpu() - paddle.matmul(c, c)).abs().max().item())
paddle.utils.run_check()`)
	want := "3.0.0 12.6 9.5.1 True 2 NVIDIA GeForce RTX 4090\n0.0\nRunning verify PaddlePaddle program ... \nPaddlePaddle works well on 2 GPU.\nPaddlePaddle is installed successfully! Let's start deep learning with PaddlePaddle now."
	if out != want {
		t.Fatalf("gpu paddle:\n%s\nwant\n%s", out, want)
	}
	cpu := PaddleStub(StubSpec{Version: "3.0.0"})
	out = runStub(t, cpu, `import paddle
print(paddle.version.cuda(), paddle.version.cudnn(), paddle.is_compiled_with_cuda(), paddle.device.cuda.device_count())
try:
    paddle.set_device("gpu")
except ValueError as e:
    print(e)`)
	if out != "False False False 0\nThe device should not be 'gpu', since PaddlePaddle is not compiled with CUDA" {
		t.Fatalf("cpu paddle: %q", out)
	}
}
