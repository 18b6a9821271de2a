package install

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"gpuwiz/steps/runner"
	"gpuwiz/steps/testkit/pyindex"
)

// BenchmarkInstall times a fresh torch-stub install (24 MiB torch wheel, empty cache, existing venv)
// three ways: gpuwiz's engine; every command of gpuwiz's plan typed by hand one after another
// (snapshot, offline try, download, uninstall, install, freeze; the same work minus gpuwiz's own
// backup/verify steps); and the minimal pip download + pip install a user would type.
func BenchmarkInstall(b *testing.B) {
	ix := pyindex.Serve(b, buildWheels(b))
	ctx := context.Background()
	env := pyindex.PipEnv(b)
	target := torchTarget(ix, "cu126")
	r := runner.New(nil)
	prepare := func(b *testing.B) (Plan, Options) {
		b.StopTimer()
		v := pyindex.NewVenv(b, "")
		o := Options{Venv: v, Target: target, CacheDir: filepath.Join(b.TempDir(), "cache"), Environ: env, NoPipUpgrade: true, VerifyMatrixN: 8}
		p, err := Prepare(ctx, r, o)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		return p, o
	}
	b.Run("gpuwiz", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			p, _ := prepare(b)
			if out := Run(ctx, r, p, nil); !out.OK() {
				b.Fatalf("%+v", out)
			}
		}
	})
	b.Run("plan-commands-by-hand", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			p, _ := prepare(b)
			for _, argv := range p.Commands {
				res := r.Run(ctx, runner.Cmd{Argv: argv, Env: p.env}, nil)
				if res.Err != nil && !slices.Contains(argv, "--no-index") { // an offline try fails on an empty cache, as in gpuwiz
					b.Fatalf("%v: %v", argv, res.Tail)
				}
			}
		}
	})
	b.Run("minimal-by-hand", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			p, _ := prepare(b)
			py := p.venv.Python()
			for _, argv := range [][]string{
				{py, "-m", "pip", "download", "--no-input", "--index-url", p.IndexURL, "-d", p.StageDir, "torch==2.6.0+cu126", "torchvision==0.21.0+cu126", "torchaudio==2.6.0+cu126"},
				{py, "-m", "pip", "install", "--no-input", "--no-index", "--find-links", p.StageDir, "torch==2.6.0+cu126", "torchvision==0.21.0+cu126", "torchaudio==2.6.0+cu126"},
			} {
				if res := r.Run(ctx, runner.Cmd{Argv: argv, Env: p.env}, nil); res.Err != nil {
					b.Fatalf("%v: %v", argv, res.Tail)
				}
			}
		}
	})
}

// BenchmarkInstallRatio runs gpuwiz's engine and its plan's commands by hand in the same
// iteration, alternating which goes first, so machine drift (2 shared cores) falls on both alike.
// It reports each one's seconds per install and their ratio (target ≤ 1.05).
func BenchmarkInstallRatio(b *testing.B) {
	ix := pyindex.Serve(b, buildWheels(b))
	ctx := context.Background()
	env := pyindex.PipEnv(b)
	target := torchTarget(ix, "cu126")
	r := runner.New(nil)
	plan := func(b *testing.B) Plan {
		v := pyindex.NewVenv(b, "")
		o := Options{Venv: v, Target: target, CacheDir: filepath.Join(b.TempDir(), "cache"), Environ: env, NoPipUpgrade: true, VerifyMatrixN: 8}
		p, err := Prepare(ctx, r, o)
		if err != nil {
			b.Fatal(err)
		}
		return p
	}
	engine := func(p Plan) {
		if out := Run(ctx, r, p, nil); !out.OK() {
			b.Fatalf("%+v", out)
		}
	}
	byHand := func(p Plan) {
		for _, argv := range p.Commands {
			res := r.Run(ctx, runner.Cmd{Argv: argv, Env: p.env}, nil)
			if res.Err != nil && !slices.Contains(argv, "--no-index") {
				b.Fatalf("%v: %v", argv, res.Tail)
			}
		}
	}
	var tEngine, tHand time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		pe, ph := plan(b), plan(b)
		b.StartTimer()
		runs := []func(){func() { s := time.Now(); engine(pe); tEngine += time.Since(s) }, func() { s := time.Now(); byHand(ph); tHand += time.Since(s) }}
		if i%2 == 1 {
			runs[0], runs[1] = runs[1], runs[0]
		}
		for _, run := range runs {
			run()
		}
	}
	b.ReportMetric(tEngine.Seconds()/float64(b.N), "gpuwiz-s/op")
	b.ReportMetric(tHand.Seconds()/float64(b.N), "by-hand-s/op")
	b.ReportMetric(tEngine.Seconds()/tHand.Seconds(), "ratio")
}
