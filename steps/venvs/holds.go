package venvs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pep"
)

// Holds is what an environment holds, read from its files (pyvenv.cfg, conda-meta, the names of the
// dist-info folders in site-packages): cheap enough to list a dozen, and never runs its Python.
type Holds struct {
	Python           string `json:"python,omitempty"`    // "3.12.8"
	Framework        string `json:"framework,omitempty"` // "torch", "paddle"; "" when neither is installed
	FrameworkVersion string `json:"framework_version,omitempty"`
	Channel          string `json:"channel,omitempty"` // torch's local label ("cu126", "cpu"); "" for paddle
	Package          string `json:"package,omitempty"` // the framework's dist: "torch", "paddlepaddle-gpu"
	Mixed            bool   `json:"mixed,omitempty"`   // paddlepaddle and paddlepaddle-gpu both installed
	Conda            bool   `json:"conda,omitempty"`   // a conda environment, not a venv
}

// Describe says it in words: "PyTorch 2.6.0 (cu126), Python 3.11.9".
func (h Holds) Describe() string {
	var fw string
	switch h.Framework {
	case "torch":
		fw = i18n.T("venvs.holds.torch", i18n.D{"Version": h.FrameworkVersion})
		if h.Channel != "" {
			fw = i18n.T("venvs.holds.torch_channel", i18n.D{"Version": h.FrameworkVersion, "Channel": h.Channel})
		}
	case "paddle":
		switch {
		case h.Mixed:
			fw = i18n.T("venvs.holds.paddle_mixed", i18n.D{"Version": h.FrameworkVersion})
		case h.Package == "paddlepaddle":
			fw = i18n.T("venvs.holds.paddle_cpu", i18n.D{"Version": h.FrameworkVersion})
		default:
			fw = i18n.T("venvs.holds.paddle_gpu", i18n.D{"Version": h.FrameworkVersion})
		}
	default:
		fw = i18n.T("venvs.holds.none")
	}
	if h.Python != "" {
		fw = i18n.T("venvs.holds.with_python", i18n.D{"What": fw, "Python": h.Python})
	}
	return fw
}

// Read looks at the environment at root (a venv, or a conda env when it has conda-meta).
func Read(root, goos string) Holds {
	var h Holds
	h.Python = cfgPython(filepath.Join(root, "pyvenv.cfg"))
	if st, err := os.Stat(filepath.Join(root, "conda-meta")); err == nil && st.IsDir() {
		h.Conda = true
		if h.Python == "" {
			h.Python = condaPython(filepath.Join(root, "conda-meta"))
		}
	}
	dists := map[string]string{}
	for _, site := range sitePackages(root, goos) {
		entries, err := os.ReadDir(site)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if name, ver, ok := pep.DistInfo(e.Name()); ok && e.IsDir() {
				dists[name] = ver
			}
		}
	}
	held := pep.HeldIn(dists)
	h.Framework, h.Package, h.Mixed = held.Framework, held.Package, held.Mixed
	h.FrameworkVersion, h.Channel = held.Version, held.Channel()
	if held.Framework == "torch" {
		h.FrameworkVersion = held.Public()
	}
	return h
}

// sitePackages are the site-packages folders of root: Lib\site-packages on Windows,
// lib/pythonX.Y/site-packages elsewhere.
func sitePackages(root, goos string) []string {
	if goos == "windows" {
		return []string{filepath.Join(root, "Lib", "site-packages")}
	}
	var out []string
	for _, lib := range []string{"lib", "lib64"} {
		m, _ := filepath.Glob(filepath.Join(root, lib, "python3*", "site-packages"))
		out = append(out, m...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// cfgPython is pyvenv.cfg's "version" (venv) or "version_info" (virtualenv, uv): "3.12.8".
func cfgPython(cfg string) string {
	data, err := os.ReadFile(cfg)
	if err != nil {
		return ""
	}
	found := ""
	for _, line := range strings.Split(string(data), "\n") {
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "version":
			return strings.TrimSpace(v)
		case "version_info":
			parts := strings.Split(strings.TrimSpace(v), ".")
			found = strings.Join(parts[:min(3, len(parts))], ".")
		}
	}
	return found
}

// condaPython reads the Python version from conda-meta's package records: python-3.11.9-h955ad1f_0.json.
func condaPython(meta string) string {
	m, _ := filepath.Glob(filepath.Join(meta, "python-3*.json"))
	for _, p := range m {
		if v, _, ok := strings.Cut(strings.TrimPrefix(filepath.Base(p), "python-"), "-"); ok {
			return v
		}
	}
	return ""
}
