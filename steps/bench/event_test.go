package bench

import (
	"bufio"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gpuwiz/steps/runner"
)

func replay(t *testing.T, name string) (*Tally, []Event) {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", "bench", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tally := NewTally("torch")
	var events []Event
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		e := ParseLine(sc.Bytes())
		events = append(events, e)
		tally.Add(e)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return tally, events
}

// typeNames name each event as the protocol does ("error" for a Failure); gpuwiz's own Finished is
// "finished" and a line outside the protocol "log".
var typeNames = map[reflect.Type]string{
	reflect.TypeFor[Hello](): "hello", reflect.TypeFor[Device](): "device", reflect.TypeFor[Step](): "step",
	reflect.TypeFor[Plan](): "plan", reflect.TypeFor[Finished](): "finished", reflect.TypeFor[Result](): "result",
	reflect.TypeFor[Check](): "check", reflect.TypeFor[OOM](): "oom", reflect.TypeFor[Skip](): "skip",
	reflect.TypeFor[Failure](): "error", reflect.TypeFor[Done](): "done", reflect.TypeFor[Log](): "log",
}

// TypeOf names an event as the protocol does ("result", "error", "log" for non-protocol lines).
func TypeOf(e Event) string { return typeNames[reflect.TypeOf(e)] }

func countTypes(events []Event) map[string]int {
	n := map[string]int{}
	for _, e := range events {
		n[TypeOf(e)]++
	}
	return n
}

func TestParseH200Recording(t *testing.T) {
	tally, events := replay(t, "h200_torch.jsonl")
	n := countTypes(events)
	if n["log"] != 2 || n["result"] != 11 || n["check"] != 3 || n["done"] != 1 {
		t.Fatalf("event counts = %v", n)
	}
	s := tally.Summary()
	if !s.OK || !strings.HasPrefix(s.Verdict, "the GPU is doing the work: ") {
		t.Fatalf("verdict = %v %q", s.OK, s.Verdict)
	}
	if s.Device == nil || s.Device.Name != "NVIDIA H200" || s.Device.Capability != "9.0" || s.Device.UUID != "GPU-3f1c9a2e-7b6d-4e2a-9c1f-0a5b8d7e6c4f" {
		t.Fatalf("device = %+v", s.Device)
	}
	if s.PID != 48213 {
		t.Errorf("pid = %d", s.PID)
	}
	want := map[string]float64{"fp32": 51.6, "fp16": 702.4, "bf16": 684.9}
	for dt, v := range want {
		if s.TFLOPS[dt] != v {
			t.Errorf("TFLOPS[%s] = %v, want the best size's %v", dt, s.TFLOPS[dt], v)
		}
	}
	if got := s.SpeedupFP32; got < 31.8 || got > 31.9 { // 51.6 / 1.62
		t.Errorf("speedup = %v", got)
	}
	if s.CopyGBps != 3987.2 {
		t.Errorf("copy = %v", s.CopyGBps)
	}
	if len(s.Log) != 2 || !strings.Contains(s.Log[0], "FutureWarning") {
		t.Errorf("log = %q", s.Log)
	}
	for _, want := range []string{"32× faster than the CPU", "bf16 684.9 TFLOPS"} {
		if !strings.Contains(s.Verdict, want) {
			t.Errorf("verdict %q lacks %q", s.Verdict, want)
		}
	}
}

func TestParseCPUOnlyTorch(t *testing.T) {
	tally, _ := replay(t, "cpu_torch.jsonl")
	s := tally.Summary()
	if s.OK || s.Failure == nil || s.Failure.Kind != KindNoCUDABuild {
		t.Fatalf("summary = %+v", s)
	}
	if !strings.HasPrefix(s.Verdict, "no CUDA build:") || !strings.Contains(s.Verdict, "2.11.0+cpu") {
		t.Errorf("verdict = %q", s.Verdict)
	}
}

func TestParseOOMRetry(t *testing.T) {
	tally, _ := replay(t, "oom_retry.jsonl")
	s := tally.Summary()
	if !s.OK {
		t.Fatalf("a run that shrank after out of memory still proves the GPU: %q", s.Verdict)
	}
	if len(s.OOMs) != 3 || s.OOMs[0].N != 8192 || s.OOMs[0].RetryN != 4096 {
		t.Fatalf("ooms = %+v", s.OOMs)
	}
	if !strings.Contains(s.Verdict, "out of memory at 8192, shrunk to 4096") {
		t.Errorf("verdict does not say it shrank: %q", s.Verdict)
	}
	for _, r := range s.Results {
		if r.Device == "cuda" && r.Op == "matmul" && r.N > 4096 {
			t.Errorf("result at %d after out of memory", r.N)
		}
	}
}

