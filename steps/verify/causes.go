package verify

import (
	"runtime"
	"strings"

	"gpuwiz/steps/i18n"
)

// importCause maps the text of a failed import or crash to its cause and fix; generic is true when
// nothing in the text was recognised.
func importCause(text string) (cause, fix string, generic bool) {
	low := strings.ToLower(text)
	has := func(subs ...string) bool {
		for _, s := range subs {
			if strings.Contains(low, strings.ToLower(s)) {
				return true
			}
		}
		return false
	}
	if e, ok := ParseDLLError(text); ok {
		cause, fix = DLLCause(e)
		return cause, fix, false
	}
	switch {
	case has("cudnn64_8.dll", "zlibwapi.dll", "cudnn64_9.dll"):
		return i18n.T("verify.cause.dll_mismatch"), i18n.T("verify.fix.dll_mismatch"), false
	case has("omp: error #15", "libiomp5md.dll", "winerror 127"): //i18n:raw matched against the framework's error text
		return i18n.T("verify.cause.second_runtime"), i18n.T("verify.fix.second_runtime"), false
	case has("shm.dll"):
		return i18n.T("verify.cause.store_python"), i18n.T("verify.fix.store_python"), false
	case has("winerror 126", "fbgemm.dll", "c10.dll", "dll load failed"): //i18n:raw matched against the framework's error text
		return i18n.T("verify.cause.vc_runtime"), i18n.T("verify.fix.vc_runtime"), false
	case has("driver on your system is too old", "driver version is insufficient", "cuda driver version is insufficient"): //i18n:raw matched against CUDA's error text
		return i18n.T("verify.cause.old_driver"), i18n.T("verify.fix.old_driver"), false
	case has("is incomplete, without __init__.py"): //i18n:raw matched against the check script's own error text
		return i18n.T("verify.cause.incomplete"), i18n.T("verify.fix.incomplete"), false
	case has("no module named 'torch'", "no module named 'paddle'", "no module named torch", "no module named paddle"): //i18n:raw matched against Python's error text
		return i18n.T("verify.cause.not_installed"), "gpuwiz install --venv VENV", false //i18n:raw a command
	case has("segmentation fault", "access violation", "signal: "): //i18n:raw matched against the crash text
		return i18n.T("verify.cause.crashed"), i18n.T("verify.fix.crashed"), false
	}
	return i18n.T("verify.cause.generic"), i18n.T("verify.fix.generic"), true
}

// noDeviceCause explains a CUDA build that sees no GPU.
func noDeviceCause(evidence, buildCUDA string) (cause, fix string) {
	low := strings.ToLower(evidence)
	switch {
	case strings.Contains(low, "too old") || strings.Contains(low, "insufficient"):
		return i18n.T("verify.cause.old_driver_cuda", i18n.D{"CUDA": buildCUDA}), i18n.T("verify.fix.old_driver_cuda")
	case strings.Contains(low, "no kernel image") || strings.Contains(low, "not compatible"):
		return i18n.T("verify.cause.arch_missing"), i18n.T("verify.fix.arch_missing")
	}
	if hostGOOS != "windows" { // the graphics preference and python.exe are Windows' alone
		return i18n.T("verify.cause.no_device_other"), i18n.T("verify.fix.no_device_other")
	}
	return i18n.T("verify.cause.no_device"), i18n.T("verify.fix.no_device")
}

// hostGOOS is the system verify runs on (a variable: tests judge Windows' words on Linux).
var hostGOOS = runtime.GOOS
