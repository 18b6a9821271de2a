package ui

import (
	"context"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

type pythonInstalledMsg struct {
	addr
	in  app.Interpreter
	err error
}

func installPythonCmd(to screenID, ctx context.Context, g PythonGetter, minor string) tea.Cmd {
	return func() tea.Msg {
		in, err := g.InstallPython(ctx, minor)
		return pythonInstalledMsg{addr{to}, in, err}
	}
}

// offerText is the screen's sentence: what to install, how, and the key or command.
func offerText(o app.PythonOffer, why string) string {
	switch {
	case o.CanInstall:
		return i18n.T("ui.venv.offer.install", i18n.D{"Why": why, "Minor": o.Minor, "How": o.How})
	case o.Command != "":
		return i18n.T("ui.venv.offer.command", i18n.D{"Why": why, "Minor": o.Minor, "How": o.How})
	}
	return strings.TrimSpace(i18n.T("ui.venv.offer.manual", i18n.D{"Why": why, "Minor": o.Minor, "How": o.How}))
}
