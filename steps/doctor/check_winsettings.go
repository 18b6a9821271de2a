package doctor

import (
	"fmt"
	"strings"

	"gpuwiz/steps/i18n"
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
	fix := i18n.T("doctor.vc_runtime.fix")
	if !r.VCRuntimeFound || r.VCRuntimeInstalled != 1 {
		ev := []string{i18n.T("doctor.registry.key_missing", i18n.D{"Key": `HKLM\` + vcRuntimeKeys[0]})}
		if r.VCRuntimeFound {
			ev = []string{fmt.Sprintf(`HKLM\%s Installed = %d`, r.VCRuntimeKey, r.VCRuntimeInstalled)}
		}
		return []Finding{{
			Code: CodeVCRuntimeMissing, Severity: SeverityError,
			Title:    i18n.T("doctor.vc_runtime.missing_title"),
			Evidence: append(ev, i18n.T("doctor.vc_runtime.why")),
			Fix:      fix,
		}}
	}
	v := strings.TrimPrefix(strings.TrimSpace(r.VCRuntimeVersion), "v")
	if v != "" && versionLess(majorMinor(v), vcRuntimeMinimum) {
		return []Finding{{
			Code: CodeVCRuntimeMissing, Severity: SeverityWarning,
			Title:    i18n.T("doctor.vc_runtime.old_title", i18n.D{"Version": r.VCRuntimeVersion}),
			Evidence: []string{i18n.T("doctor.vc_runtime.old_version", i18n.D{"Value": fmt.Sprintf(`HKLM\%s Version = %s`, r.VCRuntimeKey, r.VCRuntimeVersion), "Min": vcRuntimeMinimum})},
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
	ev := i18n.T("doctor.registry.value_not_set", i18n.D{"Value": `HKLM\` + fileSystemKey + ` LongPathsEnabled`})
	if r.LongPathsFound {
		ev = fmt.Sprintf(`HKLM\%s LongPathsEnabled = %d`, fileSystemKey, r.LongPathsEnabled)
	}
	return []Finding{{
		Code: CodeLongPathsDisabled, Severity: SeverityWarning,
		Title:    i18n.T("doctor.long_paths.title"),
		Evidence: []string{ev, i18n.T("doctor.long_paths.why")},
		Fix: i18n.T("doctor.long_paths.fix", i18n.D{
			"Command": `New-ItemProperty -Path "HKLM:\SYSTEM\CurrentControlSet\Control\FileSystem" -Name LongPathsEnabled -Value 1 -PropertyType DWORD -Force`, //i18n:raw a PowerShell command
			"Dir":     `C:\venvs\gpu`,
		}),
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
		Title:    i18n.T("doctor.non_ascii.title"),
		Evidence: append(ev, i18n.T("doctor.non_ascii.why")),
		Fix:      i18n.T("doctor.non_ascii.fix", i18n.D{"Dir": `C:\venvs\gpu`, "Setting": `PIP_CACHE_DIR=C:\venvs\pip-cache`}),
	}}
}
