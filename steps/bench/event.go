// Package bench runs the embedded GPU benchmark script of a framework with a venv's Python and reads
// its JSON-lines protocol into typed events and a summary with a verdict in words.
package bench

import (
	"bytes"
	"encoding/json"
)

// Event is one line of the benchmark's output: one of the types below (isEvent marks them).
type Event interface{ isEvent() }

// Hello is the script's first line: the interpreter runs; the framework import comes next.
type Hello struct {
	PID       int    `json:"pid"`
	Python    string `json:"python"`
	Framework string `json:"framework"`
}

// Device describes the GPU and framework build the benchmark runs on.
type Device struct {
	Framework   string   `json:"framework"`
	Version     string   `json:"version"`
	CUDA        string   `json:"cuda"`
	Index       int      `json:"index"`
	Name        string   `json:"name"`
	UUID        string   `json:"uuid,omitempty"`       // NVML form "GPU-…", so the sampler's card can be matched
	PCIBusID    string   `json:"pci_bus_id,omitempty"` // "00000000:19:00.0"
	Capability  string   `json:"capability"`
	TotalMiB    uint64   `json:"total_mib"`
	FreeMiB     uint64   `json:"free_mib"`
	FreeGuess   bool     `json:"free_estimated,omitempty"` // FreeMiB is a plan (Paddle 2.x: 90% of the card), not cudaMemGetInfo's
	TF32        bool     `json:"tf32"`
	ArchList    []string `json:"arch_list,omitempty"`
	PID         int      `json:"pid"`
	DeviceCount int      `json:"device_count"`
}

// Plan says how many steps the run will take, for a progress bar.
type Plan struct {
	Steps int `json:"steps"`
}

// Finished is Run's last event (not a protocol line): the summary with the process's fate folded in.
type Finished struct {
	Summary Summary `json:"summary"`
}

// Step announces the measurement that starts now ("matmul cuda bf16 8192").
type Step struct {
	Name string `json:"name"`
}

// Result is one measurement: a matmul (TFLOPS) or a device-to-device copy (GBps, read plus write).
type Result struct {
	Op     string  `json:"op"`     // "matmul", "copy"
	Device string  `json:"device"` // "cpu", "cuda"
	DType  string  `json:"dtype"`  // "fp32", "fp16", "bf16"
	N      int     `json:"n,omitempty"`
	Bytes  int64   `json:"bytes,omitempty"`
	MS     float64 `json:"ms"`
	TFLOPS float64 `json:"tflops,omitempty"`
	GBps   float64 `json:"gbps,omitempty"`
	TF32   bool    `json:"tf32"`
}

// Check compares a GPU matmul with a float64 CPU reference on fresh random inputs.
type Check struct {
	DType     string  `json:"dtype"`
	N         int     `json:"n"`
	RelErr    float64 `json:"rel_err"`
	Threshold float64 `json:"threshold"`
	OK        bool    `json:"ok"`
}

// OOM says a size did not fit and the script retries at RetryN (0: gave up).
type OOM struct {
	Op      string `json:"op"`
	DType   string `json:"dtype"`
	N       int    `json:"n"`
	RetryN  int    `json:"retry_n"`
	Message string `json:"message,omitempty"`
}

// Skip says a size was left out before trying, because free memory could not hold it.
type Skip struct {
	Op     string `json:"op"`
	DType  string `json:"dtype"`
	N      int    `json:"n"`
	Reason string `json:"reason"`
}

// Failure is the script's "error" line; Kind is one of the Kind constants.
type Failure struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	// Facts of a no-device or no-cuda-build failure, for a sentence in the user's language: the
	// framework (torch, paddle), the build and CUDA_VISIBLE_DEVICES as the script saw it (nil: not
	// set; Python's None never reaches a screen).
	Framework        string  `json:"framework,omitempty"`
	FrameworkVersion string  `json:"framework_version,omitempty"`
	CUDA             string  `json:"cuda,omitempty"`
	Visible          *string `json:"visible,omitempty"`
}

// Done is the script's last line.
type Done struct {
	OK bool `json:"ok"`
}

// Log is a line that is not part of the protocol (a framework's warning, a traceback).
type Log struct {
	Line string `json:"line"`
}

// Failure kinds: the script's, plus those gpuwiz itself detects around it.
const (
	KindNoCUDABuild = "no-cuda-build"
	KindNoDevice    = "no-device"
	KindArchMissing = "arch-missing"
	KindOOM         = "oom"
	KindImport      = "import"
	KindRuntime     = "runtime"
	KindCrash       = "crash"     // the process ended without "done"
	KindTimeout     = "timeout"   // the script stopped answering
	KindNoPython    = "no-python" // the interpreter did not start
	KindWrongAnswer = "wrong-answer"
)

func (Hello) isEvent()    {}
func (Device) isEvent()   {}
func (Step) isEvent()     {}
func (Plan) isEvent()     {}
func (Finished) isEvent() {}
func (Result) isEvent()   {}
func (Check) isEvent()    {}
func (OOM) isEvent()      {}
func (Skip) isEvent()     {}
func (Failure) isEvent()  {}
func (Done) isEvent()     {}
func (Log) isEvent()      {}

// parsers read each protocol object by its "type".
var parsers = map[string]func([]byte) (Event, error){
	"hello": parseAs[Hello], "device": parseAs[Device], "plan": parseAs[Plan], "step": parseAs[Step],
	"result": parseAs[Result], "check": parseAs[Check], "oom": parseAs[OOM], "skip": parseAs[Skip],
	"error": parseAs[Failure], "done": parseAs[Done],
}

func parseAs[T Event](b []byte) (Event, error) {
	var v T
	err := json.Unmarshal(b, &v)
	return v, err
}

// ParseLine turns one output line into an event; anything that is not a known protocol object is a Log.
func ParseLine(line []byte) Event {
	trimmed := bytes.TrimSpace(line)
	logLine := Log{Line: string(bytes.TrimRight(line, "\r\n"))}
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return logLine
	}
	var head struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(trimmed, &head) != nil {
		return logLine
	}
	parse, ok := parsers[head.Type]
	if !ok {
		return logLine
	}
	e, err := parse(trimmed)
	if err != nil {
		return logLine
	}
	return e
}
