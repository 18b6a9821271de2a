package doctor

import (
	"gpuwiz/steps/dllver"
)

// RuntimeCopy is one msvcp140.dll in a folder the loader searches, with its file version.
type RuntimeCopy = dllver.Copy

// vcRuntimeDLL is the VC++ runtime DLL whose version decides (pytorch/pytorch#169429: c10.dll
// needs msvcp140.dll 14.40 from torch 2.9 on).
const vcRuntimeDLL = "msvcp140.dll"

// findRuntimeCopies lists every msvcp140.dll in the order the framework's DLLs search for it, and
// marks the first as the one that loads. Python 3.8 and later load an extension's dependencies with
// LOAD_LIBRARY_SEARCH_DEFAULT_DIRS (the DLL's own folder, the folder of python.exe — for a venv the
// base Python's, as a venv's python.exe starts it — folders added with os.add_dll_directory, then
// System32); PATH is searched only by a plain LoadLibrary, which torch tries when that fails. So:
// the framework's own library folder, python.exe's folder, System32, then PATH.
func findRuntimeCopies(fsys FS, goos string, env Environ, ev *Evidence) []RuntimeCopy {
	type dir struct{ path, from string }
	var dirs []dir
	if ev.SitePackages != "" {
		switch ev.installedFramework() {
		case "torch":
			dirs = append(dirs, dir{joinFor(goos, ev.SitePackages, "torch", "lib"), "framework"})
		case "paddle":
			dirs = append(dirs, dir{joinFor(goos, ev.SitePackages, "paddle", "libs"), "framework"})
		}
	}
	if app := pythonAppDir(ev, goos); app != "" {
		dirs = append(dirs, dir{app, "python"})
	}
	root := getenv(env, "SystemRoot")
	if root == "" {
		root = `C:\Windows`
	}
	dirs = append(dirs, dir{joinFor(goos, root, "System32"), "System32"})
	for _, p := range pathList(goos, getenv(env, "PATH")) {
		dirs = append(dirs, dir{p, "PATH"})
	}
	var ds []dllver.Dir
	for _, d := range dirs {
		ds = append(ds, dllver.Dir{Path: d.path, From: d.from})
	}
	join := func(dir, name string) string { return joinFor(goos, dir, name) }
	return dllver.FindCopies(vcRuntimeDLL, ds, join, fsys.ReadFile)
}

// pythonAppDir is the folder of the python.exe that runs: a venv's base Python, else the
// interpreter's own folder.
func pythonAppDir(ev *Evidence, goos string) string {
	if ev.Venv != "" && ev.Python.BasePrefix != "" {
		return ev.Python.BasePrefix
	}
	exe := ev.Python.Executable
	if exe == "" {
		exe = ev.Python.Path
	}
	if exe == "" {
		return ""
	}
	return parentFor(goos, exe)
}

// parentFor is the folder holding p, by goos's separators.
func parentFor(goos, p string) string {
	i := len(p) - 1
	for i >= 0 && p[i] != '/' && (goos != "windows" || p[i] != '\\') {
		i--
	}
	if i <= 0 {
		return ""
	}
	return p[:i]
}
