package doctor

import (
	"gpuwiz/steps/shellquote"
	"path/filepath"
	"strings"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pep"
	"gpuwiz/steps/verify"
)

var torchFamily = []string{"torch", "torchvision", "torchaudio"}

// installedFramework names the framework the environment is for: the lock file's, else what is installed.
func (e *Evidence) installedFramework() string {
	if e.Lock != nil && e.Lock.Framework != "" {
		return e.Lock.Framework
	}
	if held := pep.HeldFramework(e.installedVersion); held.Framework != "" {
		return held.Framework
	}
	return e.Framework.Framework
}

// installedVersion is the installed version of a dist (local label included), for pep.HeldFramework.
func (e *Evidence) installedVersion(name string) (string, bool) {
	d := e.Dist(name)
	if d == nil {
		return "", false
	}
	return d.Version + d.LocalLabel, true
}

func distLine(d *Dist) string {
	if d.Location != "" {
		return i18n.T("doctor.dist.installed_in", i18n.D{"Name": d.Name, "Version": d.Version + d.LocalLabel, "Location": d.Location})
	}
	return i18n.T("doctor.dist.installed", i18n.D{"Name": d.Name, "Version": d.Version + d.LocalLabel})
}

func checkPaddleMixed(e *Evidence) []Finding {
	cpu, gpuDist := e.Dist("paddlepaddle"), e.Dist("paddlepaddle-gpu")
	if cpu != nil && gpuDist != nil {
		return []Finding{{
			Code: CodePaddleMixed, Severity: SeverityError,
			Title:    i18n.T("doctor.paddle_mixed.title"),
			Evidence: []string{distLine(cpu), distLine(gpuDist), i18n.T("doctor.paddle_mixed.why")},
			Fix:      i18n.T("doctor.paddle_mixed.fix"),
		}}
	}
	if e.PaddleDirOrphan != "" {
		return []Finding{{
			Code: CodePaddleMixed, Severity: SeverityError,
			Title:    i18n.T("doctor.paddle_orphan.title"),
			Evidence: []string{i18n.T("doctor.paddle_orphan.dir", i18n.D{"Path": e.PaddleDirOrphan}), i18n.T("doctor.paddle_orphan.why")},
			Fix:      i18n.T("doctor.paddle_orphan.fix"),
		}}
	}
	return nil
}

// checkCondaConflict: a conda env whose conda-installed packages fight the framework's pip wheels.
func checkCondaConflict(e *Evidence) []Finding {
	if len(e.CondaConflicts) == 0 {
		return nil
	}
	return []Finding{{
		Code: CodeCondaConflict, Severity: SeverityWarning,
		Title:    i18n.T("doctor.conda.title"),
		Evidence: e.CondaConflicts,
		Fix:      i18n.T("doctor.conda.fix"),
	}}
}

func checkTorchAndPaddle(e *Evidence) []Finding {
	t := e.Dist("torch")
	p := e.Dist("paddlepaddle-gpu")
	if p == nil {
		p = e.Dist("paddlepaddle")
	}
	if t == nil || p == nil {
		return nil
	}
	return []Finding{{
		Code: CodeTorchAndPaddleTogether, Severity: SeverityWarning,
		Title:    i18n.T("doctor.together.title"),
		Evidence: []string{distLine(t), distLine(p), i18n.T("doctor.together.why")},
		Fix:      i18n.T("doctor.together.fix"),
	}}
}

func checkLeftovers(e *Evidence) []Finding {
	if len(e.Leftovers) == 0 {
		return nil
	}
	ev := make([]string, 0, len(e.Leftovers)+1)
	for _, l := range e.Leftovers {
		ev = append(ev, i18n.T("doctor.leftover.path", i18n.D{"Path": l}))
	}
	ev = append(ev, i18n.T("doctor.leftover.why"))
	return []Finding{{
		Code: CodeLeftoverPartial, Severity: SeverityWarning,
		Title:    i18n.N("doctor.leftover.title", len(e.Leftovers)),
		Evidence: ev,
		Fix:      i18n.T("doctor.leftover.fix"),
	}}
}

// checkCPUBuild finds a CPU-only build of the installed framework.
func checkCPUBuild(e *Evidence) []Finding {
	var out []Finding
	fc := e.Framework
	if t := e.Dist("torch"); t != nil {
		var ev []string
		switch {
		case t.LocalLabel == "+cpu":
			ev = append(ev, i18n.T("doctor.cpu_build.cpu_label", i18n.D{"Dist": distLine(t)}))
		case fc.Ran && fc.Framework == "torch" && fc.Imported && fc.CUDA == "":
			ev = append(ev, distLine(t), i18n.T("doctor.cpu_build.cuda_none"))
		case t.LocalLabel == "" && e.GOOS == "windows":
			ev = append(ev, i18n.T("doctor.cpu_build.no_label", i18n.D{"Dist": distLine(t)}))
		}
		if len(ev) > 0 {
			out = append(out, Finding{
				Code: CodeCPUBuild, Severity: SeverityError,
				Title:    i18n.T("doctor.cpu_build.torch_title"),
				Evidence: ev,
				Fix:      i18n.T("doctor.cpu_build.torch_fix"),
			})
		}
	}
	cpu, gpuDist := e.Dist("paddlepaddle"), e.Dist("paddlepaddle-gpu")
	switch {
	case cpu != nil && gpuDist == nil:
		out = append(out, Finding{
			Code: CodeCPUBuild, Severity: SeverityError,
			Title:    i18n.T("doctor.cpu_build.paddle_title"),
			Evidence: []string{distLine(cpu), i18n.T("doctor.cpu_build.paddle_why")},
			Fix:      i18n.T("doctor.cpu_build.paddle_fix"),
		})
	case gpuDist != nil && fc.Ran && fc.Framework == "paddle" && fc.Imported && fc.CompiledWithCUDA != nil && !*fc.CompiledWithCUDA && cpu == nil:
		out = append(out, Finding{
			Code: CodeCPUBuild, Severity: SeverityError,
			Title:    i18n.T("doctor.cpu_build.paddle_gpu_title"),
			Evidence: []string{distLine(gpuDist), i18n.T("doctor.cpu_build.paddle_gpu_why")},
			Fix:      i18n.T("doctor.cpu_build.paddle_gpu_fix"),
		})
	}
	return out
}

