// Package winetest runs the real Windows build of gpuwiz (gpuwiz.exe, GOOS=windows CGO_ENABLED=0)
// under Wine in a private prefix and checks what it prints: registry-backed doctor checks, Python
// discovery through a stand-in py launcher, install's Windows layout, and the wizard in tmux.
// Without Wine the tests skip, except under CI=true, where they fail. docs/windows.md lists what
// this proves and what still needs a real Windows 10 machine.
package winetest
