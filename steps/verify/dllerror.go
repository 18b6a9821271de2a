package verify

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"

	"gpuwiz/steps/dllver"
	"gpuwiz/steps/i18n"
)

// DLLError is a Windows DLL that failed to load in a framework's import: WinError 126 (the DLL, or
// one it needs, was not found) or 1114 (it was found, but its initialisation failed), with the DLL
// the error names.
type DLLError struct {
	Code int    `json:"code"` // 126 or 1114
	DLL  string `json:"dll,omitempty"`
}

var (
	winErrorRe = regexp.MustCompile(`\[WinError (\d+)\]`)
	loadingRe  = regexp.MustCompile(`Error loading "([^"]+)"`)
)

// The messages Windows gives for the two codes, in English and Chinese, when Python prints them
// without the number (ImportError: DLL load failed while importing _C: ...).
var (
	notFoundTexts = []string{"the specified module could not be found", "找不到指定的模块"}                             //i18n:raw matched against Windows' own error text
	initTexts     = []string{"a dynamic link library (dll) initialization routine failed", "动态链接库(dll)初始化例程失败"} //i18n:raw matched against Windows' own error text
)

// ParseDLLError finds a WinError 126 or 1114 in an import error's text.
func ParseDLLError(text string) (DLLError, bool) {
	var e DLLError
	if m := winErrorRe.FindStringSubmatch(text); m != nil {
		e.Code, _ = strconv.Atoi(m[1])
	}
	low := strings.ToLower(text)
	if e.Code == 0 {
		for _, s := range notFoundTexts {
			if strings.Contains(low, strings.ToLower(s)) {
				e.Code = 126
			}
		}
		for _, s := range initTexts {
			if strings.Contains(low, strings.ToLower(s)) {
				e.Code = 1114
			}
		}
	}
	if e.Code != 126 && e.Code != 1114 {
		return DLLError{}, false
	}
	if m := loadingRe.FindStringSubmatch(text); m != nil {
		e.DLL = m[1]
	}
	return e, true
}

// DLLCause is the cause and fix of a WinError 126 or 1114: different failures with different fixes.
func DLLCause(e DLLError) (cause, fix string) {
	dll := e.DLL
	if dll == "" {
		dll = i18n.T("verify.dll.unnamed")
	}
	if e.Code == 1114 {
		return i18n.T("verify.cause.dll_init", i18n.D{"DLL": dll}), i18n.T("verify.fix.dll_init")
	}
	return i18n.T("verify.cause.dll_not_found", i18n.D{"DLL": dll}), i18n.T("verify.fix.dll_not_found")
}

// runtimeEvidence names, on Windows, every msvcp140.dll the failing DLL's search finds and the one
// that loads: the DLL's own folder, python.exe's folder (a venv's base Python), System32, then PATH.
func runtimeEvidence(e DLLError, python string) string {
	if runtime.GOOS != "windows" {
		return ""
	}
	var dirs []dllver.Dir
	if e.DLL != "" {
		dirs = append(dirs, dllver.Dir{Path: filepath.Dir(e.DLL), From: "framework"})
	}
	dirs = append(dirs, dllver.Dir{Path: basePythonDir(python), From: "python"})
	root := os.Getenv("SystemRoot")
	if root == "" {
		root = `C:\Windows`
	}
	dirs = append(dirs, dllver.Dir{Path: filepath.Join(root, "System32"), From: "System32"})
	for _, p := range filepath.SplitList(os.Getenv("PATH")) {
		dirs = append(dirs, dllver.Dir{Path: p, From: "PATH"})
	}
	join := func(dir, name string) string { return filepath.Join(dir, name) }
	copies := dllver.FindCopies("msvcp140.dll", dirs, join, os.ReadFile)
	var lines []string
	for _, c := range copies {
		v := c.Version
		if v == "" {
			v = "?"
		}
		if c.Loads {
			lines = append(lines, i18n.T("verify.dll.copy_loads", i18n.D{"Path": c.Path, "Version": v}))
		} else {
			lines = append(lines, i18n.T("verify.dll.copy", i18n.D{"Path": c.Path, "Version": v}))
		}
	}
	if len(lines) == 0 {
		return i18n.T("verify.dll.no_copy")
	}
	return strings.Join(lines, "\n")
}

// basePythonDir is the folder of the python.exe that runs: a venv's base Python (pyvenv.cfg's
// home), else python's own folder.
func basePythonDir(python string) string {
	dir := filepath.Dir(python)
	for _, cfg := range []string{filepath.Join(dir, "..", "pyvenv.cfg"), filepath.Join(dir, "pyvenv.cfg")} {
		data, err := os.ReadFile(cfg)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(data), "\n") {
			if k, v, ok := strings.Cut(line, "="); ok && strings.TrimSpace(k) == "home" {
				return strings.TrimSpace(v)
			}
		}
	}
	return dir
}
