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
	"gpuwiz/steps/words"
)

func init() { register(44, newEnvsCmd) }

// envsOptions is what `gpuwiz envs` was asked (its flags) and the streams it talks on.
type envsOptions struct {
	Out, ErrOut io.Writer
	JSON        bool
}

func newEnvsCmd(env *Env) *cobra.Command {
	var o envsOptions
	cmd := &cobra.Command{
		Use:     "envs",
		Short:   i18n.T("cli.envs.short"),
		Long:    i18n.T("cli.envs.long"),
		Example: "  gpuwiz envs\n  gpuwiz envs --json", //i18n:raw commands
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Out, o.ErrOut = cmd.OutOrStdout(), cmd.ErrOrStderr()
			return envsRun(cmd.Context(), env, o)
		},
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, i18n.T("cli.envs.flag.json"))
	return cmd
}

// envsRun prints the environments on this machine, each judged against its cards.
func envsRun(ctx context.Context, env *Env, o envsOptions) error {
	asJSON := o.JSON
	rep := env.Environments(ctx, app.VenvFindOptions{})
	if rep.Warning != "" {
		fmt.Fprintln(o.ErrOut, "gpuwiz: "+i18n.T("cli.warning", i18n.D{"Text": rep.Warning}))
	}
	out := o.Out
	if asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	printEnvs(out, rep)
	return nil
}

func printEnvs(w io.Writer, rep app.EnvironmentsReport) {
	if len(rep.Environments) == 0 {
		fmt.Fprintln(w, i18n.T("cli.envs.none"))
		return
	}
	fmt.Fprintln(w, i18n.T("cli.envs.title"))
	for _, e := range rep.Environments {
		fmt.Fprintf(w, "  %s\n    %s\n", e.Path, words.VenvLine(e.Found))
		if k := e.Kernels; k != nil {
			if k.All {
				fmt.Fprintf(w, "    %s\n", i18n.T("cli.envs.kernels_all", i18n.D{"Cards": strings.Join(rep.Cards, ", ")}))
			} else {
				fmt.Fprintf(w, "    %s\n", i18n.T("cli.envs.kernels_missing", i18n.D{"Cards": strings.Join(k.Missing, ", "), "Venv": e.Path}))
			}
		}
	}
}