func TestParseGarbageLines(t *testing.T) {
	tally, events := replay(t, "garbage.jsonl")
	n := countTypes(events)
	// the C++ warning, the blank line, the unterminated object, the array, the typeless and unknown
	// objects, the result with a string size and the UserWarning are all logs, never protocol events
	if n["log"] != 8 || n["step"] != 1 || n["result"] != 2 || n["check"] != 1 || n["done"] != 1 {
		t.Fatalf("event counts = %v", n)
	}
	s := tally.Summary()
	if !s.OK || s.TFLOPS["fp32"] != 196.3 || s.CopyGBps != 3900 || !s.Device.TF32 || s.Device.Index != 1 {
		t.Fatalf("summary = %+v", s)
	}
	if s.SpeedupFP32 != 0 || strings.Contains(s.Verdict, "faster") {
		t.Errorf("no CPU result, so no speedup claimed: %v %q", s.SpeedupFP32, s.Verdict)
	}
	if l := events[len(events)-3].(Result); l.GBps != 3900 {
		t.Errorf("CRLF line not parsed: %+v", l)
	}
}

func TestParseCrashMidRun(t *testing.T) {
	tally, _ := replay(t, "crash_midrun.jsonl")
	if tally.Done() {
		t.Fatal("no done line in a crash")
	}
	s := tally.Summary()
	if s.OK || s.Verdict != "the benchmark has not finished" {
		t.Fatalf("before the exit is known: %v %q", s.OK, s.Verdict)
	}
	res := finishWith(tally, 139)
	if res.OK || res.Failure.Kind != KindCrash {
		t.Fatalf("after exit 139: %+v", res.Failure)
	}
	for _, want := range []string{"code 139", "during matmul cuda fp32 4096", "Segmentation fault"} {
		if !strings.Contains(res.Verdict, want) {
			t.Errorf("verdict %q lacks %q", res.Verdict, want)
		}
	}
}

func TestFailedCheckIsNotOK(t *testing.T) {
	tally := NewTally("torch")
	for _, l := range []string{
		`{"type":"result","op":"matmul","device":"cuda","dtype":"fp16","n":4096,"ms":0.2,"tflops":700}`,
		`{"type":"check","dtype":"fp16","n":512,"rel_err":0.5,"threshold":0.01,"ok":false}`,
		`{"type":"done","ok":true}`,
	} {
		tally.Add(ParseLine([]byte(l)))
	}
	s := tally.Summary()
	if s.OK || !strings.Contains(s.Verdict, "wrong answers") || !strings.Contains(s.Verdict, "fp16") {
		t.Fatalf("%v %q", s.OK, s.Verdict)
	}
}

func TestDTypesOrder(t *testing.T) {
	got := strings.Join(DTypes(map[string]float64{"bf16": 1, "int8": 1, "fp32": 1, "fp16": 1}), ",")
	if got != "fp32,fp16,bf16,int8" {
		t.Fatal(got)
	}
}

func finishWith(t *Tally, code int) Summary {
	return finish(t, runner.Result{ExitCode: code, Err: &runner.ExitCodeError{Name: "python3", Code: code}}, "", "python3")
}

// Every protocol type is read as the event of that type; an unknown type or a bad object is a log line.
func TestParseLineReadsEachTypeAsItself(t *testing.T) {
	for _, typ := range []string{"hello", "device", "plan", "step", "result", "check", "oom", "skip", "error", "done"} {
		if got := TypeOf(ParseLine([]byte(`{"type":"` + typ + `"}`))); got != typ {
			t.Errorf("%s read as %s", typ, got)
		}
	}
	for _, l := range []string{`{"type":"finished"}`, `{"type":"nope"}`, `{"type":"result","tflops":"x"}`, `{"type":`} {
		if got := TypeOf(ParseLine([]byte(l))); got != "log" {
			t.Errorf("%s read as %s, want a log line", l, got)
		}
	}
}
