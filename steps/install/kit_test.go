package install

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"gpuwiz/matrix"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/testkit/pyindex"
)

// wheels of the torch family for a channel: torch (padded so installs take time), torchvision,
// torchaudio and one ordinary dependency.
type kit struct {
	ix       *pyindex.Index
	channels map[string][]string
}

var (
	kitOnce  sync.Once
	kitFiles map[string][]string
	kitErr   error
)

func torchSpec(label, cuda string) pyindex.StubSpec {
	return pyindex.StubSpec{Version: "2.6.0" + label, CUDA: cuda, CudaAvailable: true, CuDNN: 90100,
		ArchList: []string{"sm_80", "sm_90"}, Capability: "9.0"}
}

// buildWheels builds every test wheel once per test binary.
func buildWheels(t testing.TB) map[string][]string {
	t.Helper()
	kitOnce.Do(func() {
		dir, err := os.MkdirTemp("", "gpuwiz-install-wheels")
		if err != nil {
			kitErr = err
			return
		}
		kitFiles = map[string][]string{}
		add := func(ch, dist, version string, files map[string]string, req []string, pad int) {
			if kitErr != nil {
				return
			}
			d := filepath.Join(dir, ch)
			_ = os.MkdirAll(d, 0o755)
			p, err := pyindex.BuildWheel(d, dist, version, files, req, pad)
			kitErr = err
			kitFiles[ch] = append(kitFiles[ch], p)
		}
		for _, c := range []struct{ ch, cuda string }{{"cu126", "12.6"}, {"cu118", "11.8"}} {
			label := "+" + c.ch
			add(c.ch, "torch", "2.6.0"+label, pyindex.TorchStub(torchSpec(label, c.cuda)), []string{"gpuwiz-dep>=1.0"}, 24<<20)
			add(c.ch, "torchvision", "0.21.0"+label, map[string]string{"torchvision/__init__.py": "__version__ = '0.21.0" + label + "'\n"}, []string{"torch==2.6.0"}, 0)
			add(c.ch, "torchaudio", "2.6.0"+label, map[string]string{"torchaudio/__init__.py": "__version__ = '2.6.0" + label + "'\n"}, []string{"torch==2.6.0"}, 0)
			add(c.ch, "gpuwiz-dep", "1.0", map[string]string{"gpuwiz_dep/__init__.py": "x = 1\n"}, nil, 0)
		}
		// cu126-norecord: the cu126 torch and torchvision, a new dependency, and a torchaudio without a
		// RECORD, so pip installs the others and then fails on it.
		kitFiles["cu126-norecord"] = append(kitFiles["cu126-norecord"], kitFiles["cu126"][:2]...)
		kitFiles["cu126-norecord"] = append(kitFiles["cu126-norecord"], kitFiles["cu126"][3])
		add("cu126-norecord", "gpuwiz-newdep", "1.0", map[string]string{"gpuwiz_newdep/__init__.py": "x = 1\n"}, nil, 0)
		if kitErr == nil {
			var p string
			d := filepath.Join(dir, "cu126-norecord")
			p, kitErr = pyindex.BuildWheelWithoutRecord(d, "torchaudio", "2.6.0+cu126",
				map[string]string{"torchaudio/__init__.py": "__version__ = '2.6.0+cu126'\n", "torchaudio/lib/x.py": "y = 2\n"},
				[]string{"torch==2.6.0", "gpuwiz-newdep>=1.0"})
			kitFiles["cu126-norecord"] = append(kitFiles["cu126-norecord"], p)
		}
		gpu := pyindex.PaddleStub(pyindex.StubSpec{Version: "3.0.0", CUDA: "12.6", CudaAvailable: true, CuDNN: 90501, Capability: "8.6"})
		cpu := pyindex.PaddleStub(pyindex.StubSpec{Version: "3.0.0"})
		add("paddle-cu126", "paddlepaddle-gpu", "3.0.0", gpu, []string{"gpuwiz-dep>=1.0"}, 0)
		add("paddle-cu126", "paddlepaddle", "3.0.0", cpu, nil, 0)
		// The mirror has a stale paddlepaddle-gpu of the same version (a CPU build): it must never be used.
		add("mirror", "paddlepaddle-gpu", "3.0.0", cpu, nil, 0)
		add("mirror", "gpuwiz-dep", "1.0", map[string]string{"gpuwiz_dep/__init__.py": "x = 1\n"}, nil, 0)
	})
	if kitErr != nil {
		t.Fatal(kitErr)
	}
	return kitFiles
}

func serve(t testing.TB) *pyindex.Index { return pyindex.Serve(t, buildWheels(t)) }

func torchTarget(ix *pyindex.Index, ch string) Target {
	label := "+" + ch
	return Target{Framework: "torch", FrameworkVersion: "2.6.0", Channel: ch, IndexURL: ix.ChannelURL(ch), Packages: []matrix.Package{
		{Name: "torch", Version: "2.6.0", LocalLabel: label},
		{Name: "torchvision", Version: "0.21.0", LocalLabel: label},
		{Name: "torchaudio", Version: "2.6.0", LocalLabel: label, Optional: true},
	}}
}

func options(t *testing.T, v pyenv.Venv, target Target, cache string) Options {
	return Options{Venv: v, Python: pyindex.Python(t), Target: target, CacheDir: cache, Environ: pyindex.PipEnv(t),
		NoPipUpgrade: true, VerifyMatrixN: 8, LogPath: filepath.Join(t.TempDir(), "install.log")}
}

// install prepares and runs, collecting events.
func install(t *testing.T, ctx context.Context, o Options, onEvent func(Event)) (Plan, Outcome, []Event) {
	t.Helper()
	log, err := os.Create(o.LogPath)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	r := runner.New(log)
	plan, err := Prepare(ctx, r, o)
	if err != nil {
		t.Fatalf("prepare: %v", err)
	}
	events := make(chan Event, 512)
	var got []Event
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ev := range events {
			got = append(got, ev)
			if onEvent != nil {
				onEvent(ev)
			}
		}
	}()
	out := Run(ctx, r, plan, events)
	close(events)
	<-done
	return plan, out, got
}

func freeze(t *testing.T, v pyenv.Venv) string {
	t.Helper()
	var buf bytes.Buffer
	res := runner.New(nil).Run(context.Background(), runner.Cmd{Argv: []string{v.Python(), "-m", "pip", "freeze", "--all"}, Env: pyindex.PipEnv(t), Stdout: &buf}, nil)
	if res.Err != nil {
		t.Fatalf("pip freeze: %v %v", res.Err, res.Tail)
	}
	return buf.String()
}

// pipInstall puts packages into v by hand, as a user would have.
func pipInstall(t *testing.T, v pyenv.Venv, args ...string) {
	t.Helper()
	argv := append([]string{v.Python(), "-m", "pip", "install", "--no-input"}, args...)
	if res := runner.New(nil).Run(context.Background(), runner.Cmd{Argv: argv, Env: pyindex.PipEnv(t)}, nil); res.Err != nil {
		t.Fatalf("pip install %v: %v %s", args, res.Err, strings.Join(res.Tail, "\n"))
	}
}

func importVersion(t *testing.T, v pyenv.Venv, module string) string {
	t.Helper()
	var buf bytes.Buffer
	res := runner.New(nil).Run(context.Background(), runner.Cmd{Argv: []string{v.Python(), "-c", "import " + module + "; print(" + module + ".__version__)"}, Env: pyindex.PipEnv(t), Stdout: &buf}, nil)
	if res.Err != nil {
		return "import failed: " + strings.Join(res.Tail, " ")
	}
	return strings.TrimSpace(buf.String())
}
