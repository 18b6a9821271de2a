package install

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"gpuwiz/matrix"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/testkit/pyindex"
)

// The download benchmark's family, like torch's: one large wheel (GPUWIZ_BENCH_BIG_MB, 300 MB by
// default) that needs a dozen small ones. Built in a temp dir when the benchmark runs.
func benchFamily(b *testing.B) (channels map[string][]string, total int64) {
	b.Helper()
	big := 300
	if v, err := strconv.Atoi(os.Getenv("GPUWIZ_BENCH_BIG_MB")); err == nil && v > 0 {
		big = v
	}
	dir := b.TempDir()
	var deps []string
	var files []string
	for i := 0; i < 12; i++ {
		name := fmt.Sprintf("nvidia-stub-%02d", i)
		deps = append(deps, name+"==1.0")
		p, err := pyindex.BuildWheel(dir, name, "1.0", map[string]string{strings.ReplaceAll(name, "-", "_") + "/__init__.py": "x = 1\n"}, nil, (1+i%4)<<20)
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, p)
	}
	label := "+cu126"
	p, err := pyindex.BuildWheel(dir, "torch", "2.6.0"+label, pyindex.TorchStub(torchSpec(label, "12.6")), deps, big<<20)
	if err != nil {
		b.Fatal(err)
	}
	files = append(files, p)
	for _, f := range files {
		info, err := os.Stat(f)
		if err != nil {
			b.Fatal(err)
		}
		total += info.Size()
	}
	// "deps": the small ones alone, the index beside a flat page.
	return map[string][]string{"cu126": files, "deps": files[:len(files)-1]}, total
}

// benchRate is every connection's cap: 20 MB/s, or GPUWIZ_BENCH_MBPS (the far mirror of a user's
// reality is a few MB/s per connection).
func benchRate() int64 {
	if v, err := strconv.ParseFloat(os.Getenv("GPUWIZ_BENCH_MBPS"), 64); err == nil && v > 0 {
		return int64(v * (1 << 20))
	}
	return 20 << 20
}

// benchSources are the shapes of source users meet: an index with PEP 658 metadata
// (download.pytorch.org, PyPI), a flat find-links page without metadata or hashes with a PyPI-style
// index beside it for the dependencies (the Aliyun/SJTU mirrors of PyTorch's wheels), and an index
// without metadata on a server that refuses HEAD (many mirrors and plain web servers).
var benchSources = []struct {
	name string
	net  pyindex.Network
	flat bool
}{
	{"index", pyindex.Network{}, false},
	{"flat", pyindex.Network{NoMetadata: true, NoHashes: true}, true},
	{"nometa", pyindex.Network{NoMetadata: true, NoHead: true}, false},
}

// stageBench is one stage step of a fresh plan (new wheel cache) against ix.
type stageBench struct {
	ix    *pyindex.Index
	flat  bool
	venv  string
	env   []string
	r     runner.Runner
	ctx   context.Context
	total int64
}

func (sb *stageBench) engine(b *testing.B, cache string, events chan<- Event) (*engine, Step) {
	b.Helper()
	target := Target{Framework: "torch", FrameworkVersion: "2.6.0", Channel: "cu126", IndexURL: sb.ix.ChannelURL("cu126"),
		Packages: []matrix.Package{{Name: "torch", Version: "2.6.0", LocalLabel: "+cu126"}}}
	env := append(append([]string{}, sb.env...), "PIP_CACHE_DIR="+filepath.Join(cache, "pip-http")) // pip starts cold every time
	o := Options{Venv: pyenv.Venv{Root: sb.venv}, Target: target, CacheDir: cache, Environ: env, NoPipUpgrade: true}
	if sb.flat {
		o.FindLinks, o.Mirror = sb.ix.FlatURL("cu126"), sb.ix.ChannelURL("deps")
	}
	p, err := Prepare(sb.ctx, sb.r, o)
	if err != nil {
		b.Fatal(err)
	}
	s, _ := p.Step(StepStage)
	return &engine{plan: p, r: sb.r, events: events, py: p.venv.Python(), stepSkip: map[string]bool{}, pins: p.pins}, s
}

