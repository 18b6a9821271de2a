package pyindex

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
)

func pip(t *testing.T, v pyenv.Venv, env []string, args ...string) runner.Result {
	t.Helper()
	argv := append([]string{v.Python(), "-m", "pip", "--no-input", "--disable-pip-version-check"}, args...)
	return runner.New(nil).Run(context.Background(), runner.Cmd{Argv: argv, Env: env}, nil)
}

func pyOut(t *testing.T, v pyenv.Venv, code string) string {
	t.Helper()
	lines := make(chan runner.Line, 1000)
	res := runner.New(nil).Run(context.Background(), runner.Cmd{Argv: []string{v.Python(), "-c", code}}, lines)
	close(lines)
	var out []string
	for l := range lines {
		out = append(out, l.Text)
	}
	if res.Err != nil {
		t.Fatalf("python -c failed: %v\n%s", res.Err, strings.Join(out, "\n"))
	}
	return strings.Join(out, "\n")
}

func torchWheels(t *testing.T, dir string) (cu126, cpu string) {
	t.Helper()
	var err error
	cu126, err = BuildWheel(dir, "torch", "2.6.0+cu126", TorchStub(StubSpec{Version: "2.6.0+cu126", CUDA: "12.6",
		ArchList: []string{"sm_80", "sm_90"}, CudaAvailable: true, CuDNN: 90100}), []string{"typing-extensions>=4"}, 256<<10)
	if err != nil {
		t.Fatal(err)
	}
	cpu, err = BuildWheel(dir, "torch", "2.6.0+cpu", TorchStub(StubSpec{Version: "2.6.0+cpu"}), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	return
}

func TestPipInstallsStubTorchFromLoopbackIndex(t *testing.T) {
	dir := t.TempDir()
	cu126, cpu := torchWheels(t, dir)
	te, err := BuildWheel(dir, "typing_extensions", "4.12.2", map[string]string{"typing_extensions.py": "X = 1\n"}, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	ix := Serve(t, map[string][]string{"cu126": {cu126, te}, "cpu": {cpu, te}})
	v := NewVenv(t, filepath.Join(t.TempDir(), "venv with space & semi; 中文"))
	env := PipEnv(t)

	if res := pip(t, v, env, "install", "--index-url", ix.ChannelURL("cu126"), "torch==2.6.0"); res.Err != nil {
		t.Fatalf("pip install: %v\n%s", res.Err, strings.Join(res.Tail, "\n"))
	}
	st, _ := os.Stat(cu126)
	if ix.Requests(filepath.Base(cu126)) != 1 || ix.BytesServed() < st.Size() {
		t.Fatalf("served %d bytes, %d requests of %s; want ≥ %d bytes, 1 request", ix.BytesServed(), ix.Requests(filepath.Base(cu126)), filepath.Base(cu126), st.Size())
	}
	code := `import json, torch
a = torch.randn(8, 8, generator=torch.Generator().manual_seed(1))
b = torch.randn(8, 8, generator=torch.Generator().manual_seed(2))
g = (a.to("cuda") @ b.to("cuda")); torch.cuda.synchronize()
c = a @ b
print(json.dumps({"v": torch.__version__, "cuda": torch.version.cuda, "avail": torch.cuda.is_available(),
  "cudnn": torch.backends.cudnn.version(), "arch": torch.cuda.get_arch_list(), "cap": list(torch.cuda.get_device_capability(0)),
  "diff": (g.cpu().double() - c.double()).abs().max().item()}))`
	var got struct {
		V, Cuda string
		Avail   bool
		Cudnn   int
		Arch    []string
		Cap     []int
		Diff    float64
	}
	if err := json.Unmarshal([]byte(pyOut(t, v, code)), &got); err != nil {
		t.Fatal(err)
	}
	if got.V != "2.6.0+cu126" || got.Cuda != "12.6" || !got.Avail || got.Cudnn != 90100 || len(got.Arch) != 2 || got.Cap[0] != 9 || got.Diff != 0 {
		t.Fatalf("stub torch reports %+v", got)
	}

	inst, err := pyenv.Inspect(context.Background(), runner.New(nil), v.Python())
	if err != nil {
		t.Fatal(err)
	}
	if len(inst.TorchFamily) != 1 || inst.TorchFamily[0].LocalLabel != "+cu126" {
		t.Fatalf("inspect torch family = %+v", inst.TorchFamily)
	}

	// A channel switch needs uninstall first: same version number, other label (FACTS §7 item 4).
	if res := pip(t, v, env, "uninstall", "-y", "torch"); res.Err != nil {
		t.Fatal(res.Err)
	}
	if res := pip(t, v, env, "install", "--index-url", ix.ChannelURL("cpu"), "torch==2.6.0"); res.Err != nil {
		t.Fatalf("pip install cpu: %v\n%s", res.Err, strings.Join(res.Tail, "\n"))
	}
	out := pyOut(t, v, `import torch
try:
    torch.ones(2, device="cuda")
except AssertionError as e:
    print(torch.__version__, torch.version.cuda, torch.cuda.is_available(), e)`)
	if out != "2.6.0+cpu None False Torch not compiled with CUDA enabled" {
		t.Fatalf("cpu stub says %q", out)
	}
}

func TestIndexDownMakesPipFail(t *testing.T) {
	dir := t.TempDir()
	cu126, _ := torchWheels(t, dir)
	ix := Serve(t, map[string][]string{"cu126": {cu126}})
	v := NewVenv(t, "")
	ix.Down()
	res := pip(t, v, PipEnv(t), "download", "--no-deps", "--retries", "0", "-d", t.TempDir(), "--index-url", ix.ChannelURL("cu126"), "torch==2.6.0")
	if res.Err == nil {
		t.Fatal("pip download succeeded against a down index")
	}
	if ix.BytesServed() != 0 {
		t.Fatalf("down index served %d bytes", ix.BytesServed())
	}
	ix.Up()
	res = pip(t, v, PipEnv(t), "download", "--no-deps", "-d", t.TempDir(), "--index-url", ix.ChannelURL("cu126"), "torch==2.6.0")
	if res.Err != nil {
		t.Fatalf("after Up: %v\n%s", res.Err, strings.Join(res.Tail, "\n"))
	}
}
