package ui

import (
	"strings"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

// Summary is what the wizard prints on the normal screen after it closes, so the activation
// commands and paths stay in the scrollback.
func (m *Model) Summary() string {
	if m.ch.outcome == nil {
		return ""
	}
	var b strings.Builder
	o := m.ch.outcome
	if m.ch.venv != "" {
		b.WriteString(i18n.T("ui.summary.result_in", i18n.D{"Result": resultWords(o.Result), "Venv": m.ch.venv}))
	} else {
		b.WriteString(i18n.T("ui.summary.result", i18n.D{"Result": resultWords(o.Result)}))
	}
	b.WriteString("\n")
	// The labels line up: each value starts one column after the widest label.
	type row struct{ label, value string }
	lock, log := i18n.T("ui.summary.label_lock"), i18n.T("ui.summary.label_log")
	col := max(i18n.Width("PowerShell:"), i18n.Width(lock), i18n.Width(log)) + 1
	var rows []row
	if o.OK && m.ch.venv != "" {
		a := m.c.Backend.Activation(m.ch.venv)
		rows = append(rows, row{"conda:", activationIn(a, app.ShellConda)}, row{"PowerShell:", activationIn(a, app.ShellPowerShell)},
			row{"cmd:", activationIn(a, app.ShellCmd)}, row{"sh:", activationIn(a, app.ShellPosix)})
	}
	rows = append(rows, row{lock, o.LockFile}, row{log, o.LogPath})
	for _, r := range rows {
		if r.value != "" {
			b.WriteString("  " + i18n.Pad(r.label, col) + r.value + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// resultWords is how an install or repair ended, in words; an ending the catalog does not know is
// shown as the engine named it.
func resultWords(result app.Result) string {
	switch result {
	case app.Installed:
		return i18n.T("ui.summary.installed")
	case app.Unchanged:
		return i18n.T("ui.summary.unchanged")
	case app.Restored:
		return i18n.T("ui.summary.restored")
	case app.Damaged:
		return i18n.T("ui.summary.damaged")
	case app.Cancelled:
		return i18n.T("ui.summary.cancelled")
	case app.Interrupted:
		return i18n.T("ui.summary.interrupted")
	case app.Failed:
		return i18n.T("ui.summary.failed")
	case app.Repaired:
		return i18n.T("ui.summary.repaired")
	case app.RepairFailed:
		return i18n.T("ui.summary.repair_failed")
	}
	return string(result)
}
