package pyenv

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
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
		return []string{fmt.Sprintf("could not read %s: %v", filepath.Join(root, "conda-meta"), err)}
	}
	var w []string
	for _, p := range pkgs {
		if !slices.Contains(condaConflicts[framework], p.Name) {
			continue
		}
		what := "pip would replace its files behind conda's back (conda list would still show it, and a later conda update would break the env)"
		if strings.HasPrefix(p.Name, "cuda") || p.Name == "cudnn" {
			what = "its CUDA libraries come first on PATH in the activated env and can shadow the ones the pip wheels bring"
		}
		w = append(w, fmt.Sprintf("conda manages %s %s in this env (%s): %s; remove it first with `conda remove -p %s %s`, or install into a new venv", p.Name, p.Version, filepath.Base(p.File), what, shellQuote(root), p.Name))
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
