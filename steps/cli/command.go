package cli

import (
	"context"
	"encoding/json"
	"io"
	"runtime"

	"github.com/spf13/cobra"

	"gpuwiz/steps/shellquote"
)

// streams are where a command talks, and --json: whether stdout gets one JSON document instead of
// text. Every xxxOptions embeds it; the command's setup (newCommand) fills the streams before xxxRun.
type streams struct {
	In          io.Reader
	Out, ErrOut io.Writer
	Interactive bool // a person can answer on In
	JSON        bool // --json
}

// talksOn is the streams of the options that embed them (newCommand fills them through it).
func (s *streams) talksOn() *streams { return s }

// command declares one command: what its help says, its flags on its options (a xxxOptions that
// embeds streams), and its run, xxxRun(ctx, env, opts).
type command[O any] struct {
	use, short, long, example string
	args                      cobra.PositionalArgs // nil: no arguments
	json                      string               // --json's help; "": no --json, or the flags declare it
	opts                      *O                   // the options to fill: a subcommand shares its parent's; nil: its own
	flags                     func(cmd *cobra.Command, o *O)
	// prepare reads what the flags alone do not give (the arguments, an answer file, which flags
	// were set) and refuses flags that do not go together, before the run.
	prepare func(cmd *cobra.Command, args []string, o *O) error
	run     func(ctx context.Context, env *Env, o O) error
}

// newCommand builds c's cobra command: its flags bound to its options, a run that fills the
// streams, prepares and calls c.run.
func newCommand[O any, P interface {
	*O
	talksOn() *streams
}](env *Env, c command[O]) *cobra.Command {
	o := c.opts
	if o == nil {
		o = new(O)
	}
	if c.args == nil {
		c.args = cobra.NoArgs
	}
	cmd := &cobra.Command{Use: c.use, Short: c.short, Long: c.long, Example: c.example, Args: c.args,
		RunE: func(cmd *cobra.Command, args []string) error {
			s := P(o).talksOn()
			s.In, s.Out, s.ErrOut, s.Interactive = cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr(), interactive(cmd)
			if c.prepare != nil {
				if err := c.prepare(cmd, args, o); err != nil {
					return err
				}
			}
			return c.run(cmd.Context(), env, *o)
		}}
	if c.json != "" {
		cmd.Flags().BoolVar(&P(o).talksOn().JSON, "json", false, c.json)
	}
	if c.flags != nil {
		c.flags(cmd, o)
	}
	return cmd
}

// show writes v as the JSON document with --json, else as text.
func show[T any](s streams, v T, text func(io.Writer, T)) error {
	if s.JSON {
		return writeJSON(s.Out, v)
	}
	text(s.Out, v)
	return nil
}

// writeJSON writes v as --json answers: indented by two spaces, one document.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// writeJSONError is the one JSON object of a --json run that ends before it answered: its exit code
// and why, so a script that parses stdout gets an answer on every host.
func writeJSONError(w io.Writer, code int, msg string) {
	_ = writeJSON(w, struct {
		ExitCode int    `json:"exit_code"`
		Error    string `json:"error"`
	}{code, msg})
}

// gpuwizLine is a gpuwiz command for the user to type, quoted for this system's shell.
func gpuwizLine(args ...string) string {
	return shellquote.Command(runtime.GOOS, append([]string{"gpuwiz"}, args...)...)
}

// endWith ends the command with code, after it printed its answer: nil for ExitOK.
func endWith(code int) error {
	if code != ExitOK {
		return Silent(code)
	}
	return nil
}
