package doctor

import (
	"fmt"
	"path/filepath"
	"strings"
)

var torchFamily = []string{"torch", "torchvision", "torchaudio"}

// installedFramework names the framework the environment is for: the lock file's, else what is installed.
func (e *Evidence) installedFramework() string {
	if e.Lock != nil && e.Lock.Framework != "" {
		return e.Lock.Framework
	}
	if e.Dist("torch") != nil {
		return "torch"
	}
	if e.Dist("paddlepaddle-gpu") != nil || e.Dist("paddlepaddle") != nil {
		return "paddle"
	}
	return e.Framework.Framework
}

func distLine(d *Dist) string {
	s := fmt.Sprintf("%s %s%s installed", d.Name, d.Version, d.LocalLabel)
	if d.Location != "" {
		s += " in " + d.Location
	}
	return s
}

func checkPaddleMixed(e *Evidence) []Finding {
	cpu, gpuDist := e.Dist("paddlepaddle"), e.Dist("paddlepaddle-gpu")
	if cpu != nil && gpuDist != nil {
		return []Finding{{
			Code: CodePaddleMixed, Severity: SeverityError,
			Title:    "Both paddlepaddle (CPU) and paddlepaddle-gpu are installed: they share the module paddle",
			Evidence: []string{distLine(cpu), distLine(gpuDist), "import paddle then runs a mix of both builds' files, usually on the CPU"},
			Fix:      "Uninstall both (pip uninstall -y paddlepaddle paddlepaddle-gpu), delete the leftover paddle/ directory in site-packages, then install only paddlepaddle-gpu from the official index of your channel. gpuwiz doctor --fix does all of this.",
		}}
	}
	if e.PaddleDirOrphan != "" {
		return []Finding{{
			Code: CodePaddleMixed, Severity: SeverityError,
			Title:    "A paddle/ directory is left in site-packages that no installed distribution owns",
			Evidence: []string{"orphan directory: " + e.PaddleDirOrphan, "left behind when one of paddlepaddle / paddlepaddle-gpu was uninstalled while the other was installed"},
			Fix:      "Delete the paddle/ directory, then reinstall paddlepaddle-gpu from the official index of your channel.",
		}}
	}
	return nil
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
		Title:    "PyTorch and PaddlePaddle are installed in the same environment",
		Evidence: []string{distLine(t), distLine(p), "their pinned nvidia-* runtime packages conflict, and importing both in one process can crash"},
		Fix:      "Keep one framework per venv: create a second venv for the other framework (gpuwiz can install either into a new venv).",
	}}
}

