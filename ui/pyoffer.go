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
	how := offerHow(o)
	switch {
	case o.CanInstall:
		return i18n.T("ui.venv.offer.install", i18n.D{"Why": why, "Minor": o.Minor, "How": how})
	case o.Command != "":
		return i18n.T("ui.venv.offer.command", i18n.D{"Why": why, "Minor": o.Minor, "How": how})
	}
	return strings.TrimSpace(i18n.T("ui.venv.offer.manual", i18n.D{"Why": why, "Minor": o.Minor, "How": how}))
}

// offerHow is how the Python would be got, in words: "with winget (for you alone, ...)", "from your
// distribution's packages", or why it cannot be got here.
func offerHow(o app.PythonOffer) string {
	switch {
	case o.Err != nil:
		return o.Err.Error()
	case o.Method == app.PythonByDistro && o.NeedsRoot:
		return i18n.T("ui.venv.how.distro_root")
	case o.Method == app.PythonByDistro:
		return i18n.T("ui.venv.how.distro")
	}
	method := o.Method
	if method == app.PythonByInstaller {
		method = i18n.T("ui.venv.how.installer")
	}
	return i18n.T("ui.venv.how.self", i18n.D{"Method": method})
}
