package bench

import (
	"fmt"
	"strings"
	"testing"
)

// The stub paddle's machine (testdata/bench/stub/paddle): its throughputs and memory.
const (
	paddleStubTotal = 150754820096 // bytes, the H200's total_memory
	paddleStubFree  = 147000000000 // bytes, what paddle.cuda.mem_get_info says is free
)

var paddleStubTFLOPS = map[string]float64{"fp32": 380, "fp16": 700, "bf16": 690} // fp32 on TF32, Paddle's default

// checkPaddleStubRun checks a finished run against the stub's H200: the event order, the TFLOPS and
// GB/s its clock implies, the sizes for quick, the checks and the verdict.
func checkPaddleStubRun(t *testing.T, s Summary, events []Event, quick bool) {
	t.Helper()
	if !s.OK || s.Failure != nil {
		t.Fatalf("verdict=%q failure=%+v log=%q", s.Verdict, s.Failure, s.Log)
	}
	var order []string
	for _, e := range events {
		if TypeOf(e) != "log" {
			order = append(order, TypeOf(e))
		}
	}
	got := strings.Join(order, " ")
	steps := strings.Repeat("step result ", 1+3*3) + "step result " + strings.Repeat("step check ", 3)
	if quick {
		steps = strings.Repeat("step result ", 1+3*2) + "step result " + strings.Repeat("step check ", 3)
	}
	if want := "hello device plan " + steps + "done finished"; got != want {
		t.Fatalf("event order\n got %s\nwant %s", got, want)
	}
	planned := 11
	if !quick {
		planned = 14
	}
	if f := events[len(events)-1].(Finished); !f.Summary.OK || f.Summary.PlannedSteps != planned || f.Summary.Steps != planned {
		t.Fatalf("finished %+v", f.Summary)
	}
	// The stub's clock is exact to a µs per launch: the script's host-timing arithmetic must give its rates back.
	for dt, want := range paddleStubTFLOPS {
		if got := s.TFLOPS[dt]; got < want*0.999 || got > want*1.001 {
			t.Errorf("TFLOPS[%s] = %v, want %v", dt, got, want)
		}
	}
	if s.CopyGBps < 3996 || s.CopyGBps > 4001 {
		t.Errorf("copy = %v GB/s, want 4000", s.CopyGBps)
	}
	if s.SpeedupFP32 < 379 || s.SpeedupFP32 > 381 { // 380 TFLOPS over the stub CPU's 1
		t.Errorf("speedup = %v", s.SpeedupFP32)
	}
	sizes := map[int]bool{}
	for _, r := range s.Results {
		if r.Device == "cuda" && r.Op == "matmul" {
			sizes[r.N] = true
			if r.TF32 != (r.DType == "fp32") {
				t.Errorf("result %+v: tf32 should be on for fp32 only", r)
			}
		}
	}
	if !sizes[4096] || !sizes[8192] || sizes[2048] != !quick {
		t.Errorf("sizes = %v (quick %v)", sizes, quick)
	}
	thresholds := map[string]float64{"fp32": 1e-2, "fp16": 1e-2, "bf16": 3e-2} // fp32 is loosened for TF32
	if len(s.Checks) != 3 {
		t.Fatalf("checks = %+v", s.Checks)
	}
	for _, c := range s.Checks {
		if !c.OK || c.N != 512 || c.Threshold != thresholds[c.DType] || c.RelErr <= 0 || c.RelErr >= c.Threshold {
			t.Errorf("check %+v", c)
		}
	}
	want := fmt.Sprintf("the GPU is doing the work: fp32 matmul 380× faster than the CPU, fp32 %.1f TFLOPS, fp16 %.1f TFLOPS, bf16 %.1f TFLOPS",
		s.TFLOPS["fp32"], s.TFLOPS["fp16"], s.TFLOPS["bf16"])
	if s.Verdict != want {
		t.Errorf("verdict\n got %q\nwant %q", s.Verdict, want)
	}
	d := s.Device
	if d == nil || d.Framework != "paddle" || d.Name != "NVIDIA H200" || d.Capability != "9.0" || !d.TF32 ||
		d.TotalMiB != paddleStubTotal>>20 || d.DeviceCount != 1 || d.PID == 0 || d.PID != s.PID {
		t.Errorf("device %+v", d)
	}
}

