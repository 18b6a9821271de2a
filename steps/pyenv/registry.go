package pyenv

import "strings"

// RegistryEntry is one PEP 514 registration: HKCU/HKLM\Software\Python\<Company>\<Tag>.
type RegistryEntry struct {
	Hive            string // "HKCU", "HKLM", "HKLM-32" (WOW6432Node)
	Company         string // "PythonCore", "ContinuumAnalytics", ...
	Tag             string // "3.11", "3.11-32"
	InstallPath     string // InstallPath's default value
	ExecutablePath  string // InstallPath\ExecutablePath, when set
	Version         string
	SysArchitecture string // "64bit" / "32bit"
}

// RegistryReader lists PEP 514 entries; the real one reads the Windows registry.
type RegistryReader interface {
	PythonEntries() ([]RegistryEntry, error)
}

// Executable is the entry's python.exe: ExecutablePath, else InstallPath\python.exe (PEP 514).
// The py launcher's own "PyLauncher" company has no interpreter and gives "".
func (e RegistryEntry) Executable() string {
	if e.Company == "PyLauncher" {
		return ""
	}
	if e.ExecutablePath != "" {
		return e.ExecutablePath
	}
	if e.InstallPath == "" {
		return ""
	}
	return strings.TrimRight(e.InstallPath, "\\") + "\\python.exe"
}
