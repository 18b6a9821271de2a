package verify

import "strings"

const genericCause = "the framework's files are broken or incomplete"

// importCause maps the text of a failed import or crash to its cause and fix.
func importCause(text string) (cause, fix string) {
	low := strings.ToLower(text)
	has := func(subs ...string) bool {
		for _, s := range subs {
			if strings.Contains(low, strings.ToLower(s)) {
				return true
			}
		}
		return false
	}
	switch {
	case has("cudnn64_8.dll", "zlibwapi.dll", "cudnn64_9.dll"):
		return "mismatched system CUDA/cuDNN DLLs on PATH are loaded instead of the build's own (Paddle error code 126)",
			"compare paddle.version.cuda()/cudnn() with the cudnn*/cudart* DLLs that gpuwiz doctor finds on PATH and CUDA_PATH; remove the old directories from PATH"
	case has("omp: error #15", "libiomp5md.dll", "winerror 127"):
		return "a second OpenMP/CUDA runtime from PATH (an old CUDA/cuDNN or Anaconda Library\\bin) is loaded",
			"remove those directories from PATH for this venv (gpuwiz doctor names them); do not set KMP_DUPLICATE_LIB_OK"
	case has("shm.dll"):
		return "a Microsoft Store Python (its sandbox breaks torch's DLL loading)",
			"install Python from python.org, then gpuwiz install --python <that python> --venv NEWVENV"
	case has("winerror 126", "fbgemm.dll", "c10.dll", "dll load failed"):
		return "the Microsoft Visual C++ runtime is missing or too old (torch's DLLs need it)",
			"install the latest vc_redist.x64.exe from https://aka.ms/vs/17/release/vc_redist.x64.exe, then verify again"
	case has("driver on your system is too old", "driver version is insufficient", "cuda driver version is insufficient"):
		return "the NVIDIA driver is older than the build's CUDA needs",
			"update the NVIDIA driver, or pick a lower CUDA channel (gpuwiz channels); no CUDA toolkit is needed for pip wheels"
	case has("no module named 'torch'", "no module named 'paddle'", "no module named torch", "no module named paddle"):
		return "the framework is not installed in this venv", "gpuwiz install --venv VENV"
	case has("segmentation fault", "access violation", "signal: "):
		return "the interpreter crashed inside the framework's native code",
			"gpuwiz doctor --venv VENV (it checks PATH DLLs, the driver and leftovers), then reinstall with gpuwiz install"
	}
	return genericCause, "reinstall with gpuwiz install (it removes leftovers of interrupted uninstalls first); gpuwiz doctor --venv VENV explains more"
}

// noDeviceCause explains a CUDA build that sees no GPU.
func noDeviceCause(evidence, buildCUDA string) (cause, fix string) {
	low := strings.ToLower(evidence)
	switch {
	case strings.Contains(low, "too old") || strings.Contains(low, "insufficient"):
		return "the NVIDIA driver is older than CUDA " + buildCUDA + " needs",
			"update the NVIDIA driver, or pick a lower CUDA channel (gpuwiz channels)"
	case strings.Contains(low, "no kernel image") || strings.Contains(low, "not compatible"):
		return "the wheel lacks this GPU's architecture", "pick another channel (gpuwiz channels)"
	}
	return "CUDA sees no usable GPU: CUDA_VISIBLE_DEVICES hides it, a hybrid laptop routes python.exe to the integrated GPU, or no NVIDIA driver is loaded",
		"check CUDA_VISIBLE_DEVICES and the Windows graphics preference for python.exe (High performance); gpuwiz doctor checks both"
}
