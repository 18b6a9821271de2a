package install

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/testkit/pyindex"
)

// BenchmarkWarmNewVenv times the warm new-venv journey with the tests' largest family (the torch
// stub padded to 24 MiB, torchvision, torchaudio, one dependency): both caches warm (the wheel
// cache and the unpacked wheels, from one install before the timer starts), then each op plans and
// runs an install into a new venv: venv, snapshot, stage, backup, install, verify, lock. It reports
// the stage step's seconds and the pip commands each run started (from the run's log).
//
//	go test ./steps/install -run '^$' -bench WarmNewVenv -benchtime 5x
func BenchmarkWarmNewVenv(b *testing.B) {
	ix := pyindex.Serve(b, buildWheels(b))
	ctx := context.Background()
	cache := filepath.Join(b.TempDir(), "cache")
	target := torchTarget(ix, "cu126")
	opts := func(dir string) Options {
		return Options{Venv: pyenv.Venv{Root: filepath.Join(dir, "venv")}, Python: pyindex.Python(b), Target: target, CacheDir: cache,
			Environ: pyindex.PipEnv(b), NoPipUpgrade: true, VerifyMatrixN: 8}
	}
	journey := func(dir string) (Outcome, string) {
		logPath := filepath.Join(dir, "install.log")
		log, err := os.Create(logPath)
		if err != nil {
			b.Fatal(err)
		}
		defer log.Close()
		r := runner.New(log)
		p, err := Prepare(ctx, r, opts(dir))
		if err != nil {
			b.Fatal(err)
		}
		out := Run(ctx, r, p, nil)
		if !out.OK() {
			b.Fatalf("%+v", out)
		}
		text, _ := os.ReadFile(logPath)
		return out, string(text)
	}
	journey(b.TempDir()) // the caches warm
	var stage float64
	var pips int
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		dir := b.TempDir()
		b.StartTimer()
		out, log := journey(dir)
		stage += out.StepSeconds[StepStage]
		for _, l := range strings.Split(log, "\n") {
			if f := strings.Fields(l); len(f) > 3 && f[0] == "$" && (f[2] == "-m" && f[3] == "pip" || strings.HasSuffix(f[2], "__pip-runner__.py")) {
				pips++
			}
		}
	}
	b.ReportMetric(stage/float64(b.N), "stage-s/op")
	b.ReportMetric(float64(pips)/float64(b.N), "pip-runs/op")
}
