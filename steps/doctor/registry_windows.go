//go:build windows

package doctor

import (
	"errors"
	"fmt"

	"golang.org/x/sys/windows"
	"golang.org/x/sys/windows/registry"
)

// WindowsRegistry reads the real registry's 64-bit view.
type WindowsRegistry struct{}

// SystemRegistry is the machine's registry on Windows and nil elsewhere.
func SystemRegistry() Registry { return WindowsRegistry{} }

func rootKey(root string) (registry.Key, error) {
	switch root {
	case "HKLM":
		return registry.LOCAL_MACHINE, nil
	case "HKCU":
		return registry.CURRENT_USER, nil
	}
	return 0, fmt.Errorf("unknown registry root %q", root) //i18n:raw the roots are doctor's own constants: a programming error, for developers
}

func open(root, path string) (registry.Key, error) {
	rk, err := rootKey(root)
	if err != nil {
		return 0, err
	}
	k, err := registry.OpenKey(rk, path, registry.QUERY_VALUE|registry.WOW64_64KEY)
	if errors.Is(err, registry.ErrNotExist) || errors.Is(err, windows.ERROR_FILE_NOT_FOUND) {
		return 0, ErrNotExist
	}
	return k, err
}

func (WindowsRegistry) KeyExists(root, path string) (bool, error) {
	k, err := open(root, path)
	if errors.Is(err, ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	k.Close()
	return true, nil
}

func (WindowsRegistry) DWORD(root, path, name string) (uint32, error) {
	k, err := open(root, path)
	if err != nil {
		return 0, err
	}
	defer k.Close()
	v, _, err := k.GetIntegerValue(name)
	if errors.Is(err, registry.ErrNotExist) || errors.Is(err, windows.ERROR_FILE_NOT_FOUND) {
		return 0, ErrNotExist
	}
	return uint32(v), err
}

func (WindowsRegistry) String(root, path, name string) (string, error) {
	k, err := open(root, path)
	if err != nil {
		return "", err
	}
	defer k.Close()
	v, _, err := k.GetStringValue(name)
	if errors.Is(err, registry.ErrNotExist) || errors.Is(err, windows.ERROR_FILE_NOT_FOUND) {
		return "", ErrNotExist
	}
	return v, err
}
