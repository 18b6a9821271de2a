package pyenv

import (
	"runtime"
	"strings"
)

var goosRuntime = runtime.GOOS

// classify names the kind of Python from its path and what it said about itself.
func classify(path string, d description, goos string) string {
	p := strings.ToLower(strings.ReplaceAll(path, "\\", "/"))
	switch {
	case d.Prefix != "" && d.BasePrefix != "" && d.Prefix != d.BasePrefix:
		return "venv"
	case IsStorePath(path):
		return "store"
	case d.Conda || strings.Contains(p, "/conda") || strings.Contains(p, "/anaconda") || strings.Contains(p, "/miniconda") || strings.Contains(p, "/miniforge"):
		return "conda"
	case strings.Contains(p, "/.pyenv/") || strings.Contains(p, "/pyenv-win/"):
		return "pyenv"
	case goos == "windows" && (strings.Contains(p, "/programs/python/python") || strings.Contains(p, "/program files/python") || strings.Contains(p, ":/python")):
		return "python.org"
	case goos == "darwin" && strings.Contains(p, "/library/frameworks/python.framework/"):
		return "python.org"
	case goos != "windows" && (strings.HasPrefix(p, "/usr/bin/") || strings.HasPrefix(p, "/bin/") || strings.HasPrefix(p, "/usr/local/bin/")):
		return "system"
	}
	return "unknown"
}

// IsStorePath reports a Microsoft Store Python: its files live under
// WindowsApps\PythonSoftwareFoundation.Python.3.x_... (FACTS §7 item 8).
func IsStorePath(path string) bool {
	p := strings.ToLower(strings.ReplaceAll(path, "\\", "/"))
	return strings.Contains(p, "/windowsapps/pythonsoftwarefoundation.python.")
}

// isStoreAlias reports the App Execution Alias stub %LOCALAPPDATA%\Microsoft\WindowsApps\python.exe,
// which opens the Store instead of running Python when no Store Python is installed.
func isStoreAlias(path, goos string) bool {
	if goos != "windows" {
		return false
	}
	p := strings.ToLower(strings.ReplaceAll(path, "\\", "/"))
	return strings.Contains(p, "/microsoft/windowsapps/")
}
