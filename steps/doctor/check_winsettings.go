package doctor

import (
	"fmt"
	"strings"

	"gpuwiz/matrix"
	"gpuwiz/steps/dllver"
	"gpuwiz/steps/i18n"
)

// VC++ 2015-2022 runtime keys (the x64 runtime is written by a 32-bit installer, hence WOW6432Node too).
var vcRuntimeKeys = []string{
	`SOFTWARE\Microsoft\VisualStudio\14.0\VC\Runtimes\x64`,
	`SOFTWARE\WOW6432Node\Microsoft\VisualStudio\14.0\VC\Runtimes\x64`,
}

const fileSystemKey = `SYSTEM\CurrentControlSet\Control\FileSystem`

// vcRuntimeFallback is the minimum when neither an installed framework nor the matrix says more: the
// last Visual Studio 2019 runtime.
const vcRuntimeFallback = "14.29"

// vcRuntimeNeed is the oldest msvcp140 the environment's framework loads with, from the matrix's
// windows_runtime rows, and the release it is for ("torch 2.11.0"; "" when no framework is installed).
func vcRuntimeNeed(e *Evidence) (min, release string, row *matrix.WindowsRow) {
	fw := e.installedFramework()
	v := ""
	switch fw {
	case "torch":
		if d := e.Dist("torch"); d != nil {
			v = d.Version
		}
	case "paddle":
		if d := e.Dist("paddlepaddle-gpu"); d != nil {
			v = d.Version
		} else if d := e.Dist("paddlepaddle"); d != nil {
			v = d.Version
		}
	}
	if v == "" && e.Lock != nil {
		v = e.Lock.Version
	}
	if fw != "" && v != "" {
		if r, ok := e.Matrix.WindowsNeeds(fw, v); ok {
			return r.MSVCP140, frameworkTitle(fw) + " " + v, &r
		}
	}
	if e.Matrix != nil {
		if low := e.Matrix.OldestWindowsRuntime(); low != "" {
			return low, "", nil
		}
	}
	return vcRuntimeFallback, "", nil
}

func checkVCRuntime(e *Evidence) []Finding {
	if e.GOOS != "windows" {
		return nil
	}
	r := e.Registry
	fix := i18n.T("doctor.vc_runtime.fix")
	if r.Read && (!r.VCRuntimeFound || r.VCRuntimeInstalled != 1) {
		ev := []string{i18n.T("doctor.registry.key_missing", i18n.D{"Key": `HKLM\` + vcRuntimeKeys[0]})}
		if r.VCRuntimeFound {
			ev = []string{fmt.Sprintf(`HKLM\%s Installed = %d`, r.VCRuntimeKey, r.VCRuntimeInstalled)}
		}
		return []Finding{{
			Code: CodeVCRuntimeMissing, Severity: SeverityError,
			Title:    i18n.T("doctor.vc_runtime.missing_title"),
			Evidence: append(append(ev, copiesEvidence(e.VCRuntimeCopies)...), i18n.T("doctor.vc_runtime.why")),
			Fix:      fix,
		}}
	}
	need, release, row := vcRuntimeNeed(e)
	min, _ := dllver.Parse(need)
	var ev []string
	old := ""
	if v, ok := dllver.Parse(strings.TrimSpace(r.VCRuntimeVersion)); r.Read && ok && v.Less(min) {
		old = r.VCRuntimeVersion
		ev = append(ev, fmt.Sprintf(`HKLM\%s Version = %s`, r.VCRuntimeKey, r.VCRuntimeVersion))
	}
	var loaded *RuntimeCopy
	for i := range e.VCRuntimeCopies {
		if e.VCRuntimeCopies[i].Loads {
			loaded = &e.VCRuntimeCopies[i]
		}
	}
	shadowing := false
	if loaded != nil {
		if v, ok := dllver.Parse(loaded.Version); ok && v.Less(min) {
			old = loaded.Version
			shadowing = loaded.From != "System32"
		}
	}
	if old == "" {
		return nil
	}
	ev = append(ev, copiesEvidence(e.VCRuntimeCopies)...)
	sev := SeverityWarning
	title := i18n.T("doctor.vc_runtime.old_title", i18n.D{"Version": old, "Min": need})
	if release != "" {
		sev = SeverityError
		title = i18n.T("doctor.vc_runtime.old_for_title", i18n.D{"Version": old, "Min": need, "Release": release})
		why := i18n.T("doctor.vc_runtime.old_why", i18n.D{"Release": release, "Min": need})
		ev = append(ev, why)
		if row != nil && row.Source != "" {
			ev = append(ev, i18n.T("doctor.vc_runtime.source", i18n.D{"Source": row.Source}))
		}
	} else {
		ev = append(ev, i18n.T("doctor.vc_runtime.old_version", i18n.D{"Min": need}))
	}
	if shadowing {
		fix = i18n.T("doctor.vc_runtime.fix_shadowed", i18n.D{"Path": loaded.Path, "Fix": fix})
	}
	return []Finding{{Code: CodeVCRuntimeOld, Severity: sev, Title: title, Evidence: ev, Fix: fix}}
}

func copyPlace(from string) string {
	return copyPlaces.Say(from, i18n.T("doctor.vc_runtime.where.path"))
}

var copyPlaces = i18n.Words[string]{
	"framework": func() string { return i18n.T("doctor.vc_runtime.where.framework") },
	"python":    func() string { return i18n.T("doctor.vc_runtime.where.python") },
	"System32":  func() string { return i18n.T("doctor.vc_runtime.where.system32") },
}

// copiesEvidence lists every msvcp140.dll found, the one that loads first.
func copiesEvidence(cs []RuntimeCopy) []string {
	var out []string
	for _, c := range cs {
		v := c.Version
		if v == "" {
			v = i18n.T("doctor.vc_runtime.no_version")
		}
		if c.Loads {
			out = append(out, i18n.T("doctor.vc_runtime.copy_loads", i18n.D{"Path": c.Path, "Version": v, "Where": copyPlace(c.From)}))
			continue
		}
		out = append(out, i18n.T("doctor.vc_runtime.copy", i18n.D{"Path": c.Path, "Version": v, "Where": copyPlace(c.From)}))
	}
	return out
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