func checkLeftovers(e *Evidence) []Finding {
	if len(e.Leftovers) == 0 {
		return nil
	}
	ev := make([]string, 0, len(e.Leftovers)+1)
	for _, l := range e.Leftovers {
		ev = append(ev, "leftover: "+l)
	}
	ev = append(ev, "pip renames a package to ~name while uninstalling; a running Python holding its DLLs stops it halfway, and pip then warns \"Ignoring invalid distribution\"")
	return []Finding{{
		Code: CodeLeftoverPartial, Severity: SeverityWarning,
		Title:    fmt.Sprintf("%d leftover(s) of an interrupted uninstall in site-packages", len(e.Leftovers)),
		Evidence: ev,
		Fix:      "Close every Python using this venv (Jupyter kernels, IDEs), delete the ~* directories listed, then reinstall the affected package. gpuwiz doctor --fix removes them.",
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
			ev = append(ev, distLine(t)+": the +cpu label marks a CPU-only wheel")
		case fc.Ran && fc.Framework == "torch" && fc.Imported && fc.CUDA == "":
			ev = append(ev, distLine(t), "torch.version.cuda is None: this build has no CUDA")
		case t.LocalLabel == "" && e.GOOS == "windows":
			ev = append(ev, distLine(t)+" with no +cuXYZ label: torch wheels on PyPI for Windows are CPU-only")
		}
		if len(ev) > 0 {
			out = append(out, Finding{
				Code: CodeCPUBuild, Severity: SeverityError,
				Title:    "PyTorch is a CPU-only build (\"Torch not compiled with CUDA enabled\")",
				Evidence: ev,
				Fix:      "Uninstall torch, torchvision and torchaudio, purge the cached CPU wheels (pip cache remove torch), then install again with --index-url https://download.pytorch.org/whl/<channel> for a CUDA channel your driver supports. gpuwiz doctor --fix or the wizard does this.",
			})
		}
	}
	cpu, gpuDist := e.Dist("paddlepaddle"), e.Dist("paddlepaddle-gpu")
	switch {
	case cpu != nil && gpuDist == nil:
		out = append(out, Finding{
			Code: CodeCPUBuild, Severity: SeverityError,
			Title:    "PaddlePaddle is the CPU package (paddlepaddle), not paddlepaddle-gpu",
			Evidence: []string{distLine(cpu), "paddle.is_compiled_with_cuda() is False for this package"},
			Fix:      "pip uninstall -y paddlepaddle, then install paddlepaddle-gpu with -i https://www.paddlepaddle.org.cn/packages/stable/<channel>/ (gpuwiz picks the channel for your driver).",
		})
	case gpuDist != nil && fc.Ran && fc.Framework == "paddle" && fc.Imported && fc.CompiledWithCUDA != nil && !*fc.CompiledWithCUDA && cpu == nil:
		out = append(out, Finding{
			Code: CodeCPUBuild, Severity: SeverityError,
			Title:    "PaddlePaddle imports but was not compiled with CUDA",
			Evidence: []string{distLine(gpuDist), "paddle.is_compiled_with_cuda() returned False"},
			Fix:      "The paddlepaddle-gpu build came from an index with a CPU or stale build (PyPI carries only 2.x). Reinstall it from https://www.paddlepaddle.org.cn/packages/stable/<channel>/.",
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
			Title:    fmt.Sprintf("%s is not installed, but %s says gpuwiz installed %s==%s%s", l.Package, filepath.Base(l.File), l.Package, l.Version, l.Label),
			Evidence: []string{"lock file: " + l.File},
			Fix:      "Reinstall the locked build (gpuwiz doctor --fix), or run the wizard to choose a new one.",
		}}
	}
	var ev []string
	if l.Label != "" && d.LocalLabel != l.Label {
		got := d.LocalLabel
		if got == "" {
			got = "no label"
		}
		ev = append(ev, fmt.Sprintf("installed: %s %s%s (%s); lock file %s says %s", d.Name, d.Version, d.LocalLabel, got, l.File, l.Package+"=="+l.Version+l.Label))
	}
	if l.Version != "" && d.Version != l.Version {
		ev = append(ev, fmt.Sprintf("installed version %s, locked version %s", d.Version, l.Version))
	}
	if len(ev) == 0 {
		return nil
	}
	ev = append(ev, "a later pip install (an unpinned requirement such as torch>=) usually replaces the build with another index's")
	return []Finding{{
		Code: CodeChannelMismatch, Severity: SeverityError,
		Title:    fmt.Sprintf("%s is not the build gpuwiz installed (%s%s expected)", l.Package, l.Version, l.Label),
		Evidence: ev,
		Fix:      fmt.Sprintf("Reinstall %s==%s%s from its index (gpuwiz doctor --fix), and install other requirements with -c %s so pip keeps this build.", l.Package, l.Version, l.Label, l.File),
	}}
}

func checkNoFramework(e *Evidence) []Finding {
	if e.Python.Error != "" || e.installedFramework() != "" {
		return nil
	}
	return []Finding{{
		Code: CodeNoFramework, Severity: SeverityInfo,
		Title:    "Neither PyTorch nor PaddlePaddle is installed in this environment",
		Evidence: []string{"no torch, paddlepaddle or paddlepaddle-gpu distribution in " + e.SitePackages},
		Fix:      "Run gpuwiz (the wizard) or gpuwiz install to put a GPU build here.",
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
		ev = append(ev, "the check could not run: "+fc.Error)
	}
	if !fc.Imported && fc.ImportError != "" {
		ev = append(ev, "import "+fc.Framework+" failed: "+lastLines(fc.ImportError, 3))
	}
	for _, c := range fc.Checks {
		if !c.OK {
			ev = append(ev, c.Name+": "+c.Detail)
		}
	}
	if len(ev) == 0 {
		return nil
	}
	fix := "Read the error above. A clean reinstall of the same build usually fixes a broken install (gpuwiz doctor --fix)."
	joined := strings.Join(ev, "\n")
	switch {
	case strings.Contains(joined, "WinError 126") || strings.Contains(joined, "DLL load failed"):
		fix = "A DLL failed to load: install the Microsoft Visual C++ 2015-2022 x64 runtime (vc_redist.x64.exe), remove other CUDA/cuDNN directories from PATH, then reinstall the build."
	case strings.Contains(joined, "out of memory"):
		fix = "The GPU is out of memory: close the processes holding VRAM (see nvidia-smi) and retry."
	}
	return []Finding{{
		Code: CodeFrameworkCheckFailed, Severity: SeverityError,
		Title:    fmt.Sprintf("%s's own check failed", frameworkTitle(fc.Framework)),
		Evidence: ev,
		Fix:      fix,
	}}
}

func frameworkTitle(f string) string {
	switch f {
	case "torch":
		return "PyTorch"
	case "paddle":
		return "PaddlePaddle"
	}
	return "The framework"
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
