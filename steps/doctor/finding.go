// Package doctor finds what is wrong with a Python environment meant to run a GPU build of PyTorch
// or PaddlePaddle, in the setup guides' troubleshooting order, and plans the repair.
package doctor

import "sort"

// Severity says how much a finding matters: errors stop the GPU build from working, warnings
// threaten it later, info is context. Consequence names the same three in words of the build.
type Severity string

const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
	SeverityInfo    Severity = "info"
)

// Consequence is what a finding means for the build: it blocks it now, it threatens it later
// (the next pip install, a driver update), or it is context that changes nothing about it. Only
// the first two make a check fail and a run end non-zero; context is listed, never a ✗.
type Consequence string

const (
	ConsequenceBlocks    Consequence = "blocks"
	ConsequenceThreatens Consequence = "threatens"
	ConsequenceContext   Consequence = "context"
)

// Consequence of a finding of this severity.
func (s Severity) Consequence() Consequence {
	switch s {
	case SeverityError:
		return ConsequenceBlocks
	case SeverityWarning:
		return ConsequenceThreatens
	}
	return ConsequenceContext
}

func (s Severity) rank() int {
	switch s {
	case SeverityError:
		return 0
	case SeverityWarning:
		return 1
	}
	return 2
}

// Finding codes are stable: scripts and the TUI match on them.
const (
	CodeNoDriver               = "no-driver"
	CodeDriverTooOld           = "driver-too-old"
	CodeCPUBuild               = "cpu-build"
	CodePaddleMixed            = "paddle-mixed"
	CodeArchMissing            = "arch-missing"
	CodeChannelMismatch        = "channel-mismatch"
	CodePipExtraIndex          = "pip-extra-index"
	CodePipPythonMismatch      = "pip-python-mismatch"
	CodeStorePython            = "store-python"
	CodePythonUnsupported      = "python-unsupported"
	CodePython32Bit            = "python-32bit"
	CodeCUDADLLOnPath          = "cuda-dll-on-path"
	CodeVCRuntimeMissing       = "vc-runtime-missing"
	CodeVCRuntimeOld           = "vc-runtime-old"
	CodeLongPathsDisabled      = "long-paths-disabled"
	CodeNonASCIIPath           = "non-ascii-path"
	CodeLeftoverPartial        = "leftover-partial-uninstall"
	CodeGPUMemoryHeld          = "gpu-memory-held"
	CodeCUDAVisibleDevices     = "cuda-visible-devices"
	CodeTorchAndPaddleTogether = "torch-and-paddle-together"
	CodeCondaConflict          = "conda-conflict"
	CodeNotProtected           = "not-protected"
	CodeConstraintsStale       = "constraints-stale"
	CodeFilesMissing           = "files-missing"
	CodeRecordOutside          = "record-outside"
	CodeUVIgnoresProtection    = "uv-ignores-protection"
	// Beyond the fixed list: the framework's own check failed for a reason no other code explains,
	// no framework is installed at all, or the Python could not be inspected.
	CodeFrameworkCheckFailed = "framework-check-failed"
	CodeNoFramework          = "no-framework"
	CodePythonBroken         = "python-broken"
)

// Finding is one thing doctor saw, with the evidence and the fix in words.
type Finding struct {
	Code     string   `json:"code"`
	Severity Severity `json:"severity"`
	// Consequence is the severity's meaning for the build ("blocks", "threatens", "context").
	Consequence Consequence `json:"consequence"`
	Title       string      `json:"title"`
	Evidence    []string    `json:"evidence"`
	Fix         string      `json:"fix"`
}

// IsProblem is true for what blocks the build or threatens it; context does not change the
// exit code.
func (f Finding) IsProblem() bool {
	return f.Severity.Consequence() != ConsequenceContext
}

// sortFindings puts the most severe first and keeps the troubleshooting order within a severity.
// Each finding's Consequence is set from its severity here, the one place findings are ordered.
func sortFindings(fs []Finding) {
	for i := range fs {
		fs[i].Consequence = fs[i].Severity.Consequence()
	}
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].Severity.rank() < fs[j].Severity.rank() })
}
