package gpu

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recordedSMI answers nvidia-smi calls from testdata/nvidia-smi/<rig>-*.
func recordedSMI(t *testing.T, rig string, banner string) (commandRunner, *[]string) {
	t.Helper()
	var calls []string
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "nvidia-smi", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	return func(ctx context.Context, name string, args ...string) ([]byte, error) {
		calls = append(calls, strings.Join(args, " "))
		switch {
		case len(args) == 0:
			return read(banner), nil
		case strings.HasPrefix(args[0], "--query-compute-apps"):
			return read(rig + "-apps.csv"), nil
		case strings.HasPrefix(args[0], "--query-gpu=index,utilization"):
			return read(rig + "-sample.csv"), nil
		case rig == "old" && strings.Contains(args[0], "compute_cap"):
			return nil, errors.New("nvidia-smi: exit status 2: " + string(read("old-compute-cap-error.txt")))
		default:
			return read(rig + "-query.csv"), nil
		}
	}, &calls
}

func smiFor(run commandRunner) *smiProber {
	p := newSMIProber(run)
	p.path = "nvidia-smi"
	return p
}

func TestSMIH200(t *testing.T) {
	run, _ := recordedSMI(t, "h200", "h200-banner.txt")
	r, err := smiFor(run).Probe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	g := r.GPUs[0]
	if r.Backend != "nvidia-smi" || r.DriverVersion != "580.159.04" || r.CUDAMax != "13.0" || len(r.GPUs) != 1 {
		t.Fatalf("%+v", r)
	}
	if g.Name != "NVIDIA H200" || g.ComputeCapability != "9.0" || g.MemoryTotalMiB != 143771 || *g.PowerW != 76.45 || *g.SMClockMHz != 345 || g.PCIBusID != "00000000:18:00.0" {
		t.Fatalf("%+v", g)
	}
	if len(r.Warnings) != 0 || len(g.Processes) != 0 {
		t.Fatalf("warnings %q processes %+v", r.Warnings, g.Processes)
	}
}

func TestSMIMultiGPUWithNA(t *testing.T) {
	run, _ := recordedSMI(t, "multi-na", "banner-610.txt")
	r, err := smiFor(run).Probe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(r.GPUs) != 3 || r.CUDAMax != "13.3" {
		t.Fatalf("610 banner (CUDA UMD Version) or GPU count: %+v", r)
	}
	g0, g1, k80 := r.GPUs[0], r.GPUs[1], r.GPUs[2]
	if g1.PowerW != nil || k80.UtilizationPct != nil || k80.SMClockMHz != nil || *k80.TemperatureC != 33 {
		t.Fatalf("[N/A]/[Not Supported] must be nil: %+v %+v", g1, k80)
	}
	if len(g0.Processes) != 2 || g0.Processes[0].UsedMemoryMiB != nil || *g0.Processes[1].UsedMemoryMiB != 20050 || g0.Processes[0].Name != `C:\Users\张三\venv\Scripts\python.exe` {
		t.Fatalf("processes on GPU 0: %+v", g0.Processes)
	}
	if len(g1.Processes) != 0 {
		t.Fatalf("GPU 1 has no processes: %+v", g1.Processes)
	}
	w := strings.Join(r.Warnings, "\n")
	for _, want := range []string{"GPU 1: power draw not reported ([N/A])", "GPU 2: utilisation not reported ([Not Supported])", "Tesla K80, compute capability 3.7): no current PyTorch"} {
		if !strings.Contains(w, want) {
			t.Errorf("warnings lack %q:\n%s", want, w)
		}
	}
}

func TestSMIOldDriverWithoutComputeCap(t *testing.T) {
	run, calls := recordedSMI(t, "old", "old-banner.txt")
	p := smiFor(run)
	r, err := p.Probe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if r.GPUs[0].ComputeCapability != "" || r.CUDAMax != "11.4" || r.GPUs[0].Name != "GeForce GTX 1060 6GB" {
		t.Fatalf("%+v", r)
	}
	w := strings.Join(r.Warnings, "\n")
	if !strings.Contains(w, "cannot report compute capability") || !strings.Contains(w, "older than 525.60") {
		t.Fatalf("warnings: %s", w)
	}
	if !strings.Contains((*calls)[0], "compute_cap") || strings.Contains((*calls)[1], "compute_cap") {
		t.Fatalf("expected a retry without compute_cap: %q", *calls)
	}
	n := len(*calls)
	if _, err := p.Probe(context.Background()); err != nil || strings.Contains((*calls)[n], "compute_cap") {
		t.Fatalf("the second probe must remember the driver lacks compute_cap: %q", (*calls)[n:])
	}
}

func TestSMISample(t *testing.T) {
	run, calls := recordedSMI(t, "multi-na", "banner-610.txt")
	s, err := smiFor(run).Sample(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(s) != 2 || s[0].UtilizationPct != 97 || s[0].PowerW != 339.87 || s[1].PowerW != 0 || len(s[0].Processes) != 2 || len(s[1].Processes) != 0 {
		t.Fatalf("%+v", s)
	}
	if len(*calls) != 2 {
		t.Fatalf("a sample is two nvidia-smi calls, not a full probe: %q", *calls)
	}
}

func TestSMIHangingIsTimedOut(t *testing.T) {
	p := smiFor(func(ctx context.Context, name string, args ...string) ([]byte, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Probe(ctx); err == nil {
		t.Fatal("a hung nvidia-smi must give an error, not a report")
	}
}

func TestSMIGarbage(t *testing.T) {
	p := smiFor(func(ctx context.Context, name string, args ...string) ([]byte, error) {
		return []byte("0, only, three\n"), nil
	})
	if _, err := p.Probe(context.Background()); err == nil || !strings.Contains(err.Error(), "values for") {
		t.Fatalf("err = %v", err)
	}
}
