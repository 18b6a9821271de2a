package main

import "golang.org/x/sys/windows/registry"

// register writes the PEP 514 entry the per-user python.org installer writes.
func register(minor, dir string) error {
	k, _, err := registry.CreateKey(registry.CURRENT_USER, `Software\Python\PythonCore\`+minor+`\InstallPath`, registry.ALL_ACCESS)
	if err != nil {
		return err
	}
	defer k.Close()
	if err := k.SetStringValue("", dir+`\`); err != nil {
		return err
	}
	return k.SetStringValue("ExecutablePath", dir+`\python.exe`)
}

func unregister(minor string) {
	base := `Software\Python\PythonCore\` + minor
	_ = registry.DeleteKey(registry.CURRENT_USER, base+`\InstallPath`)
	_ = registry.DeleteKey(registry.CURRENT_USER, base)
}
