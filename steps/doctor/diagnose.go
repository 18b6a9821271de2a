package doctor

// Diagnose runs every check over the evidence, in the guides' troubleshooting order, most severe first.
func Diagnose(e *Evidence) []Finding {
	var fs []Finding
	add := func(f []Finding) { fs = append(fs, f...) }
	// 1. the interpreter, 2. which packages are installed and what they were built for
	// 0. a run that stopped half-way explains everything else that is wrong with the packages
	add(checkInterrupted(e))
	add(checkPythonBroken(e))
	add(checkPython32Bit(e))
	add(checkStorePython(e))
	add(checkPythonUnsupported(e))
	add(checkNoFramework(e))
	add(checkPaddleMixed(e))
	add(checkCPUBuild(e))
	add(checkChannelMismatch(e))
	add(checkProtection(e))
	add(checkUV(e))
	add(checkLeftovers(e))
	add(checkMissingFiles(e))
	add(checkRecordOutside(e))
	add(checkTorchAndPaddle(e))
	add(checkCondaConflict(e))
	// 3. the driver and the card
	add(checkNoDriver(e))
	add(checkDriverTooOld(e))
	add(checkArchMissing(e))
	add(checkCUDAVisibleDevices(e))
	// 4-5. the framework's own check and one computation, unless something above already explains it
	add(checkFrameworkOwnCheck(e, explainsFrameworkFailure(fs)))
	add(checkGPUMemoryHeld(e))
	// 6. what makes a reinstall go wrong: pip's config, the Python pip belongs to, the machine's setup
	add(checkPipExtraIndex(e))
	add(checkPipOnPath(e))
	add(checkRuntimeDLLs(e))
	add(checkVCRuntime(e))
	add(checkLongPaths(e))
	add(checkNonASCIIPaths(e))
	sortFindings(fs)
	return fs
}

// explainsFrameworkFailure is true when an earlier error finding already says why the framework fails.
func explainsFrameworkFailure(fs []Finding) bool {
	for _, f := range fs {
		if f.Severity != SeverityError {
			continue
		}
		switch f.Code {
		case CodeCPUBuild, CodePaddleMixed, CodeNoDriver, CodeDriverTooOld, CodeArchMissing, CodeCUDAVisibleDevices, CodePythonBroken,
			CodeVCRuntimeOld:
			return true
		}
	}
	return false
}
