// Package cli holds gpuwiz's subcommands: flags in, the application layer's sessions (steps/app) run,
// human or JSON output out. It never imports bubbletea; the wizard is handed in by main as Build.Wizard.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

// Exit codes and the global flags are the application layer's (steps/app), named here too.
const (
	ExitOK           = app.ExitOK
	ExitFailure      = app.ExitFailure
	ExitUsage        = app.ExitUsage
	ExitIncompatible = app.ExitIncompatible
	ExitVerifyFailed = app.ExitVerifyFailed
	ExitProblems     = app.ExitProblems
	ExitInterrupted  = app.ExitInterrupted
)

// Globals are the persistent flags every command sees.
type Globals = app.Globals

// WizardFunc starts the terminal UI and returns the process exit code.
type WizardFunc func(ctx context.Context, g Globals, stdin io.Reader, stdout, stderr io.Writer) int

// BenchScreenFunc shows the live benchmark screen alone (`gpuwiz bench --tui`) and returns the exit code.
type BenchScreenFunc func(ctx context.Context, env *app.Env, python, framework string, opts app.BenchOptions) int

// Build carries what main hands to the CLI.
type Build struct {
	Version     string // stamped at release: -X main.version, main.commit, main.date (see version.go)
	Commit      string
	Date        string
	Wizard      WizardFunc
	BenchScreen BenchScreenFunc
}

// ExitError makes a command end with a given exit code and message.
type ExitError = app.ExitError

// Usagef is a bad-input error: exit code 2 with a message that says what to do.
func Usagef(format string, a ...any) error { return app.Usagef(format, a...) }

// Exitf ends the command with code and message.
func Exitf(code int, format string, a ...any) error { return app.Exitf(code, format, a...) }

// Silent ends the command with code and no further message (the command already printed its output).
func Silent(code int) error { return app.Silent(code) }

// Env is what every command's constructor receives: the run's environment and what main handed in.
type Env struct {
	*app.Env
	Build Build
}

type commandFactory struct {
	order int
	make  func(*Env) *cobra.Command
}

var factories []commandFactory

// register adds a subcommand; each command file calls it from init, so files never edit one list.
func register(order int, make func(*Env) *cobra.Command) {
	factories = append(factories, commandFactory{order, make})
}

// NewRoot builds the cobra tree; exported for tests.
func NewRoot(b Build) (*cobra.Command, *Env) {
	env := &Env{Env: &app.Env{G: &Globals{}}, Build: b}
	root := &cobra.Command{
		Use:           "gpuwiz",
		Short:         i18n.T("cli.root.short"),
		Long:          i18n.T("cli.root.long"),
		Version:       versionString(b, readBuildInfo),
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if b.Wizard == nil {
				return Exitf(ExitFailure, "%s", i18n.T("cli.root.no_wizard"))
			}
			// The wizard finds the terminal behind the stdout wrapper through its Unwrap.
			return endWith(b.Wizard(cmd.Context(), *env.G, cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr()))
		},
	}
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error {
		if env.G.SimulateFile == "" {
			return nil
		}
		if cmd != root && cmd.Name() != "gpu" {
			stderr := cmd.ErrOrStderr()
			env.OnSimulate = func(n app.SimulateNotice) { sayingSimulate(stderr, n) }
		}
		// A bad --simulate file stops every command before it does anything (exit 2): a command that
		// went on would judge this machine as if it had no GPU.
		_, err := env.GPUProber()
		return err
	}
	root.SetVersionTemplate("gpuwiz {{.Version}}\n")
	pf := root.PersistentFlags()
	pf.Var(app.PathFlag(&env.G.MatrixFile), "matrix", i18n.T("cli.root.flag.matrix"))
	pf.Var(app.PathFlag(&env.G.SourcesFile), "sources", i18n.T("cli.root.flag.sources"))
	pf.Var(app.PathFlag(&env.G.SimulateFile), "simulate", i18n.T("cli.root.flag.simulate"))
	pf.BoolVar(&env.G.NoColor, "no-color", os.Getenv("NO_COLOR") != "", i18n.T("cli.root.flag.no_color"))
	pf.BoolVar(&env.G.ASCII, "ascii", false, i18n.T("cli.root.flag.ascii"))
	pf.String("lang", "", i18n.T("cli.root.flag.lang"))
	sort.SliceStable(factories, func(i, j int) bool { return factories[i].order < factories[j].order })
	for _, f := range factories {
		root.AddCommand(f.make(env))
	}
	localizeCobra(root)
	return root, env
}

