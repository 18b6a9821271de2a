package cli

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

func init() { register(41, newVenvCmd) }

type venvReport struct {
	Root          string   `json:"root"`
	Python        string   `json:"python"`         // the venv's interpreter
	BasePython    string   `json:"base_python"`    // the interpreter that made it ("" when reused)
	Created       bool     `json:"created"`        // false: an existing venv was reused
	ActivateHints []string `json:"activate_hints"` // one line per shell
	Warnings      []string `json:"warnings,omitempty"`
	Errors        []string `json:"errors,omitempty"`
}

// venvOptions is what `gpuwiz venv` was asked (its flags) and the streams it talks on.
type venvOptions struct {
	streams
	Path   string // the argument: where the venv goes
	Python string // --python: the interpreter the venv is made from
}

func newVenvCmd(env *Env) *cobra.Command {
	return newCommand(env, command[venvOptions]{
		use:   "venv PATH", //i18n:raw a usage line: the command and its argument's name
		short: i18n.T("cli.venv.short"),
		args:  cobra.ExactArgs(1),
		json:  i18n.T("cli.flag.json"),
		flags: func(cmd *cobra.Command, o *venvOptions) {
			cmd.Flags().StringVar(&o.Python, "python", "", i18n.T("cli.venv.flag.python"))
		},
		prepare: func(_ *cobra.Command, args []string, o *venvOptions) error {
			o.Path = args[0]
			return nil
		},
		run: venvRun,
	})
}

// venvRun makes the venv at o.Path unless one is there and says how to enter it.
func venvRun(ctx context.Context, env *Env, o venvOptions) error {
	asJSON, python := o.JSON, o.Python
	root, err := app.CleanPath(o.Path)
	if err != nil {
		return Usagef("%s", i18n.T("cli.venv.bad_path", i18n.D{"Path": strconv.Quote(o.Path), "Err": err}))
	}
	rep := venvReport{Root: root}
	check := app.CheckVenvPath(root, runtime.GOOS)
	rep.Warnings = check.Warnings
	if !check.OK() {
		rep.Errors = check.Errors
		if asJSON {
			_ = writePyenvJSON(o.Out, rep)
		}
		return Usagef("%s", strings.Join(check.Errors, "; "))
	}
	v := app.Venv{Root: root}
	made, err := app.MakeVenv(ctx, root, python)
	if err != nil {
		return err
	}
	warnNotRecorded(o.ErrOut, made.RecordErr)
	rep.BasePython, rep.Created = made.BasePython, made.Created
	rep.Warnings = append(rep.Warnings, made.Warnings...)
	rep.Python = v.Python()
	rep.ActivateHints = v.ActivateHints()
	if asJSON {
		return writePyenvJSON(o.Out, rep)
	}
	w := o.Out
	if rep.Created {
		fmt.Fprintln(w, i18n.T("cli.venv.created", i18n.D{"Path": root}))
	} else {
		fmt.Fprintln(w, i18n.T("cli.venv.reused", i18n.D{"Kind": v.Kind(), "Path": root}))
	}
	if rep.BasePython != "" {
		fmt.Fprintln(w, "  "+i18n.T("cli.venv.made_with", i18n.D{"Python": rep.BasePython}))
	}
	for _, warn := range rep.Warnings {
		fmt.Fprintln(w, "  "+i18n.T("cli.warning", i18n.D{"Text": warn}))
	}
	fmt.Fprintln(w, i18n.T("cli.venv.to_use"))
	for _, h := range rep.ActivateHints {
		fmt.Fprintf(w, "  %s\n", h)
	}
	return nil
}