// Paddle 3.x on an H200: free memory comes from paddle.cuda.mem_get_info.
func TestRunPaddleStubH200Quick(t *testing.T) {
	s, events, err := runStubOf(t, "paddle", "h200", Options{Quick: true})
	if err != nil {
		t.Fatal(err)
	}
	checkPaddleStubRun(t, s, events, true)
	if d := s.Device; d.Version != "3.2.0" || d.CUDA != "12.6" || d.FreeMiB != paddleStubFree>>20 || d.FreeGuess {
		t.Errorf("device %+v: want paddle 3.2.0, CUDA 12.6 and mem_get_info's free memory", d)
	}
}

// The full run adds the 2048 size and takes the cpu matmul at 2048.
func TestRunPaddleStubH200Full(t *testing.T) {
	s, events, err := runStubOf(t, "paddle", "h200", Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkPaddleStubRun(t, s, events, false)
	if s.Results[0].Device != "cpu" || s.Results[0].N != 2048 {
		t.Errorf("first result %+v", s.Results[0])
	}
}

// Paddle 2.6 has no paddle.cuda.mem_get_info: the script plans on 90% of the card and says so.
func TestRunPaddleStubWithoutMemGetInfo(t *testing.T) {
	s, events, err := runStubOf(t, "paddle", "paddle26", Options{Quick: true})
	if err != nil {
		t.Fatal(err)
	}
	checkPaddleStubRun(t, s, events, true)
	if d := s.Device; d.Version != "2.6.2" || d.FreeMiB != uint64(paddleStubTotal*9/10)>>20 || !d.FreeGuess {
		t.Errorf("device %+v: want paddle 2.6.2 planning on 90%% of the card, marked as a guess", d)
	}
}

func TestRunPaddleStubFailuresAreNamed(t *testing.T) {
	for mode, want := range map[string]struct{ kind, words string }{
		"cpu":      {KindNoCUDABuild, "paddle 3.2.0 is a CPU-only build"},
		"nodevice": {KindNoDevice, "sees no usable GPU"},
		// Paddle's message is blank lines, a C++ traceback and a summary: the verdict shows the summary line.
		"noarch": {KindArchMissing, "compute capability 9.0: ExternalError: CUDA error(209), no kernel image is available for execution on the device.; pick"},
	} {
		t.Run(mode, func(t *testing.T) {
			s, _, err := runStubOf(t, "paddle", mode, Options{Quick: true})
			if err != nil {
				t.Fatal(err)
			}
			if s.OK || s.Failure == nil || s.Failure.Kind != want.kind || !strings.Contains(s.Verdict, want.words) {
				t.Fatalf("failure = %+v, want kind %s and %q in the verdict %q", s.Failure, want.kind, want.words, s.Verdict)
			}
		})
	}
}

// Paddle's out-of-memory error is a MemoryError whose text starts with blank lines: the oom event must
// carry its summary line, not an empty first line.
func TestRunPaddleStubOOMShrinks(t *testing.T) {
	s, _, err := runStubOf(t, "paddle", "oom", Options{Quick: true})
	if err != nil || !s.OK || len(s.OOMs) != 3 || !strings.Contains(s.Verdict, "out of memory at 8192, shrunk to 4096") {
		t.Fatalf("err=%v ok=%v ooms=%+v verdict=%q", err, s.OK, s.OOMs, s.Verdict)
	}
	for _, o := range s.OOMs {
		if o.N != 8192 || o.RetryN != 4096 || !strings.HasPrefix(o.Message, "ResourceExhaustedError: Out of memory error on GPU 0. Cannot allocate") {
			t.Errorf("oom %+v", o)
		}
	}
	for _, r := range s.Results {
		if r.Device == "cuda" && r.Op == "matmul" && r.N != 4096 {
			t.Errorf("result %+v: every size should be 4096 after the retry", r)
		}
	}
}

func TestRunPaddleStubWrongAnswers(t *testing.T) {
	s, _, _ := runStubOf(t, "paddle", "wrong", Options{Quick: true})
	if s.OK || !strings.Contains(s.Verdict, "wrong answers from the GPU: fp16 relative error 0.5 over 0.01") {
		t.Fatalf("verdict = %q", s.Verdict)
	}
}
