package doctor

import (
	"errors"
	"fmt"
)

// ErrNotExist is what a Registry returns for a missing key or value.
var ErrNotExist = errors.New("registry key or value does not exist") //i18n:raw a sentinel the checks compare with errors.Is; it is never shown

// Registry reads Windows registry values; root is "HKLM" or "HKCU". Missing keys and values are ErrNotExist.
type Registry interface {
	KeyExists(root, path string) (bool, error)
	DWORD(root, path, name string) (uint32, error)
	String(root, path, name string) (string, error)
}

// readRegistryFacts reads the settings the Windows checks need.
func readRegistryFacts(r Registry) RegistryFacts {
	f := RegistryFacts{Read: r != nil}
	if r == nil {
		return f
	}
	note := func(what string, err error) {
		if err != nil && !errors.Is(err, ErrNotExist) {
			f.RegistryErrors = append(f.RegistryErrors, fmt.Sprintf("%s: %v", what, err))
		}
	}
	for _, k := range vcRuntimeKeys {
		ok, err := r.KeyExists("HKLM", k)
		note(k, err)
		if !ok {
			continue
		}
		f.VCRuntimeFound, f.VCRuntimeKey = true, k
		v, err := r.DWORD("HKLM", k, "Installed")
		note(k+` Installed`, err)
		f.VCRuntimeInstalled = v
		s, err := r.String("HKLM", k, "Version")
		note(k+` Version`, err)
		f.VCRuntimeVersion = s
		if v == 1 {
			break
		}
	}
	v, err := r.DWORD("HKLM", fileSystemKey, "LongPathsEnabled")
	note(fileSystemKey+" LongPathsEnabled", err)
	f.LongPathsFound, f.LongPathsEnabled = err == nil, v
	return f
}
