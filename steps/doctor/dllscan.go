package doctor

import (
	"path"
	"strings"

	"gpuwiz/steps/i18n"
)

// runtimePatterns are the CUDA, cuDNN and OpenMP runtimes that shadow a wheel's own copies.
var runtimePatterns = map[string][]string{
	"windows": {"cudart64_*.dll", "cudnn*.dll", "cublas64_*.dll", "libiomp5md.dll", "zlibwapi.dll"},
	"linux":   {"libcudart.so*", "libcudnn*.so*", "libcublas.so*", "libiomp5.so"},
}

// scanRuntimeDLLs lists the runtimes in the directories the loader searches (PATH and CUDA_PATH on
// Windows, LD_LIBRARY_PATH on Linux), leaving out the environment's own directories.
func scanRuntimeDLLs(fsys FS, goos string, env Environ, own []string) []DLLHit {
	type dir struct{ path, from string }
	var dirs []dir
	if goos == "windows" {
		for _, p := range pathList(goos, getenv(env, "PATH")) {
			dirs = append(dirs, dir{p, "PATH"})
		}
		if cp := getenv(env, "CUDA_PATH"); cp != "" {
			dirs = append(dirs, dir{cp, "CUDA_PATH"}, dir{joinFor(goos, cp, "bin"), "CUDA_PATH"})
		}
	} else {
		for _, p := range pathList(goos, getenv(env, "LD_LIBRARY_PATH")) {
			dirs = append(dirs, dir{p, "LD_LIBRARY_PATH"})
		}
	}
	patterns := runtimePatterns[goos]
	if patterns == nil {
		patterns = runtimePatterns["linux"]
	}
	seen := map[string]bool{}
	var hits []DLLHit
	for _, d := range dirs {
		key := strings.ToLower(strings.TrimRight(d.path, `/\`))
		if seen[key] || under(d.path, own, goos) {
			continue
		}
		seen[key] = true
		entries, err := fsys.ReadDir(d.path)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if e.IsDir() {
				continue
			}
			name := e.Name()
			match := name
			if goos == "windows" {
				match = strings.ToLower(name)
			}
			for _, pat := range patterns {
				if ok, _ := path.Match(pat, match); ok {
					hits = append(hits, DLLHit{Dir: d.path, File: name, From: d.from})
					break
				}
			}
		}
	}
	return hits
}

// under says whether p lies in one of roots.
func under(p string, roots []string, goos string) bool {
	for _, r := range roots {
		if r == "" {
			continue
		}
		if samePath(p, r, goos) {
			return true
		}
		np, nr := strings.ReplaceAll(p, `\`, "/"), strings.TrimRight(strings.ReplaceAll(r, `\`, "/"), "/")+"/"
		if goos == "windows" {
			np, nr = strings.ToLower(np), strings.ToLower(nr)
		}
		if strings.HasPrefix(np, nr) {
			return true
		}
	}
	return false
}

func checkRuntimeDLLs(e *Evidence) []Finding {
	if len(e.DLLs) == 0 {
		return nil
	}
	byDir := map[string][]string{}
	var order []string
	for _, h := range e.DLLs {
		k := h.Dir + " (" + h.From + ")"
		if _, ok := byDir[k]; !ok {
			order = append(order, k)
		}
		byDir[k] = append(byDir[k], h.File)
	}
	var ev []string
	for _, k := range order {
		ev = append(ev, k+": "+strings.Join(byDir[k], ", "))
	}
	ev = append(ev, i18n.T("doctor.dlls.why"))
	return []Finding{{
		Code: CodeCUDADLLOnPath, Severity: SeverityWarning,
		Title:    i18n.T("doctor.dlls.title"),
		Evidence: ev,
		Fix:      i18n.T("doctor.dlls.fix"),
	}}
}
