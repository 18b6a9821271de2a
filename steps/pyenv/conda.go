package pyenv

import (
	"encoding/json"
	"gpuwiz/steps/shellquote"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"gpuwiz/steps/i18n"
)

// CondaPackage is one package conda installed into an env (a conda-meta/NAME-VERSION-BUILD.json).
type CondaPackage struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Channel string `json:"channel,omitempty"`
	File    string `json:"file"`
}

// CondaPackages reads an env's conda-meta records (pip's own installs are not there).
func CondaPackages(root string) ([]CondaPackage, error) {
	files, err := filepath.Glob(filepath.Join(root, "conda-meta", "*.json"))
	if err != nil {
		return nil, err
	}
	var pkgs []CondaPackage
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var p CondaPackage
		if json.Unmarshal(data, &p) != nil || p.Name == "" {
			continue // "history" and other files that are not package records
		}
		p.File = f
		pkgs = append(pkgs, p)
	}
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].Name < pkgs[j].Name })
	return pkgs, nil
}

// condaConflicts are conda packages that clash with a pip-installed framework: the framework
// itself under conda's name (its files are the same dist-info pip would replace behind conda's
// back), and conda's CUDA runtime, whose DLLs the env puts first on PATH when it is activated.
var condaConflicts = map[string][]string{
	"torch":  {"pytorch", "pytorch-cuda", "pytorch-gpu", "pytorch-cpu", "libtorch", "torchvision", "torchaudio", "cudatoolkit", "cuda-toolkit", "cuda-runtime", "cuda-cudart", "cudnn"},
	"paddle": {"paddlepaddle", "paddlepaddle-gpu", "cudatoolkit", "cuda-toolkit", "cuda-runtime", "cuda-cudart", "cudnn"},
}

// CondaConflictWarnings names the packages conda manages in the env at root that would clash with
// framework ("torch" or "paddle") installed by pip, and what to do.
func CondaConflictWarnings(root, framework string) []string {
	pkgs, err := CondaPackages(root)
	if err != nil {
		return []string{i18n.T("pyenv.conda.unreadable", i18n.D{"Path": filepath.Join(root, "conda-meta"), "Err": err})}
	}
	var w []string
	for _, p := range pkgs {
		if !slices.Contains(condaConflicts[framework], p.Name) {
			continue
		}
		if strings.HasPrefix(p.Name, "cuda") || p.Name == "cudnn" {
			w = append(w, i18n.T("pyenv.conda.conflict_cuda", i18n.D{"Package": p.Name, "Version": p.Version, "File": filepath.Base(p.File), "Root": shellquote.Command(goosRuntime, root)}))
		} else {
			w = append(w, i18n.T("pyenv.conda.conflict_framework", i18n.D{"Package": p.Name, "Version": p.Version, "File": filepath.Base(p.File), "Root": shellquote.Command(goosRuntime, root)}))
		}
	}
	return w
}

// condaHomes are the usual Anaconda, Miniconda and Miniforge folders under home (and, on Windows,
// the all-users ones), each holding a base env and envs/.
func condaHomes(goos string, env func(string) string) []string {
	var roots []string
	names := []string{"anaconda3", "miniconda3", "miniforge3", "mambaforge", "Anaconda3", "Miniconda3"}
	var bases []string
	if goos == "windows" {
		bases = []string{env("USERPROFILE"), env("ProgramData")}
		if l := env("LOCALAPPDATA"); l != "" {
			bases = append(bases, filepath.Join(l, "Continuum"))
		}
	} else {
		bases = []string{env("HOME"), "/opt"}
	}
	seen := map[string]bool{}
	for _, b := range bases {
		if b == "" || b == "." {
			continue
		}
		for _, n := range names {
			r := filepath.Join(b, n)
			if !seen[strings.ToLower(r)] {
				seen[strings.ToLower(r)] = true
				roots = append(roots, r)
			}
		}
	}
	return roots
}

// CondaEnvDirs lists the conda envs found without running conda: ~/.conda/environments.txt (conda
// records every env it makes there) and the usual install folders with their envs/.
func CondaEnvDirs(goos string, env func(string) string) []string {
	var dirs []string
	home := env("HOME")
	if goos == "windows" {
		home = env("USERPROFILE")
	}
	if home != "" {
		if data, err := os.ReadFile(filepath.Join(home, ".conda", "environments.txt")); err == nil {
			for _, l := range strings.Split(string(data), "\n") {
				if l = strings.TrimSpace(l); l != "" {
					dirs = append(dirs, l)
				}
			}
		}
	}
	for _, r := range condaHomes(goos, env) {
		if isDir(filepath.Join(r, "conda-meta")) {
			dirs = append(dirs, r)
		}
		envs, _ := os.ReadDir(filepath.Join(r, "envs"))
		for _, e := range envs {
			if d := filepath.Join(r, "envs", e.Name()); e.IsDir() && isDir(filepath.Join(d, "conda-meta")) {
				dirs = append(dirs, d)
			}
		}
	}
	return dirs
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
