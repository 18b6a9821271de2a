package doctor

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpuwiz/steps/envroot"
)

// BenchmarkFindMissingFiles: the files-missing check over a site-packages the size of torch 2.11's
// cu130 family (about 17,000 files listed in the RECORDs of torch and 14 CUDA library dists), on this
// machine's disk, nothing missing (every doctor run pays this).
func BenchmarkFindMissingFiles(b *testing.B) {
	sp := b.TempDir()
	var dists []Dist
	write := func(dist, version string, n int) {
		info := strings.ReplaceAll(dist, "-", "_") + "-" + version + ".dist-info"
		var rec strings.Builder
		for i := 0; i < n; i++ {
			rel := fmt.Sprintf("%s/pkg%d/mod%d.py", strings.ReplaceAll(dist, "-", "_"), i/100, i)
			p := filepath.Join(sp, filepath.FromSlash(rel))
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, nil, 0o644)
			rec.WriteString(rel + ",sha256=x,0\n")
		}
		os.MkdirAll(filepath.Join(sp, info), 0o755)
		os.WriteFile(filepath.Join(sp, info, "RECORD"), []byte(rec.String()), 0o644)
		dists = append(dists, Dist{Name: dist, Version: version})
	}
	write("torch", "2.11.0", 15000)
	for i := 0; i < 14; i++ {
		write(fmt.Sprintf("nvidia-lib%d", i), "13.0.0", 140)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if got, _ := findMissingFiles(OSFS{}, "linux", sp, dists, envroot.New(sp)); len(got) != 0 {
			b.Fatalf("missing: %+v", got)
		}
	}
}
