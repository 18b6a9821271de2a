package doctor

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"gpuwiz/steps/runner"
)

//go:embed fwprobe.py
var fwProbeScript string

// frameworkCheckTimeout bounds importing a framework: a broken CUDA install can hang in init.
const frameworkCheckTimeout = 120 * time.Second

// probeFramework imports the framework in a child Python and runs one small computation.
func probeFramework(ctx context.Context, r runner.Runner, python, framework string) (FrameworkCheck, error) {
	ctx, cancel := context.WithTimeout(ctx, frameworkCheckTimeout)
	defer cancel()
	out, res := capture(ctx, r, runner.Cmd{Name: "framework check", Argv: []string{python, "-c", fwProbeScript, framework}})
	fc := FrameworkCheck{Framework: framework}
	var doc struct {
		Imported         bool           `json:"imported"`
		Version          string         `json:"version"`
		CUDA             string         `json:"cuda"`
		CompiledWithCUDA *bool          `json:"compiled_with_cuda"`
		ArchList         []string       `json:"arch_list"`
		DeviceCount      *int           `json:"device_count"`
		Checks           []CheckOutcome `json:"checks"`
		ImportError      string         `json:"import_error"`
		Error            string         `json:"error"`
	}
	line := ""
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "{") {
			line = l
		}
	}
	if err := json.Unmarshal([]byte(line), &doc); err != nil {
		detail := strings.Join(res.Tail, "\n")
		if res.Err != nil {
			return fc, fmt.Errorf("the check process failed (%v): %s", res.Err, lastLines(detail, 4))
		}
		return fc, fmt.Errorf("the check printed no result: %s", lastLines(detail, 4))
	}
	fc.Imported, fc.Version, fc.CUDA, fc.CompiledWithCUDA = doc.Imported, doc.Version, doc.CUDA, doc.CompiledWithCUDA
	fc.ArchList, fc.DeviceCount, fc.Checks, fc.ImportError, fc.Error = doc.ArchList, doc.DeviceCount, doc.Checks, doc.ImportError, doc.Error
	return fc, nil
}
