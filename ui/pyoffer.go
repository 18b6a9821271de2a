package ui

import (
	"context"
	"runtime"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pyget"
)

// PythonGetter is a Backend that can get a Python for this user when none suitable is found
// (optional: without it the Python screen gives the advice only).
type PythonGetter interface {
	// PythonOffer says how a Python would be got here.
	PythonOffer() PythonOffer
	// InstallPython installs it for this user (Windows) and returns the new interpreter.
	InstallPython(ctx context.Context, minor string) (Interpreter, error)
}

// PythonOffer is the Python the wizard offers to install and how.
type PythonOffer struct {
	Minor      string // "3.12"
	How        string // "with winget", "with the python.org installer", or the reason it cannot
	Command    string // the command the user runs themselves (Linux: the distribution's), "" when gpuwiz runs it
	CanInstall bool   // gpuwiz installs it itself (Windows)
}

func (b *stepsBackend) PythonOffer() PythonOffer {
	minor := b.env.RecommendedPython()
	off := PythonOffer{Minor: minor}
	p, err := pyget.MakePlan(pyget.Options{Version: minor})
	switch {
	case err != nil:
		off.How = err.Error()
	case p.Method == pyget.MethodDistro && p.Fix != nil:
		off.How, off.Command = i18n.T("ui.venv.how.distro_root"), p.Fix.Command
	case p.Method == pyget.MethodDistro:
		off.How = i18n.T("ui.venv.how.distro")
	default:
		off.CanInstall = runtime.GOOS == "windows"
		method := p.Method
		if method == pyget.MethodInstaller {
			method = i18n.T("ui.venv.how.installer")
		}
		off.How = i18n.T("ui.venv.how.self", i18n.D{"Method": method})
	}
	return off
}

func (b *stepsBackend) InstallPython(ctx context.Context, minor string) (Interpreter, error) {
	o := pyget.Options{Version: minor, Run: b.run}
	p, err := pyget.MakePlan(o)
	if err != nil {
		return Interpreter{}, err
	}
	res, err := pyget.Run(ctx, o, p)
	if err != nil {
		return Interpreter{}, err
	}
	in := res.Python
	return Interpreter{Path: in.Path, Version: in.Version, Bits: in.Bits, Kind: in.Kind, Source: in.Source, Warnings: in.Warnings}, nil
}

type pythonInstalledMsg struct {
	addr
	in  Interpreter
	err error
}

func installPythonCmd(to screenID, ctx context.Context, g PythonGetter, minor string) tea.Cmd {
	return func() tea.Msg {
		in, err := g.InstallPython(ctx, minor)
		return pythonInstalledMsg{addr{to}, in, err}
	}
}

// offerText is the screen's sentence: what to install, how, and the key or command.
func offerText(o PythonOffer, why string) string {
	switch {
	case o.CanInstall:
		return i18n.T("ui.venv.offer.install", i18n.D{"Why": why, "Minor": o.Minor, "How": o.How})
	case o.Command != "":
		return i18n.T("ui.venv.offer.command", i18n.D{"Why": why, "Minor": o.Minor, "How": o.How})
	}
	return strings.TrimSpace(i18n.T("ui.venv.offer.manual", i18n.D{"Why": why, "Minor": o.Minor, "How": o.How}))
}
