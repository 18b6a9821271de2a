package wheelinst

import (
	"context"
	"fmt"
	"gpuwiz/steps/envroot"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// benchFamily is a torch-like family: one big platlib wheel of many modules and a few large shared
// objects, and two small ones. GPUWIZ_BENCH_MB sets the big wheel's size (default 200);
// GPUWIZ_BENCH_BIG_WHEELS adds more wheels of that size made of shared objects only, as the nvidia-*
// wheels beside torch are (default 0).
func benchFamily(b testing.TB, dir string) []string {
	mb := 200
	if v, err := strconv.Atoi(os.Getenv("GPUWIZ_BENCH_MB")); err == nil && v > 0 {
		mb = v
	}
	t := b
	rng := rand.NewChaCha8([32]byte{1})
	var big []member
	for i := 0; i < 3000; i++ {
		big = append(big, member{name: fmt.Sprintf("bigfw/pkg%d/mod%d.py", i%60, i), body: fmt.Sprintf("X = %d\n", i) + string(make([]byte, 2000))})
	}
	for i := 0; i < 8; i++ {
		blob := make([]byte, mb<<20/8)
		rng.Read(blob)
		big = append(big, member{name: fmt.Sprintf("bigfw/lib/libbig%d.so", i), body: string(blob), mode: 0o755})
	}
	big = append(big, member{name: "bigfw-1.0.dist-info/entry_points.txt", body: "[console_scripts]\nbigrun = bigfw:main\n"})
	paths := []string{buildWheel(t, dir, "bigfw", "1.0", "py3-none-any", false, big)}
	paths = append(paths, buildWheel(t, dir, "smalla", "1.0", "py3-none-any", true, []member{{name: "smalla/__init__.py", body: "A = 1\n"}}))
	paths = append(paths, buildWheel(t, dir, "smallb", "1.0", "py3-none-any", true, []member{{name: "smallb/__init__.py", body: "B = 1\n"}}))
	n, _ := strconv.Atoi(os.Getenv("GPUWIZ_BENCH_BIG_WHEELS"))
	for w := 0; w < n; w++ {
		name := fmt.Sprintf("biglib%d", w)
		var libs []member
		for i := 0; i < 2; i++ { // one large library and a smaller one, as cuDNN's and cuBLAS's wheels
			blob := make([]byte, mb<<20*(2-i)/3)
			rng.Read(blob)
			libs = append(libs, member{name: fmt.Sprintf("%s/lib/lib%d.so", name, i), body: string(blob), mode: 0o755})
		}
		paths = append(paths, buildWheel(t, dir, name, "1.0", "py3-none-any", false, libs))
	}
	return paths
}

// BenchmarkInstallStep times the install step from staged wheels four ways, into a fresh venv
// each time (its creation is not timed): pip install --no-compile from the folder, gpuwiz's
// installer straight from the archives, gpuwiz's installer through an empty cache of unpacked wheels
// (the engine's first install), and from that cache warm (hard links).
//
//	GPUWIZ_BENCH_MB=500 go test ./steps/wheelinst -run '^$' -bench InstallStep -benchtime 3x
func BenchmarkInstallStep(b *testing.B) {
	base, wheels, paths, ws := staged(b, benchFamily)
	venv := filepath.Join(base, "venv")
	fresh := func(b *testing.B) string {
		b.StopTimer()
		os.RemoveAll(venv)
		if out, err := exec.Command("python3", "-m", "venv", venv).CombinedOutput(); err != nil {
			b.Skipf("venv: %v %s", err, out)
		}
		b.StartTimer()
		return filepath.Join(venv, "bin", "python")
	}
	ctx := context.Background()
	b.Run("pip", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			py := fresh(b)
			args := []string{"-m", "pip", "install", "-q", "--disable-pip-version-check", "--no-compile", "--no-index", "--find-links", wheels}
			for _, p := range paths {
				args = append(args, strings.SplitN(filepath.Base(p), "-", 2)[0])
			}
			out, err := exec.Command(py, args...).CombinedOutput()
			if err != nil {
				b.Fatalf("%v %s", err, out)
			}
		}
	})
	b.Run("gpuwiz", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			py := fresh(b)
			s, err := SchemeOf(ctx, CommandPython(py))
			if err == nil {
				_, err = Install(ctx, CommandPython(py), s, ws, Options{})
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	})
	// The engine's first install: unpack into an empty cache of unpacked wheels, then link.
	b.Run("gpuwiz-cold-cache", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			py := fresh(b)
			b.StopTimer()
			cold := filepath.Join(base, fmt.Sprintf("cold%d", i))
			b.StartTimer()
			s, err := SchemeOf(ctx, CommandPython(py))
			if err == nil {
				_, err = Install(ctx, CommandPython(py), s, ws, Options{Cache: cold})
			}
			if err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			os.RemoveAll(cold)
			b.StartTimer()
		}
	})
	cache := filepath.Join(base, "unpacked")
	b.Run("gpuwiz-warm-cache", func(b *testing.B) {
		py := fresh(b)
		s, _ := SchemeOf(ctx, CommandPython(py))
		if _, err := Install(ctx, CommandPython(py), s, ws, Options{Cache: cache}); err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			py := fresh(b)
			s, err := SchemeOf(ctx, CommandPython(py))
			if err == nil {
				_, err = Install(ctx, CommandPython(py), s, ws, Options{Cache: cache})
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	})
	// As the engine installs: the venv's Python was started while the wheels staged (not timed
	// here), it answered the scheme and holds pip's launcher maker; the step is Install alone.
	b.Run("gpuwiz-warm-running-python", func(b *testing.B) {
		var open time.Duration // the archives' reading, of the whole: a part the other figures hide
		for i := 0; i < b.N; i++ {
			py := fresh(b)
			b.StopTimer()
			h, err := StartHelper(ctx, py, nil)
			if err != nil {
				b.Fatal(err)
			}
			time.Sleep(300 * time.Millisecond) // the download it overlaps: pip's maker is imported meanwhile
			b.StartTimer()
			res, err := Install(ctx, CommandPython(py), h.Scheme(), ws, Options{Cache: cache, Launchers: h.Launchers})
			b.StopTimer()
			h.Close()
			if err != nil {
				b.Fatal(err)
			}
			open += res.Phases.Open
			b.StartTimer()
		}
		b.ReportMetric(float64(open.Microseconds())/1000/float64(b.N), "open-ms/op")
	})
}

