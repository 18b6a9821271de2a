package cli

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkDoctorFixAfterADeletedCUDALibrary times what a user waits for after a disk cleaner took a
// CUDA library: `doctor` (the diagnosis alone) and `doctor --fix --yes` (diagnosis, the reinstall
// from the wheel cache with no network, the check after), each op after deleting the library again.
// The stub torch's import sleeps GPUWIZ_BENCH_IMPORT_S seconds (default 1.5), standing for a real
// torch's import and CUDA start, so the figures show what runs beside that and what waits for it:
//
//	go test ./steps/cli -run '^$' -bench DoctorFix -benchtime 3x
//
// GPUWIZ_BENCH_CUBLAS_MB gives the CUDA library's wheel that many MiB (a real one is hundreds): the
// repair's stage step then shows what hashing the cached wheels costs.
func BenchmarkDoctorFixAfterADeletedCUDALibrary(b *testing.B) {
	importTime := 1500 * time.Millisecond
	if s, err := strconv.ParseFloat(os.Getenv("GPUWIZ_BENCH_IMPORT_S"), 64); err == nil {
		importTime = time.Duration(s * float64(time.Second))
	}
	g, ix := cudaRigImporting(b, importTime)
	lib := installCUDABuild(b, g, ix)
	b.Setenv("PATH", filepath.Join(g.venv, "bin")+string(os.PathListSeparator)+os.Getenv("PATH")) // the venv is active
	for _, c := range []struct {
		name string
		args []string
		want int
	}{
		{"doctor", []string{"doctor", "--venv", g.venv, "--json"}, 5},
		{"doctor-fix", []string{"doctor", "--venv", g.venv, "--fix", "--yes", "--json"}, 0},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				if err := os.Remove(lib); err != nil && !os.IsNotExist(err) {
					b.Fatal(err)
				}
				b.StartTimer()
				if out, stderr, code := g.cli(b, c.args...); code != c.want {
					b.Fatalf("%v: exit %d, want %d\n%s\n%s", c.args, code, c.want, out, stderr)
				}
			}
			if c.want == 0 {
				if _, err := os.Stat(lib); err != nil {
					b.Fatalf("the library was not put back: %v", err)
				}
				logStepTimes(b, g)
			}
		})
	}
}

var timing = regexp.MustCompile(`: [0-9]+\.[0-9]+ s$`)

// logStepTimes shows (with -v) where the newest doctor --fix's time went: its log's timing lines.
func logStepTimes(b *testing.B, g repairRig) {
	logs := g.fixLogs()
	if len(logs) == 0 {
		return
	}
	data, err := os.ReadFile(logs[len(logs)-1])
	if err != nil {
		return
	}
	var lines []string
	for sc := bufio.NewScanner(bytes.NewReader(data)); sc.Scan(); {
		if l := sc.Text(); strings.HasPrefix(l, "# ") && timing.MatchString(l) {
			lines = append(lines, l)
		}
	}
	b.Logf("the last doctor --fix:\n%s", strings.Join(lines, "\n"))
}