// Execute runs the CLI with args and returns the exit code.
func Execute(b Build, args []string) int {
	if code, ok := chooseLanguage(args, os.Getenv, os.Stdout, os.Stderr); !ok {
		return code
	}
	defer consoleUTF8()()
	ctx, stop := signal.NotifyContext(context.Background(), interruptSignals...)
	defer stop()
	root, _ := NewRoot(b)
	return run(ctx, root, args, os.Stdout, os.Stderr)
}

// run executes root and returns the exit code. A command run with --json that fails before printing
// anything still prints one JSON object, {"exit_code": N, "error": "..."}, so a script that parses
// stdout gets an answer on every host (the message also goes to stderr, as always).
func run(ctx context.Context, root *cobra.Command, args []string, stdout, stderr io.Writer) int {
	// Everything a command prints goes through the one credential redaction (steps/urls): a URL
	// given with user:password@ or ?token= is used for its requests but never shown.
	stdout, stderr = app.RedactingWriter(stdout), app.RedactingWriter(stderr)
	out := &countingWriter{w: stdout}
	root.SetOut(out)
	root.SetErr(stderr)
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	err = cobraError(cmd, err)
	code := reportError(err, stderr, ctx)
	if code != ExitOK && out.n == 0 && cmd != nil {
		if f := cmd.Flags().Lookup("json"); f != nil && f.Value.String() == "true" {
			writeJSONError(stdout, code, errorText(err, ctx))
		}
	}
	return code
}

type countingWriter struct {
	w io.Writer
	n int
}

// Unwrap hands out the writer underneath (the terminal, for the wizard's checks).
func (c *countingWriter) Unwrap() io.Writer { return c.w }

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += n
	return n, err
}

// errorText is the message reportError prints, without the "gpuwiz: " prefix.
func errorText(err error, ctx context.Context) string {
	var ee *ExitError
	switch {
	case errors.As(err, &ee) && ee.Err != nil:
		return ee.Err.Error()
	case errors.As(err, &ee):
		return fmt.Sprintf("exit %d", ee.Code)
	case ctx.Err() != nil || errors.Is(err, context.Canceled):
		return i18n.T("cli.root.interrupted")
	}
	return err.Error()
}

func reportError(err error, stderr io.Writer, ctx context.Context) int {
	if err == nil {
		return ExitOK
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		if ee.Err != nil {
			fmt.Fprintln(stderr, i18n.Said(ee.Err))
		}
		return ee.Code
	}
	if ctx.Err() != nil || errors.Is(err, context.Canceled) {
		fmt.Fprintln(stderr, i18n.Said(i18n.T("cli.root.interrupted")))
		return ExitInterrupted
	}
	// cobra's own argument and unknown-command errors are usage errors.
	fmt.Fprintln(stderr, i18n.Said(err))
	if isUsageError(err) {
		return ExitUsage
	}
	return ExitFailure
}

// pythonFlag is --python as an interpreter's absolute path (a path, or a name on PATH such as
// python3), or a usage error that says which lookup failed.
func pythonFlag(python string) (string, error) {
	return app.PythonPath(python)
}

// confirmed asks question on out and reads the answer from in: y or yes, in any case, goes on.
func confirmed(in io.Reader, out io.Writer, question string) bool {
	fmt.Fprint(out, question)
	var answer string
	fmt.Fscanln(in, &answer)
	a := strings.ToLower(strings.TrimSpace(answer))
	return a == "y" || a == "yes"
}

// interactive says whether a person can answer a question on the command's stdin: a terminal.
func interactive(cmd *cobra.Command) bool {
	_, ok := app.Terminal(cmd.InOrStdin())
	return ok
}

// sayingSimulate says on stderr what the run does with the --simulate file: a warning on fields it
// does not know, the SIMULATED banner when its report is first used.
func sayingSimulate(stderr io.Writer, n app.SimulateNotice) {
	if n.Unknown != "" {
		fmt.Fprintln(stderr, i18n.Said(i18n.T("cli.warning", i18n.D{"Text": "--simulate " + n.Unknown})))
		return
	}
	fmt.Fprintln(stderr, i18n.Said(i18n.T("cli.simulated_banner", i18n.D{"File": n.File})))
}