// BenchmarkUninstall times removing the family from a venv two ways, the venv filled again before
// each (not timed): pip uninstall -y, and gpuwiz's Uninstall from each dist's RECORD.
//
//	GPUWIZ_BENCH_MB=100 go test ./steps/wheelinst -run '^$' -bench Uninstall -benchtime 3x
func BenchmarkUninstall(b *testing.B) {
	base, _, paths, ws := staged(b, benchFamily)
	var names []string
	for _, p := range paths {
		names = append(names, strings.SplitN(filepath.Base(p), "-", 2)[0])
	}
	venv := filepath.Join(base, "venv")
	if out, err := exec.Command("python3", "-m", "venv", venv).CombinedOutput(); err != nil {
		b.Skipf("venv: %v %s", err, out)
	}
	py := filepath.Join(venv, "bin", "python")
	ctx := context.Background()
	s, err := SchemeOf(ctx, CommandPython(py))
	if err != nil {
		b.Fatal(err)
	}
	cache := filepath.Join(base, "unpacked")
	fill := func(b *testing.B) {
		b.StopTimer()
		if _, err := Install(ctx, CommandPython(py), s, ws, Options{Cache: cache}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.Run("pip", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			fill(b)
			if out, err := exec.Command(py, append([]string{"-m", "pip", "uninstall", "-y", "-q", "--disable-pip-version-check"}, names...)...).CombinedOutput(); err != nil {
				b.Fatalf("%v %s", err, out)
			}
		}
	})
	b.Run("gpuwiz", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			fill(b)
			for _, dir := range Installed(s.Platlib) {
				if strings.Contains(dir, "big") || strings.Contains(dir, "small") {
					if _, _, err := Uninstall(dir, envroot.New(filepath.Dir(dir))); err != nil {
						b.Fatal(err)
					}
				}
			}
		}
	})
}
