package venvs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gpuwiz/steps/pyenv"
)

// Where else an environment was found: around the folder gpuwiz runs from (a portable bundle's
// python_embeded beside it, above it or below it) and ComfyUI Desktop's default environment.
const (
	SourceNearby        = "nearby"
	SourceComfyDesktop  = "comfyui-desktop"
	nearbyDepth         = 2    // folders below the starting folder that are looked into
	nearbyMaxFolders    = 4000 // folders looked at in all: the search stays well under a second
	comfyDesktopVenvRel = "Documents/ComfyUI/.venv"
)

// skipNearby are folders that hold no environment of their own worth listing, or too many
// folders to look through: they are not descended into.
var skipNearby = []string{"node_modules", ".git", "__pycache__", "site-packages", "dist-packages", ".gpuwiz",
	"windows", "program files", "program files (x86)", "programdata", "appdata", "proc", "sys", "dev"} //i18n:raw folder names

// Nearby lists the Python environments in and around the folders given (the working folder, the
// folder of gpuwiz's own executable): each folder and up to nearbyDepth levels below it, and each
// folder above it with its direct subfolders (a bundle's python_embeded beside the ComfyUI folder
// gpuwiz runs in), up to the root. The root's, the temporary folder's and the users' folder's
// subfolders are not looked through, and no folder inside an environment is. Bounded: at most
// nearbyMaxFolders folders are looked at; no disk-wide search.
func Nearby(goos string, starts ...string) []string {
	var found []string
	seen := map[string]bool{}
	budget := nearbyMaxFolders
	look := func(dir string) bool { // reports whether dir is an environment
		k := strings.ToLower(filepath.Clean(dir))
		if seen[k] || budget <= 0 {
			return seen[k]
		}
		seen[k] = true
		budget--
		l := (pyenv.Venv{Root: dir, GOOS: goos}).Layout()
		if l.Kind == "" {
			return false
		}
		// The system's own Python (the root's bin/python3, /usr) is no bundle: not listed.
		if filepath.Dir(dir) != dir && !(l.Kind == pyenv.EnvPrefix && externallyManaged(dir)) {
			found = append(found, dir)
		}
		return true
	}
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		if look(dir) || depth == 0 || budget <= 0 {
			return
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			if !e.IsDir() || slices.Contains(skipNearby, strings.ToLower(e.Name())) {
				continue
			}
			walk(filepath.Join(dir, e.Name()), depth-1)
		}
	}
	noChildren := map[string]bool{strings.ToLower(filepath.Clean(os.TempDir())): true}
	if home, err := os.UserHomeDir(); err == nil {
		noChildren[strings.ToLower(filepath.Dir(home))] = true // /home, C:\Users: other people's folders
	}
	for _, start := range starts {
		if start == "" {
			continue
		}
		start, _ = filepath.Abs(start)
		walk(start, nearbyDepth)
		for dir := start; ; {
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
			if filepath.Dir(dir) == dir || noChildren[strings.ToLower(dir)] {
				look(dir) // the root, the temporary folder, the users' folder: itself only
				continue
			}
			walk(dir, 1)
		}
	}
	return found
}

// ComfyDesktopVenv is where ComfyUI Desktop keeps its environment by default, under the user's
// Documents folder.
func ComfyDesktopVenv(home string) string {
	if home == "" {
		return ""
	}
	return filepath.Join(home, filepath.FromSlash(comfyDesktopVenvRel))
}

// layoutPython is the Python version an embedded Python or a prefix names in its files: its
// python3XX._pth or python3.X, or its lib/python3.X folder ("3.11"); "" when none says.
func layoutPython(l pyenv.Layout) string {
	for _, name := range []string{filepath.Base(l.Pth), filepath.Base(l.Python)} {
		n := strings.TrimSuffix(strings.TrimSuffix(strings.ToLower(name), "._pth"), ".exe")
		n = strings.TrimPrefix(n, "python")
		switch {
		case strings.HasPrefix(n, "3.") && len(n) > 2:
			return n
		case strings.HasPrefix(n, "3") && len(n) > 1 && !strings.ContainsAny(n, "._-"):
			return "3." + n[1:]
		}
	}
	for _, lib := range []string{"lib", "Lib"} {
		m, _ := filepath.Glob(filepath.Join(l.Root, lib, "python3.*"))
		if len(m) == 1 {
			return strings.TrimPrefix(filepath.Base(m[0]), "python")
		}
	}
	return ""
}

// externallyManaged reports PEP 668's marker in a prefix's standard library (lib/python3.X).
func externallyManaged(root string) bool {
	m, _ := filepath.Glob(filepath.Join(root, "lib", "python3*", "EXTERNALLY-MANAGED"))
	return len(m) > 0
}
