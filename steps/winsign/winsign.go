// Package winsign checks a file's embedded Authenticode signature with Windows' WinVerifyTrust and
// reads the names of the certificates it carries (winsign_windows.go); the driver's and the Visual
// C++ redistributable's installers are checked with it. Off Windows it has nothing.
package winsign
