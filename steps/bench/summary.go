package bench

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"gpuwiz/steps/i18n"
)

// Summary is what a benchmark run proved, with the verdict in words.
type Summary struct {
	Framework    string             `json:"framework"`
	Python       string             `json:"python,omitempty"`
	Device       *Device            `json:"device,omitempty"`
	Results      []Result           `json:"results"`
	Checks       []Check            `json:"checks"`
	OOMs         []OOM              `json:"ooms,omitempty"`
	Skips        []Skip             `json:"skips,omitempty"`
	Failure      *Failure           `json:"failure,omitempty"`
	SpeedupFP32  float64            `json:"speedup_fp32"` // best GPU fp32 TFLOPS over CPU fp32 TFLOPS
	TFLOPS       map[string]float64 `json:"tflops"`       // best GPU matmul TFLOPS per dtype
	CopyGBps     float64            `json:"copy_gbps"`    // device-to-device copy, read plus write
	Verdict      string             `json:"verdict"`      // in words: "the GPU is doing the work" (bench.verdict.ok), or why not
	OK           bool               `json:"ok"`
	PID          int                `json:"pid"`   // the benchmark's Python process
	Steps        int                `json:"steps"` // steps started
	PlannedSteps int                `json:"planned_steps"`
	LastStep     string             `json:"last_step,omitempty"`
	Log          []string           `json:"log,omitempty"` // the last lines outside the protocol
	ExitCode     int                `json:"exit_code"`
	Elapsed      time.Duration      `json:"elapsed_ns"`
}

const keptLogLines = 20

// Tally folds events into a Summary; the live screen and Run share it so both say the same thing.
type Tally struct {
	s    Summary
	done bool
}

// NewTally starts an empty summary for framework.
func NewTally(framework string) *Tally {
	return &Tally{s: Summary{Framework: framework, TFLOPS: map[string]float64{}, Results: []Result{}, Checks: []Check{}}}
}

// Add records one event.
func (t *Tally) Add(e Event) {
	s := &t.s
	switch v := e.(type) {
	case Hello:
		s.PID, s.Python = v.PID, v.Python
		if v.Framework != "" {
			s.Framework = v.Framework
		}
	case Device:
		d := v
		s.Device = &d
		if v.PID != 0 {
			s.PID = v.PID
		}
	case Plan:
		s.PlannedSteps = v.Steps
	case Step:
		s.Steps++
		s.LastStep = v.Name
	case Result:
		s.Results = append(s.Results, v)
		switch {
		case v.Op == "matmul" && v.Device == "cuda" && v.TFLOPS > s.TFLOPS[v.DType]:
			s.TFLOPS[v.DType] = v.TFLOPS
		case v.Op == "copy" && v.GBps > s.CopyGBps:
			s.CopyGBps = v.GBps
		}
	case Check:
		s.Checks = append(s.Checks, v)
	case OOM:
		s.OOMs = append(s.OOMs, v)
	case Skip:
		s.Skips = append(s.Skips, v)
	case Failure:
		if s.Failure == nil { // the first failure is the cause; later ones are consequences
			f := v
			s.Failure = &f
		}
	case Done:
		t.done = true
	case Log:
		if strings.TrimSpace(v.Line) == "" {
			return
		}
		s.Log = append(s.Log, v.Line)
		if len(s.Log) > keptLogLines {
			s.Log = s.Log[len(s.Log)-keptLogLines:]
		}
	}
}

// Done reports whether the script's last line arrived.
func (t *Tally) Done() bool { return t.done }

// Fail records a failure gpuwiz detected around the script (crash, timeout) unless the script named one.
func (t *Tally) Fail(kind, message string) {
	if t.s.Failure == nil {
		t.s.Failure = &Failure{Kind: kind, Message: message}
	}
}

// Summary computes the speedup and the verdict from what was recorded so far.
func (t *Tally) Summary() Summary {
	s := t.s
	s.TFLOPS = make(map[string]float64, len(t.s.TFLOPS))
	for k, v := range t.s.TFLOPS {
		s.TFLOPS[k] = v
	}
	var cpu float64
	for _, r := range s.Results {
		if r.Op == "matmul" && r.Device == "cpu" && r.DType == "fp32" && r.TFLOPS > cpu {
			cpu = r.TFLOPS
		}
	}
	if cpu > 0 && s.TFLOPS["fp32"] > 0 {
		s.SpeedupFP32 = s.TFLOPS["fp32"] / cpu
	}
	s.OK, s.Verdict = verdict(&s, t.done)
	return s
}

