package ui

import "strings"

// Summary is what the wizard prints on the normal screen after it closes, so the activation
// commands and paths stay in the scrollback.
func (m *Model) Summary() string {
	if m.ch.outcome == nil {
		return ""
	}
	var b strings.Builder
	o := m.ch.outcome
	b.WriteString("gpuwiz: " + o.Result)
	if m.ch.venv != "" {
		b.WriteString(" in " + m.ch.venv)
	}
	b.WriteString("\n")
	if o.OK && m.ch.venv != "" {
		a := m.c.Backend.Activation(m.ch.venv)
		if a.PowerShell != "" {
			b.WriteString("  PowerShell: " + a.PowerShell + "\n")
		}
		if a.Cmd != "" {
			b.WriteString("  cmd:        " + a.Cmd + "\n")
		}
		if a.Posix != "" {
			b.WriteString("  sh:         " + a.Posix + "\n")
		}
	}
	if o.LockFile != "" {
		b.WriteString("  lock file:  " + o.LockFile + "\n")
	}
	if o.LogPath != "" {
		b.WriteString("  log:        " + o.LogPath + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}
