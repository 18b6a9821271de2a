package pyenv

import (
	"golang.org/x/sys/windows/registry"
)

func defaultRegistry() RegistryReader { return windowsRegistry{} }

// windowsRegistry reads PEP 514 entries from the three places PEP 514 names.
type windowsRegistry struct{}

func (windowsRegistry) PythonEntries() ([]RegistryEntry, error) {
	roots := []struct {
		hive string
		key  registry.Key
		path string
		view uint32
	}{
		{"HKCU", registry.CURRENT_USER, `Software\Python`, 0},
		{"HKLM", registry.LOCAL_MACHINE, `Software\Python`, registry.WOW64_64KEY},
		{"HKLM-32", registry.LOCAL_MACHINE, `Software\Python`, registry.WOW64_32KEY},
	}
	var out []RegistryEntry
	for _, r := range roots {
		k, err := registry.OpenKey(r.key, r.path, registry.READ|r.view)
		if err != nil {
			continue
		}
		companies, _ := k.ReadSubKeyNames(-1)
		for _, c := range companies {
			ck, err := registry.OpenKey(k, c, registry.READ|r.view)
			if err != nil {
				continue
			}
			tags, _ := ck.ReadSubKeyNames(-1)
			for _, t := range tags {
				e := RegistryEntry{Hive: r.hive, Company: c, Tag: t}
				if tk, err := registry.OpenKey(ck, t, registry.READ|r.view); err == nil {
					e.Version, _, _ = tk.GetStringValue("Version")
					e.SysArchitecture, _, _ = tk.GetStringValue("SysArchitecture")
					tk.Close()
				}
				if ik, err := registry.OpenKey(ck, t+`\InstallPath`, registry.READ|r.view); err == nil {
					e.InstallPath, _, _ = ik.GetStringValue("")
					e.ExecutablePath, _, _ = ik.GetStringValue("ExecutablePath")
					ik.Close()
				}
				out = append(out, e)
			}
			ck.Close()
		}
		k.Close()
	}
	return out, nil
}
