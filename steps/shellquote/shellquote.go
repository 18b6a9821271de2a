// Package shellquote writes a command gpuwiz shows to copy so that it pastes and runs as is: one
// function per shell (POSIX sh/bash/zsh, Windows cmd, PowerShell) and Command, the line for the
// shells of an OS. Every command on a screen, in a hint or in a file header is written here.
package shellquote

import "strings"

// posixSafe are the bytes an argument may hold and still need no quotes in sh.
func posixSafe(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case strings.ContainsRune("-_./:=+,@%", r):
		default:
			return false
		}
	}
	return true
}

// PosixArg is s for sh: as is when it holds only safe characters, else in single quotes (a ' in it
// becomes '\”). A ~ is always quoted: it is part of a path, never the home directory.
func PosixArg(s string) string {
	if posixSafe(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Posix is argv as one sh command line.
func Posix(argv ...string) string { return join(argv, PosixArg) }

// CmdArg is s for cmd.exe: in double quotes when it holds a space or one of cmd's operators. A
// Windows path cannot hold ", so a quoted path is always whole. (cmd expands %VAR% even in quotes;
// gpuwiz's paths are expanded before they are shown, so none is left.)
func CmdArg(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t&|<>^(),;=!%\"'`") {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// Cmd is argv as one cmd.exe command line.
func Cmd(argv ...string) string { return join(argv, CmdArg) }

// PowerShellArg is s for PowerShell: as is when safe, else in single quotes (no expansion at all;
// a ' in it is doubled).
func PowerShellArg(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t&|<>(){}@#$`,;'\"") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// PowerShell is argv as one PowerShell command line; a quoted program is run with the call operator
// (& 'C:\a b\python.exe' ...), since a quoted string alone is only a string there.
func PowerShell(argv ...string) string {
	line := join(argv, PowerShellArg)
	if len(argv) > 0 && strings.HasPrefix(line, "'") {
		return "& " + line
	}
	return line
}

// Windows is argv as one line that runs the same in cmd and in PowerShell, when there is one:
// double quotes mean the same to both as long as no argument holds $ ` % ' and the program needs
// no quotes. Otherwise it is the PowerShell line (Windows Terminal's default shell).
func Windows(argv ...string) string {
	both := len(argv) > 0 && CmdArg(argv[0]) == argv[0] && PowerShellArg(argv[0]) == argv[0]
	for _, a := range argv {
		if strings.ContainsAny(a, "$`%'\"") {
			both = false
		}
	}
	if !both {
		return PowerShell(argv...)
	}
	return join(argv, func(s string) string {
		if CmdArg(s) == s && PowerShellArg(s) == s {
			return s
		}
		return `"` + s + `"`
	})
}

// Command is argv as the line to copy on goos: Windows's (cmd and PowerShell) or a POSIX shell's.
func Command(goos string, argv ...string) string {
	if goos == "windows" {
		return Windows(argv...)
	}
	return Posix(argv...)
}

func join(argv []string, q func(string) string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = q(a)
	}
	return strings.Join(out, " ")
}

// PowerShellCall is argv run with PowerShell's call operator, always (& 'C:\my venv\Scripts\Activate.ps1'):
// the form for running a script by its path.
func PowerShellCall(argv ...string) string { return "& " + join(argv, PowerShellArg) }