// BenchmarkStageDownload stages the family (one 300 MB wheel and 12 small ones) from each source
// shape of benchSources (index, flat, nometa), a loopback server that caps every connection at
// 20 MB/s (GPUWIZ_BENCH_MBPS) and waits 50 ms before every response:
//
//   - pip-download: the stage command (`pip download --index-url … -d CACHE torch==…`) alone;
//   - gpuwiz: the engine's stage step (the offline try, pip's resolve against the shim, the fetch);
//   - ratio: both in one iteration, alternating which goes first; reports gpuwiz-s, pip-s, ratio;
//   - resume: the stage cancelled at 60 % of the bytes, then run again; reports the bytes fetched
//     twice as a share of the family;
//   - corrupt: one flipped byte in the large wheel: the stage must fail naming it;
//   - install-ratio: the whole install into a new venv (gpuwiz's Prepare and Run) against a venv,
//     plain `pip install` from the same source and an import by hand, alternating.
//
// go test ./steps/install -run '^$' -bench StageDownload -benchtime 1x
func BenchmarkStageDownload(b *testing.B) {
	channels, total := benchFamily(b)
	for _, src := range benchSources {
		b.Run(src.name, func(b *testing.B) {
			n := src.net
			n.ConnBytesPerSec, n.Latency = benchRate(), 50*time.Millisecond
			ix := pyindex.ServeWith(b, channels, n)
			sb := &stageBench{ix: ix, flat: src.flat, venv: pyindex.NewVenv(b, "").Root, env: pyindex.PipEnv(b), r: runner.New(nil), ctx: context.Background(), total: total}
			stageDownload(b, sb, channels)
		})
	}
}

func stageDownload(b *testing.B, sb *stageBench, channels map[string][]string) {
	ix, total := sb.ix, sb.total
	pipDownload := func(b *testing.B) time.Duration {
		e, s := sb.engine(b, filepath.Join(b.TempDir(), "cache"), nil)
		start := time.Now()
		if res := sb.r.Run(sb.ctx, runner.Cmd{Argv: s.Argv, Env: e.plan.env}, nil); res.Err != nil {
			b.Fatalf("pip download: %v %v", res.Err, res.Tail)
		}
		return time.Since(start)
	}
	gpuwiz := func(b *testing.B) time.Duration {
		events := make(chan Event, 4096)
		var drained []Event
		done := make(chan struct{})
		go func() {
			defer close(done)
			for ev := range events {
				drained = append(drained, ev)
			}
		}()
		e, s := sb.engine(b, filepath.Join(b.TempDir(), "cache"), events)
		start := time.Now()
		if err := e.stage(sb.ctx, s); err != nil {
			b.Fatalf("stage: %v", err)
		}
		d := time.Since(start)
		close(events)
		<-done
		if e.out.BytesDownloaded != total || hasMessage(drained, StepStage, "downloading with pip") {
			b.Fatalf("the stage fetched %d bytes of %d (it fell back to pip?)", e.out.BytesDownloaded, total)
		}
		return d
	}
	b.Run("pip-download", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			pipDownload(b)
		}
		b.ReportMetric(float64(total)/(1<<20), "MiB")
	})
	b.Run("gpuwiz", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			gpuwiz(b)
		}
		b.ReportMetric(float64(total)/(1<<20), "MiB")
	})
	b.Run("ratio", func(b *testing.B) {
		var tg, tp time.Duration
		for i := 0; i < b.N; i++ {
			if i%2 == 0 {
				tg += gpuwiz(b)
				tp += pipDownload(b)
			} else {
				tp += pipDownload(b)
				tg += gpuwiz(b)
			}
		}
		b.ReportMetric(tg.Seconds()/float64(b.N), "gpuwiz-s")
		b.ReportMetric(tp.Seconds()/float64(b.N), "pip-s")
		b.ReportMetric(tg.Seconds()/tp.Seconds(), "ratio")
	})
	b.Run("resume", func(b *testing.B) {
		var twice, fetched2 int64
		for i := 0; i < b.N; i++ {
			cache := filepath.Join(b.TempDir(), "cache")
			served := ix.BytesServed()
			ctx, cancel := context.WithCancel(sb.ctx)
			events := make(chan Event, 4096)
			go func() {
				for ev := range events {
					if p := ev.Progress; p != nil && p.Total == total && p.Done >= total*6/10 {
						cancel()
					}
				}
			}()
			e, s := sb.engine(b, cache, events)
			err := e.stage(ctx, s)
			close(events)
			cancel()
			if !errors.Is(err, context.Canceled) {
				b.Fatalf("the interrupted stage: %v", err)
			}
			first := e.out.BytesDownloaded
			e, s = sb.engine(b, cache, nil)
			if err := e.stage(sb.ctx, s); err != nil {
				b.Fatalf("the second stage: %v", err)
			}
			if first+e.out.BytesDownloaded < total || first < total/2 {
				b.Fatalf("first run %d, second %d, of %d", first, e.out.BytesDownloaded, total)
			}
			fetched2 += e.out.BytesDownloaded
			twice += ix.BytesServed() - served - total
		}
		b.ReportMetric(100*float64(twice)/float64(total)/float64(b.N), "%-fetched-twice")
		b.ReportMetric(100*float64(fetched2)/float64(total)/float64(b.N), "%-in-2nd-run")
	})
	b.Run("corrupt", func(b *testing.B) {
		name := filepath.Base(channels["cu126"][len(channels["cu126"])-1])
		ix.Corrupt(name)
		defer ix.Repair(name)
		for i := 0; i < b.N; i++ {
			e, s := sb.engine(b, filepath.Join(b.TempDir(), "cache"), nil)
			err := e.stage(sb.ctx, s)
			// With the page's sha256: a mismatch; without (flat): a member whose CRC-32 is wrong.
			if err == nil || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), "sha256") && !strings.Contains(err.Error(), "CRC-32") {
				b.Fatalf("a corrupt %s: %v", name, err)
			}
			if fileExists(filepath.Join(e.plan.StageDir, name)) || fileExists(filepath.Join(e.plan.StageDir, name+".part")) {
				b.Fatalf("the corrupt wheel stayed in the cache")
			}
		}
	})
	b.Run("install-ratio", func(b *testing.B) {
		var tg, tp time.Duration
		for i := 0; i < b.N; i++ {
			runs := []func(){
				func() { tg += sb.wholeInstall(b) },
				func() { tp += sb.byHand(b) },
			}
			if i%2 == 1 {
				runs[0], runs[1] = runs[1], runs[0]
			}
			for _, run := range runs {
				run()
			}
		}
		b.ReportMetric(tg.Seconds()/float64(b.N), "gpuwiz-s")
		b.ReportMetric(tp.Seconds()/float64(b.N), "by-hand-s")
		b.ReportMetric(tg.Seconds()/tp.Seconds(), "ratio")
	})
}

