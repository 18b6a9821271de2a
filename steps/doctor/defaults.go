package doctor

import (
	"context"
	"strings"

	"gpuwiz/steps/runner"
	"gpuwiz/steps/verify"
)

// verifyWithVerify is the framework's own check: the same script and judgement as gpuwiz verify
// (import, CUDA build, cuDNN, devices, arch list, run_check, a GPU matmul against the CPU), read
// into doctor's evidence. The channel is not passed on: doctor's lock and label checks judge it.
func verifyWithVerify(ctx context.Context, r runner.Runner, python, framework, _ string) (FrameworkCheck, error) {
	rep, err := verify.Run(ctx, r, python, framework, "")
	if err != nil {
		return FrameworkCheck{Framework: framework}, err
	}
	return frameworkCheckOf(rep), nil
}

// frameworkCheckOf reads verify's report as doctor's evidence: the import check becomes
// Imported/ImportError, a crashed or hung script becomes Error, the rest stay checks.
func frameworkCheckOf(rep verify.Report) FrameworkCheck {
	fc := FrameworkCheck{Framework: rep.Framework, Version: rep.Version, CUDA: rep.CUDA, ArchList: rep.ArchList}
	for _, c := range rep.Checks {
		switch c.ID {
		case "import":
			fc.Imported = c.OK || rep.Version != ""
			if !fc.Imported {
				fc.ImportError = c.Evidence
				continue
			}
			if c.OK {
				continue
			}
		case "script":
			fc.Error = strings.TrimSpace(c.Evidence + "\n" + c.Cause)
			continue
		}
		detail := c.Evidence
		if !c.OK && c.Cause != "" {
			detail = strings.TrimSpace(detail + " (" + c.Cause + ")")
		}
		fc.Checks = append(fc.Checks, CheckOutcome{Name: c.Title, OK: c.OK, Detail: detail})
	}
	if fc.Imported {
		compiled, n := rep.CompiledWithCUDA, len(rep.Devices)
		fc.CompiledWithCUDA, fc.DeviceCount = &compiled, &n
	}
	return fc
}
