// Package ui is gpuwiz's terminal wizard: bubbletea models and views over the application layer
// (steps/app), which runs the sessions and writes every file; ui writes none.
package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

// restoreWait bounds how long gpuwiz waits, after the wizard closes, for a cancelled install to
// stop its children and put the environment back.
const restoreWait = 2 * time.Minute

// Run starts the wizard and returns the process exit code.
func Run(ctx context.Context, g app.Globals, stdin io.Reader, stdout, stderr io.Writer) int {
	env := &app.Env{G: &g}
	if code := checkInputs(ctx, env, stderr); code != 0 {
		return code
	}
	out, ok := app.Terminal(stdout)
	if !ok {
		fmt.Fprintln(stderr, i18n.T("ui.run.no_terminal"))
		return app.ExitUsage
	}
	// Without a terminal on stdin bubbletea reads end-of-file at once and the wizard would stop as
	// "interrupted" (exit 130) before drawing anything.
	in, ok := app.Terminal(stdin)
	if !ok {
		fmt.Fprintln(stderr, i18n.T("ui.run.stdin_not_terminal"))
		return app.ExitUsage
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	configureLipgloss(g.NoColor)
	c := NewCommon(ctx, g, app.NewWizard(env))
	m := NewModel(c)
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out), tea.WithAltScreen())
	final, err := p.Run()
	cancel()
	waitFor(m, restoreWait)
	if fm, ok := final.(*Model); ok {
		m = fm
	}
	switch {
	case errors.Is(err, tea.ErrInterrupted), errors.Is(err, tea.ErrProgramKilled), ctx.Err() != nil && err != nil:
		fmt.Fprintln(stderr, i18n.T("ui.run.interrupted"))
		return app.ExitInterrupted
	case err != nil:
		fmt.Fprintln(stderr, i18n.Said(err))
		return app.ExitFailure
	}
	if summary := m.Summary(); summary != "" {
		fmt.Fprintln(stdout, summary)
	}
	return m.ExitCode()
}

// checkInputs reads the --matrix and --simulate files before the screen is taken, so a bad file is
// a plain message and exit 2 rather than an error deep in the journey.
func checkInputs(ctx context.Context, env *app.Env, stderr io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintln(stderr, i18n.Said(err))
		var ee *app.ExitError
		if errors.As(err, &ee) {
			return ee.Code
		}
		return app.ExitUsage
	}
	if _, err := env.Matrix(); err != nil {
		return fail(err)
	}
	if _, err := env.Sources(); err != nil {
		return fail(err)
	}
	if env.G.SimulateFile != "" {
		if _, err := env.GPUReport(ctx); err != nil {
			return fail(err)
		}
	}
	return 0
}

// NewCommon builds the state every screen shares, from the global flags.
func NewCommon(ctx context.Context, g app.Globals, b App) *Common {
	keys := DefaultKeyMap()
	if g.ASCII {
		keys.asciiKeyHelp()
	}
	return &Common{Styles: NewStyles(g.ASCII), Keys: keys, Simulated: g.SimulateFile != "", OS: runtime.GOOS, Ctx: ctx, Backend: b}
}

// configureLipgloss settles colours before bubbletea owns stdin: the background query would
// otherwise race the program for the terminal's answer.
func configureLipgloss(noColor bool) {
	if noColor || os.Getenv("NO_COLOR") != "" {
		lipgloss.SetColorProfile(termenv.Ascii)
		return
	}
	lipgloss.SetHasDarkBackground(termenv.HasDarkBackground())
}

func waitFor(m *Model, limit time.Duration) {
	done := make(chan struct{})
	go func() { m.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(limit):
	}
}
