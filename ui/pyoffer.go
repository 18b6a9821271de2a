package ui

import (
	"context"
	"fmt"
	"runtime"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"gpuwiz/steps/cli"
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
	minor := cli.RecommendedPython(b.env)
	off := PythonOffer{Minor: minor}
	p, err := pyget.MakePlan(pyget.Options{Version: minor})
	switch {
	case err != nil:
		off.How = err.Error()
	case p.Method == pyget.MethodDistro && p.Fix != nil:
		off.How, off.Command = "from your distribution (gpuwiz does not run a package manager as root)", p.Fix.Command
	case p.Method == pyget.MethodDistro:
		off.How = "from your distribution's packages"
	default:
		off.CanInstall = runtime.GOOS == "windows"
		off.How = "with " + p.Method + " (for you alone, no administrator rights)"
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
		return fmt.Sprintf("%s Press enter to install Python %s %s; or install it yourself and run gpuwiz again.", why, o.Minor, o.How)
	case o.Command != "":
		return fmt.Sprintf("%s Install Python %s %s: run the command below, then run gpuwiz again.", why, o.Minor, o.How)
	}
	return strings.TrimSpace(fmt.Sprintf("%s Install 64-bit Python %s %s, then run gpuwiz again.", why, o.Minor, o.How))
}
