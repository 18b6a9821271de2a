// Package verify runs an embedded script per framework in a venv's Python and turns what it
// prints into a checklist, each failure with its cause and fix.
package verify

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"strings"
	"time"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/runner"
)

var (
	//go:embed scripts/verify_common.py
	commonScript string // put before either framework's script
	//go:embed scripts/verify_torch.py
	torchScript string
	//go:embed scripts/verify_paddle.py
	paddleScript string
)

// Timeout bounds one verification: a broken CUDA install can hang in its init.
const Timeout = 3 * time.Minute

// DefaultMatrixN is the side of the checked matmul.
const DefaultMatrixN = 256

// Report is the verdict on an installed build.
type Report struct {
	OK               bool     `json:"ok"`
	Framework        string   `json:"framework"`
	Version          string   `json:"version,omitempty"`     // "2.6.0+cu126"
	LocalLabel       string   `json:"local_label,omitempty"` // "+cu126"
	CUDA             string   `json:"cuda,omitempty"`        // the build's CUDA: "12.6"
	CuDNN            string   `json:"cudnn,omitempty"`
	CompiledWithCUDA bool     `json:"compiled_with_cuda"`
	Devices          []Device `json:"devices"`
	ArchList         []string `json:"arch_list,omitempty"`
	Checks           []Check  `json:"checks"`
}

// Device is one GPU the framework sees.
type Device struct {
	Name       string `json:"name"`
	Capability string `json:"capability"` // "9.0"
}

// Check is one verification; a failed one carries its cause and fix.
type Check struct {
	ID       string `json:"id"`
	Title    string `json:"title"`
	OK       bool   `json:"ok"`
	Evidence string `json:"evidence,omitempty"`
	Cause    string `json:"cause,omitempty"`
	Fix      string `json:"fix,omitempty"`
}

// Failed lists the failed checks.
func (r Report) Failed() []Check {
	var out []Check
	for _, c := range r.Checks {
		if !c.OK {
			out = append(out, c)
		}
	}
	return out
}

// Options tune a run; zero values take the defaults.
type Options struct {
	Env     []string // child environment (nil: os.Environ())
	MatrixN int
	Timeout time.Duration
}

// Run verifies framework ("torch" or "paddle") in python; expectChannel ("cu126", "cpu", "" for
// any) must match the installed build. The error is for bad arguments only: a crash, a hang or a
// broken import is a failed check in the report.
func Run(ctx context.Context, r runner.Runner, python, framework, expectChannel string) (Report, error) {
	return RunWith(ctx, r, python, framework, expectChannel, Options{})
}

// RunWith is Run with options.
func RunWith(ctx context.Context, r runner.Runner, python, framework, expectChannel string, o Options) (Report, error) {
	var script string
	switch framework {
	case "torch":
		script = torchScript
	case "paddle":
		script = paddleScript
	default:
		return Report{}, errors.New(i18n.T("verify.bad_framework", i18n.D{"Framework": strconv.Quote(framework)}))
	}
	if o.MatrixN <= 0 {
		// GPUWIZ_VERIFY_MATRIX_N shrinks the matmul for stub frameworks (pure Python) in tests.
		o.MatrixN = DefaultMatrixN
		if n, err := strconv.Atoi(os.Getenv("GPUWIZ_VERIFY_MATRIX_N")); err == nil && n > 0 {
			o.MatrixN = n
		}
	}
	if o.Timeout <= 0 {
		o.Timeout = Timeout
	}
	cctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	var stdout bytes.Buffer
	res := r.Run(cctx, runner.Cmd{Name: i18n.T("verify.label", i18n.D{"Framework": framework}), Argv: []string{python, "-c", commonScript + script, strconv.Itoa(o.MatrixN)}, Env: o.Env, Stdout: &stdout}, nil)
	facts, ok := parseFacts(stdout.String())
	if !ok {
		rep := Report{Framework: framework, Devices: []Device{}}
		rep.Checks = []Check{scriptFailed(framework, res, errors.Is(cctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil, o.Timeout)}
		return rep, nil
	}
	rep := judge(facts, expectChannel)
	for i, c := range rep.Checks {
		if e, ok := ParseDLLError(c.Evidence); ok && !c.OK {
			if more := runtimeEvidence(e, python); more != "" {
				rep.Checks[i].Evidence += "\n" + more
			}
		}
	}
	return rep, nil
}

const marker = "GPUWIZ-VERIFY "

func parseFacts(stdout string) (facts, bool) {
	var f facts
	for _, line := range strings.Split(stdout, "\n") {
		line = strings.TrimRight(line, "\r")
		if rest, ok := strings.CutPrefix(line, marker); ok {
			if json.Unmarshal([]byte(rest), &f) == nil {
				return f, true
			}
		}
	}
	return f, false
}

func scriptFailed(framework string, res runner.Result, timedOut bool, limit time.Duration) Check {
	c := Check{ID: "script", Title: i18n.T("verify.check.script", i18n.D{"Framework": framework})}
	tail := strings.Join(res.Tail, "\n")
	switch {
	case timedOut:
		c.Evidence = i18n.T("verify.evidence.timeout", i18n.D{"Limit": limit, "Output": tail})
		c.Cause = i18n.T("verify.cause.hang", i18n.D{"Framework": framework})
		c.Fix = i18n.T("verify.fix.hang")
	default:
		c.Evidence = i18n.T("verify.evidence.ended", i18n.D{"Err": res.Err, "Code": res.ExitCode, "Output": tail})
		cause, fix, _ := importCause(tail)
		c.Cause, c.Fix = i18n.T("verify.cause.script_crashed", i18n.D{"Framework": framework, "Cause": cause}), fix
	}
	return c
}
