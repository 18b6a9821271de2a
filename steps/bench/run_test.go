package bench

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gpuwiz/steps/runner"
)

// runStub runs the real embedded torch script with this machine's python3 against the stub torch
// in testdata/bench/stub, pretending to be the machine that mode names.
func runStub(t *testing.T, mode string, opts Options) (Summary, []Event, error) {
	t.Helper()
	return runStubOf(t, "torch", mode, opts)
}

// runStubOf is runStub for framework's script and stub (GPUWIZ_TORCH_STUB or GPUWIZ_PADDLE_STUB
// names the mode).
func runStubOf(t *testing.T, framework, mode string, opts Options) (Summary, []Event, error) {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 on this machine")
	}
	stub, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "bench", "stub"))
	t.Setenv("PYTHONPATH", stub)
	t.Setenv("PYTHONDONTWRITEBYTECODE", "1")
	t.Setenv("GPUWIZ_"+strings.ToUpper(framework)+"_STUB", mode)
	if opts.Timeout == 0 {
		opts.Timeout = time.Minute // a hang fails the test instead of stalling it
	}
	events := make(chan Event, 8)
	var got []Event
	collected := make(chan struct{})
	go func() {
		for e := range events {
			got = append(got, e)
		}
		close(collected)
	}()
	s, err := Run(context.Background(), runner.New(nil), python, framework, opts, events)
	<-collected // Run closed events
	return s, got, err
}

func TestRunStubH200Quick(t *testing.T) {
	s, events, err := runStub(t, "h200", Options{Quick: true})
	if err != nil || !s.OK {
		t.Fatalf("err=%v verdict=%q failure=%+v log=%q", err, s.Verdict, s.Failure, s.Log)
	}
	last := len(events) - 1
	if TypeOf(events[0]) != "hello" || TypeOf(events[1]) != "device" || TypeOf(events[2]) != "plan" || TypeOf(events[last-1]) != "done" {
		t.Fatalf("order: first %s, %s, %s; last %s", TypeOf(events[0]), TypeOf(events[1]), TypeOf(events[2]), TypeOf(events[last-1]))
	}
	if f, ok := events[last].(Finished); !ok || !f.Summary.OK || f.Summary.PlannedSteps != 11 || f.Summary.Steps != 11 {
		t.Fatalf("last event %#v", events[last])
	}
	// The stub's clock runs at 51 fp32 TFLOPS: the script's timing arithmetic must give that back.
	for dt, want := range map[string]float64{"fp32": 51, "fp16": 700, "bf16": 690} {
		if got := s.TFLOPS[dt]; got < want*0.999 || got > want*1.001 {
			t.Errorf("TFLOPS[%s] = %v, want %v", dt, got, want)
		}
	}
	if s.CopyGBps < 3999 || s.CopyGBps > 4001 {
		t.Errorf("copy = %v", s.CopyGBps)
	}
	if len(s.Checks) != 3 || s.SpeedupFP32 <= 1 || s.PID == 0 || s.Device.UUID == "" {
		t.Errorf("checks=%d speedup=%v pid=%d device=%+v", len(s.Checks), s.SpeedupFP32, s.PID, s.Device)
	}
	sizes := map[int]bool{}
	for _, r := range s.Results {
		if r.Device == "cuda" && r.Op == "matmul" {
			sizes[r.N] = true
		}
	}
	if !sizes[4096] || !sizes[8192] || sizes[2048] {
		t.Errorf("quick sizes = %v", sizes)
	}
}

func TestRunStubFailuresAreNamed(t *testing.T) {
	for mode, kind := range map[string]string{
		"cpu":      KindNoCUDABuild,
		"nodevice": KindNoDevice,
		"noarch":   KindArchMissing,
		"crash":    KindCrash,
	} {
		t.Run(mode, func(t *testing.T) {
			s, _, err := runStub(t, mode, Options{Quick: true})
			if err != nil {
				t.Fatal(err)
			}
			if s.OK || s.Failure == nil || s.Failure.Kind != kind {
				t.Fatalf("failure = %+v, want kind %s (verdict %q)", s.Failure, kind, s.Verdict)
			}
		})
	}
}

func TestRunStubOOMShrinks(t *testing.T) {
	s, _, err := runStub(t, "oom", Options{Quick: true})
	if err != nil || !s.OK || len(s.OOMs) == 0 || !strings.Contains(s.Verdict, "shrunk to 4096") {
		t.Fatalf("err=%v ok=%v ooms=%v verdict=%q", err, s.OK, s.OOMs, s.Verdict)
	}
}

func TestRunStubWrongAnswers(t *testing.T) {
	s, _, _ := runStub(t, "wrong", Options{Quick: true})
	if s.OK || !strings.Contains(s.Verdict, "wrong answers from the GPU: fp16") {
		t.Fatalf("verdict = %q", s.Verdict)
	}
}

func TestRunHangIsKilled(t *testing.T) {
	s, _, err := runStub(t, "hang", Options{Quick: true, StallTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if s.Failure == nil || s.Failure.Kind != KindTimeout || !strings.Contains(s.Verdict, "matmul cuda fp32 4096") {
		t.Fatalf("failure = %+v", s.Failure)
	}
}

func TestRunWithoutTorch(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	t.Setenv("PYTHONPATH", "")
	s, err := Run(context.Background(), runner.New(nil), python, "torch", Options{Timeout: time.Minute}, nil)
	if err != nil || s.Failure == nil || s.Failure.Kind != KindImport || !strings.Contains(s.Verdict, "No module named 'torch'") {
		t.Fatalf("err=%v failure=%+v", err, s.Failure)
	}
	if s, _ = Run(context.Background(), runner.New(nil), python, "paddle", Options{Timeout: time.Minute}, nil); s.Failure == nil || s.Failure.Kind != KindImport {
		t.Fatalf("paddle: %+v", s.Failure)
	}
}

func TestRunMissingPython(t *testing.T) {
	s, err := Run(context.Background(), runner.New(nil), filepath.Join(t.TempDir(), "python"), "torch", Options{}, nil)
	if err != nil || s.Failure == nil || s.Failure.Kind != KindNoPython {
		t.Fatalf("err=%v failure=%+v", err, s.Failure)
	}
}

func TestRunUnknownFramework(t *testing.T) {
	_, err := Run(context.Background(), runner.New(nil), "python3", "jax", Options{}, nil)
	if !errors.Is(err, ErrUnknownFramework) {
		t.Fatal(err)
	}
}

// The child numbers cards as NVML does (PCI bus order) and sees all of them, so --gpu N is the
// card the sampler charts as N.
func TestChildEnvNumbersCardsAsNVML(t *testing.T) {
	env := childEnv([]string{"PATH=/usr/bin", "CUDA_VISIBLE_DEVICES=1", "cuda_device_order=FASTEST_FIRST", "HOME=/root"})
	got := strings.Join(env, "\n")
	for _, want := range []string{"PATH=/usr/bin", "HOME=/root", "CUDA_DEVICE_ORDER=PCI_BUS_ID", "PYTHONUNBUFFERED=1"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %s in\n%s", want, got)
		}
	}
	if strings.Contains(got, "CUDA_VISIBLE_DEVICES") || strings.Contains(got, "FASTEST_FIRST") {
		t.Errorf("the user's CUDA numbering reached the child:\n%s", got)
	}
}
