package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

func init() { register(40, newPythonCmd) }

// pythonOptions is what `gpuwiz python` was asked (its flags) and where it prints.
type pythonOptions struct {
	Out    io.Writer
	JSON   bool
	Python string // --python: describe this interpreter too
}

func newPythonCmd(env *Env) *cobra.Command {
	var o pythonOptions
	cmd := &cobra.Command{
		Use:   "python",
		Short: i18n.T("cli.python.short"),
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Out = cmd.OutOrStdout()
			return pythonRun(cmd.Context(), env, o)
		},
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, i18n.T("cli.flag.json"))
	cmd.Flags().StringVar(&o.Python, "python", "", i18n.T("cli.python.flag.python"))
	cmd.AddCommand(newPythonInstallCmd(env))
	return cmd
}

// pythonRun lists the Python interpreters found, or says which Python to install when none runs.
func pythonRun(ctx context.Context, env *Env, o pythonOptions) error {
	asJSON, explicit := o.JSON, o.Python
	if explicit != "" {
		p, err := pythonFlag(explicit)
		if err != nil {
			return err
		}
		explicit = p
	}
	found, err := app.DiscoverPythons(ctx, app.DiscoverOptions{Explicit: explicit})
	if err != nil {
		if explicit != "" && ctx.Err() == nil {
			return Usagef("%v", err)
		}
		return err
	}
	if asJSON {
		doc := map[string]any{"interpreters": interpretersOrEmpty(found)}
		if !anyRuns(found) {
			doc["advice"] = noPythonAdvice(env)
		}
		if err := writePyenvJSON(o.Out, doc); err != nil {
			return err
		}
		if !anyRuns(found) {
			return Silent(ExitFailure)
		}
		return nil
	}
	printInterpreters(o.Out, found)
	if !anyRuns(found) {
		return Exitf(ExitFailure, "%s", noPythonAdvice(env))
	}
	return nil
}

// noPythonAdvice names the Python to install: the minor most of the matrix's releases for this OS support.
func noPythonAdvice(env *Env) string {
	return env.NoPythonAdvice()
}

// anyRuns reports an interpreter that ran (the Store alias is listed but is not a Python).
func anyRuns(found []app.Interpreter) bool {
	for _, in := range found {
		if in.Version != "" {
			return true
		}
	}
	return false
}

func interpretersOrEmpty(in []app.Interpreter) []app.Interpreter {
	if in == nil {
		return []app.Interpreter{}
	}
	return in
}

func printInterpreters(w io.Writer, found []app.Interpreter) {
	for _, in := range found {
		if in.Kind == "store" && in.Version == "" {
			fmt.Fprintf(w, "%s\n  %s\n", in.Path, i18n.T("cli.python.store_alias", i18n.D{"Source": in.Source}))
			for _, warn := range in.Warnings {
				fmt.Fprintln(w, "  "+i18n.T("cli.warning", i18n.D{"Text": warn}))
			}
			continue
		}
		fmt.Fprintf(w, "%s\n  %s\n", in.Path, i18n.T("cli.python.found", i18n.D{"Version": versionOrQuestion(in.Version), "Bits": in.Bits, "Kind": in.Kind, "Source": in.Source}))
		for _, warn := range in.Warnings {
			fmt.Fprintln(w, "  "+i18n.T("cli.warning", i18n.D{"Text": warn}))
		}
	}
}

func versionOrQuestion(s string) string {
	if strings.TrimSpace(s) == "" {
		return "?"
	}
	return s
}

func writePyenvJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
