package doctor

import (
	"fmt"
	"strings"
)

// VC++ 2015-2022 runtime keys (the x64 runtime is written by a 32-bit installer, hence WOW6432Node too).
var vcRuntimeKeys = []string{
	`SOFTWARE\Microsoft\VisualStudio\14.0\VC\Runtimes\x64`,
	`SOFTWARE\WOW6432Node\Microsoft\VisualStudio\14.0\VC\Runtimes\x64`,
}

const (
	fileSystemKey = `SYSTEM\CurrentControlSet\Control\FileSystem`
	// Current torch wheels link against the VS 2019/2022 runtime; 14.29 is VS 2019's last.
	vcRuntimeMinimum = "14.29"
)

func checkVCRuntime(e *Evidence) []Finding {
	r := e.Registry
	if e.GOOS != "windows" || !r.Read {
		return nil
	}
	fix := "Install the latest Microsoft Visual C++ Redistributable for Visual Studio 2015-2022 (x64): https://aka.ms/vs/17/release/vc_redist.x64.exe, then reopen the terminal."
	if !r.VCRuntimeFound || r.VCRuntimeInstalled != 1 {
		ev := []string{`HKLM\` + vcRuntimeKeys[0] + " is missing"}
		if r.VCRuntimeFound {
			ev = []string{fmt.Sprintf(`HKLM\%s Installed = %d`, r.VCRuntimeKey, r.VCRuntimeInstalled)}
		}
		return []Finding{{
			Code: CodeVCRuntimeMissing, Severity: SeverityError,
			Title:    "The Microsoft Visual C++ x64 runtime is not installed",
			Evidence: append(ev, "without it import torch fails with [WinError 126] on c10.dll or fbgemm.dll"),
			Fix:      fix,
		}}
	}
	v := strings.TrimPrefix(strings.TrimSpace(r.VCRuntimeVersion), "v")
	if v != "" && versionLess(majorMinor(v), vcRuntimeMinimum) {
		return []Finding{{
			Code: CodeVCRuntimeMissing, Severity: SeverityWarning,
			Title:    fmt.Sprintf("The Visual C++ x64 runtime is old (%s)", r.VCRuntimeVersion),
			Evidence: []string{fmt.Sprintf(`HKLM\%s Version = %s; current wheels need %s or newer`, r.VCRuntimeKey, r.VCRuntimeVersion, vcRuntimeMinimum)},
			Fix:      fix,
		}}
	}
	return nil
}

func checkLongPaths(e *Evidence) []Finding {
	r := e.Registry
	if e.GOOS != "windows" || !r.Read || r.LongPathsFound && r.LongPathsEnabled == 1 {
		return nil
	}
	ev := `HKLM\` + fileSystemKey + ` LongPathsEnabled is not set`
	if r.LongPathsFound {
		ev = fmt.Sprintf(`HKLM\%s LongPathsEnabled = %d`, fileSystemKey, r.LongPathsEnabled)
	}
	return []Finding{{
		Code: CodeLongPathsDisabled, Severity: SeverityWarning,
		Title:    "Windows long paths are disabled (260-character limit)",
		Evidence: []string{ev, "deep package paths then fail with [WinError 206] or \"No such file or directory\" during pip install"},
		Fix:      `As administrator in PowerShell: New-ItemProperty -Path "HKLM:\SYSTEM\CurrentControlSet\Control\FileSystem" -Name LongPathsEnabled -Value 1 -PropertyType DWORD -Force; or keep the venv in a short path such as C:\venvs\gpu.`,
	}}
}

func checkNonASCIIPaths(e *Evidence) []Finding {
	if e.GOOS != "windows" {
		return nil
	}
	var ev []string
	for _, p := range e.Paths {
		if p.Path != "" && !isASCII(p.Path) {
			ev = append(ev, p.Label+": "+p.Path)
		}
	}
	if len(ev) == 0 {
		return nil
	}
	return []Finding{{
		Code: CodeNonASCIIPath, Severity: SeverityWarning,
		Title:    "Paths used by Python and pip contain non-ASCII characters",
		Evidence: append(ev, "some builds and tools fail on such paths with UnicodeDecodeError or cannot find their DLLs"),
		Fix:      `Use a short ASCII root: create the venv in e.g. C:\venvs\gpu, and point TEMP/TMP and pip's cache there (set PIP_CACHE_DIR=C:\venvs\pip-cache).`,
	}}
}