// checkChannelMismatch compares what is installed with what gpuwiz's lock file says it installed.
func checkChannelMismatch(e *Evidence) []Finding {
	l := e.Lock
	if l == nil || l.Package == "" {
		return nil
	}
	d := e.Dist(l.Package)
	if d == nil {
		return []Finding{{
			Code: CodeChannelMismatch, Severity: SeverityError,
			Title:    i18n.T("doctor.locked.missing_title", i18n.D{"Package": l.Package, "LockFile": filepath.Base(l.File), "Build": l.Package + "==" + l.Version + l.Label}),
			Evidence: []string{i18n.T("doctor.locked.file", i18n.D{"File": l.File})},
			Fix:      i18n.T("doctor.locked.missing_fix"),
		}}
	}
	var ev []string
	if l.Label != "" && d.LocalLabel != l.Label {
		got := d.LocalLabel
		if got == "" {
			got = i18n.T("doctor.locked.no_label")
		}
		ev = append(ev, i18n.T("doctor.locked.label_differs", i18n.D{"Name": d.Name, "Version": d.Version + d.LocalLabel, "Label": got, "File": l.File, "Build": l.Package + "==" + l.Version + l.Label}))
	}
	if l.Version != "" && d.Version != l.Version {
		ev = append(ev, i18n.T("doctor.locked.version_differs", i18n.D{"Installed": d.Version, "Locked": l.Version}))
	}
	if len(ev) == 0 {
		return nil
	}
	ev = append(ev, i18n.T("doctor.locked.why"))
	return []Finding{{
		Code: CodeChannelMismatch, Severity: SeverityError,
		Title:    i18n.T("doctor.locked.differs_title", i18n.D{"Package": l.Package, "Expected": l.Version + l.Label}),
		Evidence: ev,
		Fix:      i18n.T("doctor.locked.differs_fix", i18n.D{"Build": l.Package + "==" + l.Version + l.Label, "File": shellquote.Command(e.GOOS, l.File)}),
	}}
}

func checkNoFramework(e *Evidence) []Finding {
	if e.Python.Error != "" || e.installedFramework() != "" {
		return nil
	}
	return []Finding{{
		Code: CodeNoFramework, Severity: SeverityInfo,
		Title:    i18n.T("doctor.no_framework.title"),
		Evidence: []string{i18n.T("doctor.no_framework.where", i18n.D{"SitePackages": e.SitePackages})},
		Fix:      i18n.T("doctor.no_framework.fix"),
	}}
}

// checkFrameworkOwnCheck turns the framework's failed checks into a finding unless a more specific one explains them.
func checkFrameworkOwnCheck(e *Evidence, explained bool) []Finding {
	fc := e.Framework
	if !fc.Ran || explained {
		return nil
	}
	var ev []string
	if fc.Error != "" {
		ev = append(ev, i18n.T("doctor.own_check.not_run", i18n.D{"Err": fc.Error}))
	}
	if !fc.Imported && fc.ImportError != "" {
		ev = append(ev, i18n.T("doctor.own_check.import_failed", i18n.D{"Framework": fc.Framework, "Err": lastLines(fc.ImportError, 3)}))
	}
	for _, c := range fc.Checks {
		if !c.OK {
			ev = append(ev, c.Name+": "+c.Detail)
		}
	}
	if len(ev) == 0 {
		return nil
	}
	fix := i18n.T("doctor.own_check.fix")
	joined := strings.Join(ev, "\n")
	if de, ok := verify.ParseDLLError(fc.ImportError + "\n" + joined); ok {
		cause, dllFix := verify.DLLCause(de)
		ev = append(ev, cause)
		if de.Code == 1114 {
			ev = append(ev, copiesEvidence(e.VCRuntimeCopies)...)
		}
		return []Finding{{
			Code: CodeFrameworkCheckFailed, Severity: SeverityError,
			Title:    i18n.T("doctor.own_check.title", i18n.D{"Framework": frameworkTitle(fc.Framework)}),
			Evidence: ev,
			Fix:      dllFix,
		}}
	}
	switch {
	case strings.Contains(joined, "WinError 126") || strings.Contains(joined, "DLL load failed"):
		fix = i18n.T("doctor.own_check.fix_dll")
	case strings.Contains(joined, "out of memory"):
		fix = i18n.T("doctor.own_check.fix_memory")
	}
	return []Finding{{
		Code: CodeFrameworkCheckFailed, Severity: SeverityError,
		Title:    i18n.T("doctor.own_check.title", i18n.D{"Framework": frameworkTitle(fc.Framework)}),
		Evidence: ev,
		Fix:      fix,
	}}
}

func frameworkTitle(f string) string {
	switch f {
	case "torch":
		return "PyTorch"
	case "paddle":
		return i18n.T("doctor.framework.paddle")
	}
	return i18n.T("doctor.framework.unknown")
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