// wholeInstall is `gpuwiz install` into a new venv with an empty wheel cache: plan, venv, stage,
// install, verify, lock files.
func (sb *stageBench) wholeInstall(b *testing.B) time.Duration {
	target := Target{Framework: "torch", FrameworkVersion: "2.6.0", Channel: "cu126", IndexURL: sb.ix.ChannelURL("cu126"),
		Packages: []matrix.Package{{Name: "torch", Version: "2.6.0", LocalLabel: "+cu126"}}}
	dir := b.TempDir()
	env := append(append([]string{}, sb.env...), "PIP_CACHE_DIR="+filepath.Join(dir, "pip-http"))
	o := Options{Venv: pyenv.Venv{Root: filepath.Join(dir, "venv")}, Python: pyindex.Python(b), Target: target, CacheDir: filepath.Join(dir, "cache"),
		Environ: env, NoPipUpgrade: true, VerifyMatrixN: 8}
	if sb.flat {
		o.FindLinks, o.Mirror = sb.ix.FlatURL("cu126"), sb.ix.ChannelURL("deps")
	}
	start := time.Now()
	p, err := Prepare(sb.ctx, sb.r, o)
	if err != nil {
		b.Fatal(err)
	}
	if out := Run(sb.ctx, sb.r, p, nil); !out.OK() {
		b.Fatalf("%+v", out)
	}
	return time.Since(start)
}

// byHand is what a user types: a venv, plain pip install from the same source, an import.
func (sb *stageBench) byHand(b *testing.B) time.Duration {
	dir := b.TempDir()
	env := append(append([]string{}, sb.env...), "PIP_CACHE_DIR="+filepath.Join(dir, "pip-http"))
	venv := filepath.Join(dir, "venv")
	py := filepath.Join(venv, "bin", "python")
	from := []string{"--index-url", sb.ix.ChannelURL("cu126")}
	if sb.flat {
		from = []string{"--find-links", sb.ix.FlatURL("cu126"), "--index-url", sb.ix.ChannelURL("deps")}
	}
	start := time.Now()
	for _, argv := range [][]string{
		{pyindex.Python(b), "-m", "venv", venv},
		append(append([]string{py, "-m", "pip", "install", "--no-input", "--disable-pip-version-check"}, from...), "torch==2.6.0+cu126"),
		{py, "-c", "import torch"},
	} {
		if res := sb.r.Run(sb.ctx, runner.Cmd{Argv: argv, Env: env}, nil); res.Err != nil {
			b.Fatalf("%v: %v", argv, res.Tail)
		}
	}
	return time.Since(start)
}
