//go:build !windows

package driver

// SystemVerifier is nil off Windows: CheckInstaller refuses with "no_check".
func SystemVerifier() Verifier { return nil }
