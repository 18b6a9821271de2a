package install

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/steps/pipcmd"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/testkit/pyindex"
)

// pipOut runs the venv's pip with args and returns what it printed.
func pipOut(t *testing.T, v pyenv.Venv, args ...string) string {
	t.Helper()
	var buf bytes.Buffer
	res := runner.New(nil).Run(context.Background(), runner.Cmd{Argv: append([]string{v.Python(), "-m", "pip"}, args...), Env: pyindex.PipEnv(t), Stdout: &buf}, nil)
	if res.Err != nil {
		t.Fatalf("pip %v: %v %v", args, res.Err, res.Tail)
	}
	return buf.String()
}

// The tests' families (the torch family, Paddle's GPU and CPU dists, and names spelt as projects
// spell them: upper case, dots, underscores, a post release), installed from the loopback index
// into real venvs: the snapshot read in Go is `pip freeze --all` byte for byte (pip and setuptools
// lines included), and the lock's list is `pip freeze`. A dist whose line pip words itself (a
// direct URL) or whose version is not in its normal form is left to pip, and the engine's snapshot
// is still pip's answer.
func TestSnapshotReadInGoEqualsPipFreeze(t *testing.T) {
	kit := buildWheels(t)
	odd := t.TempDir()
	var oddFiles []string
	for _, w := range [][2]string{{"Gpuwiz.Odd_Name", "1.0.post1"}, {"ZZ-upper", "2.0rc1"}, {"aa_lower", "0.1.dev3+local.7"}} {
		p, err := pyindex.BuildWheel(odd, w[0], w[1], map[string]string{strings.ToLower(strings.NewReplacer(".", "_", "-", "_").Replace(w[0])) + "/__init__.py": ""}, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		oddFiles = append(oddFiles, p)
	}
	unnormal, err := pyindex.BuildWheel(t.TempDir(), "gpuwiz-unnormal", "01.02", map[string]string{"gpuwiz_unnormal.py": ""}, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	dep := kit["cu126"][3]
	ix := pyindex.Serve(t, map[string][]string{
		"torch":  kit["cu126"],
		"paddle": append(append([]string{}, kit["paddle-cu126"]...), dep),
		"odd":    append(oddFiles, unnormal),
	})
	families := []struct {
		channel string
		pkgs    []string
	}{
		{"torch", []string{"torch==2.6.0+cu126", "torchvision==0.21.0+cu126", "torchaudio==2.6.0+cu126"}},
		{"paddle", []string{"paddlepaddle-gpu==3.0.0", "paddlepaddle==3.0.0"}},
		{"odd", []string{"Gpuwiz.Odd_Name", "ZZ-upper", "aa_lower==0.1.dev3+local.7"}},
	}
	ctx := context.Background()
	for _, f := range families {
		t.Run(f.channel, func(t *testing.T) {
			v := pyindex.NewVenv(t, "")
			pipInstall(t, v, append([]string{"--index-url", ix.ChannelURL(f.channel), "--pre"}, f.pkgs...)...)
			facts, err := pyenv.AskPathFacts(ctx, runner.New(nil), v.Python(), pyindex.PipEnv(t))
			if err != nil {
				t.Fatal(err)
			}
			wantAll, want := freeze(t, v), pipOut(t, v, "freeze")
			gotAll, err := pyenv.FreezeAll(facts)
			if !facts.Importlib {
				// Before Python 3.11 pip reads dists with pkg_resources: left to pip, said so.
				if ne := (*pyenv.NotExact)(nil); !errors.As(err, &ne) {
					t.Fatalf("Python %v: want NotExact, got %v", facts.Version, err)
				}
				t.Skipf("Python %d.%d: pip's pkg_resources backend, left to pip", facts.Version[0], facts.Version[1])
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(gotAll) != wantAll {
				t.Fatalf("Go freeze --all:\n%s\npip freeze --all:\n%s", gotAll, wantAll)
			}
			if !strings.Contains(wantAll, "pip==") {
				t.Fatalf("pip freeze --all lists no pip: %s", wantAll)
			}
			got, err := pyenv.Freeze(facts)
			if err != nil || string(got) != want {
				t.Fatalf("Go freeze (%v):\n%s\npip freeze:\n%s", err, got, want)
			}
		})
	}
	// Left to pip: a dist installed from a file (direct_url.json) and a version pip would rewrite.
	for name, args := range map[string][]string{
		"direct url": {oddFiles[0]},
		"unnormal":   {"--index-url", ix.ChannelURL("odd"), "gpuwiz-unnormal"},
	} {
		t.Run(name, func(t *testing.T) {
			v := pyindex.NewVenv(t, "")
			pipInstall(t, v, args...)
			facts, err := pyenv.AskPathFacts(ctx, runner.New(nil), v.Python(), pyindex.PipEnv(t))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := pyenv.FreezeAll(facts); !errors.As(err, new(*pyenv.NotExact)) {
				t.Fatalf("want NotExact, got %v", err)
			}
			log := filepath.Join(t.TempDir(), "log")
			lf, _ := os.Create(log)
			defer lf.Close()
			e := &engine{r: runner.New(lf), py: v.Python(), plan: Plan{env: pyindex.PipEnv(t), pip: pipcmd.Pip{Python: v.Python()}}}
			got, err := e.freezeAll(ctx, "snapshot", e.freezeArgv())
			if err != nil || string(got) != freeze(t, v) {
				t.Fatalf("engine's snapshot (%v):\n%s\nwant pip's:\n%s", err, got, freeze(t, v))
			}
		})
	}
}

// The install's snapshot step reads the dist-info folders instead of starting pip freeze, and its
// file is what pip freeze --all printed before the run.
func TestInstallSnapshotIsReadWithoutPip(t *testing.T) {
	ix := serve(t)
	v := pyindex.NewVenv(t, "")
	pipInstall(t, v, "--index-url", ix.ChannelURL("cu118"), "torch==2.6.0+cu118")
	before := freeze(t, v)
	o := options(t, v, torchTarget(ix, "cu126"), t.TempDir())
	_, out, _ := install(t, context.Background(), o, nil)
	if out.Result != ResultInstalled {
		t.Fatalf("install: %s %v", out.Result, out.Err)
	}
	snap, err := os.ReadFile(out.SnapshotFile)
	if err != nil || string(snap) != before {
		t.Fatalf("snapshot file (%v):\n%s\nwant pip freeze --all before the run:\n%s", err, snap, before)
	}
	log, _ := os.ReadFile(o.LogPath)
	facts, _ := pyenv.AskPathFacts(context.Background(), runner.New(nil), v.Python(), pyindex.PipEnv(t))
	if facts.Importlib && !strings.Contains(string(log), "snapshot: read from the dist-info folders") {
		t.Fatalf("the snapshot was not read from the dist-info folders; log:\n%s", log)
	}
}
