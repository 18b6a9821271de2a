//go:build !windows

package pyenv

// ReadLongPaths has nothing to read off Windows.
func ReadLongPaths() LongPaths { return LongPaths{} }
