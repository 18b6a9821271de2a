//go:build !windows

package pyenv

func defaultRegistry() RegistryReader { return nil }