func verdict(s *Summary, done bool) (bool, string) {
	if f := s.Failure; f != nil {
		return false, failureWords(f)
	}
	var wrong []string
	for _, c := range s.Checks {
		if !c.OK {
			wrong = append(wrong, i18n.T("bench.check.wrong", i18n.D{"DType": c.DType, "Err": fmt.Sprintf("%.2g", c.RelErr), "Limit": fmt.Sprintf("%.2g", c.Threshold)}))
		}
	}
	if len(wrong) > 0 {
		return false, i18n.T("bench.verdict.wrong", i18n.D{"Checks": i18n.Join(wrong)})
	}
	if !done {
		return false, i18n.T("bench.verdict.unfinished")
	}
	if len(s.TFLOPS) == 0 {
		return false, i18n.T("bench.verdict.no_measurement")
	}
	var parts []string
	if s.SpeedupFP32 > 0 {
		parts = append(parts, i18n.T("bench.verdict.speedup", i18n.D{"Times": fmt.Sprintf("%.0f", s.SpeedupFP32)}))
	}
	for _, dt := range DTypes(s.TFLOPS) {
		parts = append(parts, fmt.Sprintf("%s %.1f TFLOPS", dt, s.TFLOPS[dt]))
	}
	if len(s.OOMs) > 0 {
		o := s.OOMs[0]
		parts = append(parts, i18n.T("bench.verdict.shrunk", i18n.D{"N": o.N, "RetryN": o.RetryN}))
	}
	if len(parts) == 0 {
		return true, i18n.T("bench.verdict.ok")
	}
	return true, i18n.T("bench.verdict.ok_details", i18n.D{"Details": i18n.Join(parts)})
}

// Words is the failure in the user's language, with what to do where gpuwiz knows: the verdict
// of a run that failed this way.
func (f Failure) Words() string { return failureWords(&f) }

// failureWords is the verdict of a failed run: what kind of failure, the script's own message
// (its words, from Python), and what to do where gpuwiz knows.
func failureWords(f *Failure) string {
	msg := f.Message
	switch f.Kind {
	case KindNoCUDABuild:
		if f.FrameworkVersion != "" {
			return i18n.T("bench.failure.no_cuda_build_version", i18n.D{"Framework": f.Framework, "Version": f.FrameworkVersion})
		}
		return i18n.T("bench.failure.no_cuda_build", i18n.D{"Message": msg})
	case KindNoDevice:
		switch {
		case f.CUDA == "": // an older script's message, or the GPU index out of range
			return i18n.T("bench.failure.no_device", i18n.D{"Message": msg})
		case f.Visible == nil:
			return i18n.T("bench.failure.no_device_unset", i18n.D{"Version": f.FrameworkVersion, "CUDA": f.CUDA})
		}
		return i18n.T("bench.failure.no_device_visible", i18n.D{"Version": f.FrameworkVersion, "CUDA": f.CUDA, "Visible": strconv.Quote(*f.Visible)})
	case KindArchMissing:
		return i18n.T("bench.failure.arch_missing", i18n.D{"Message": msg})
	case KindOOM:
		return i18n.T("bench.failure.oom", i18n.D{"Message": msg})
	case KindImport:
		return i18n.T("bench.failure.import", i18n.D{"Message": msg})
	case KindCrash:
		return i18n.T("bench.failure.crash", i18n.D{"Message": msg})
	case KindTimeout:
		return i18n.T("bench.failure.timeout", i18n.D{"Message": msg})
	case KindNoPython:
		return i18n.T("bench.failure.no_python", i18n.D{"Message": msg})
	default:
		return i18n.T("bench.failure.other", i18n.D{"Message": msg})
	}
}

// DTypes lists the dtypes of a TFLOPS map in a fixed order: fp32, fp16, bf16, then any others.
func DTypes(m map[string]float64) []string {
	rank := map[string]int{"fp32": 0, "fp16": 1, "bf16": 2}
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		ri, iok := rank[out[i]]
		rj, jok := rank[out[j]]
		if iok != jok {
			return iok
		}
		if ri != rj {
			return ri < rj
		}
		return out[i] < out[j]
	})
	return out
}
