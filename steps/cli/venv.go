package cli

import (
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

func newVenvCmd(env *Env) *cobra.Command {
	var asJSON bool
	var python string
	cmd := &cobra.Command{
		Use:   "venv PATH", //i18n:raw a usage line: the command and its argument's name
		Short: i18n.T("cli.venv.short"),
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := app.CleanPath(args[0])
			if err != nil {
				return Usagef("%s", i18n.T("cli.venv.bad_path", i18n.D{"Path": strconv.Quote(args[0]), "Err": err}))
			}
			rep := venvReport{Root: root}
			check := app.CheckVenvPath(root, runtime.GOOS)
			rep.Warnings = check.Warnings
			if !check.OK() {
				rep.Errors = check.Errors
				if asJSON {
					_ = writePyenvJSON(cmd.OutOrStdout(), rep)
				}
				return Usagef("%s", strings.Join(check.Errors, "; "))
			}
			v := app.Venv{Root: root}
			made, err := app.MakeVenv(cmd.Context(), root, python)
			if err != nil {
				return err
			}
			warnNotRecorded(cmd.ErrOrStderr(), made.RecordErr)
			rep.BasePython, rep.Created = made.BasePython, made.Created
			rep.Warnings = append(rep.Warnings, made.Warnings...)
			rep.Python = v.Python()
			rep.ActivateHints = v.ActivateHints()
			if asJSON {
				return writePyenvJSON(cmd.OutOrStdout(), rep)
			}
			w := cmd.OutOrStdout()
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
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, i18n.T("cli.flag.json"))
	cmd.Flags().StringVar(&python, "python", "", i18n.T("cli.venv.flag.python"))
	return cmd
}
