package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

func init() { register(44, newEnvsCmd) }

func newEnvsCmd(env *Env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "envs",
		Short:   i18n.T("cli.envs.short"),
		Long:    i18n.T("cli.envs.long"),
		Example: "  gpuwiz envs\n  gpuwiz envs --json", //i18n:raw commands
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			rep := env.Environments(cmd.Context(), app.VenvFindOptions{})
			if rep.Warning != "" {
				fmt.Fprintln(cmd.ErrOrStderr(), "gpuwiz: "+i18n.T("cli.warning", i18n.D{"Text": rep.Warning}))
			}
			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(rep)
			}
			printEnvs(out, rep)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, i18n.T("cli.envs.flag.json"))
	return cmd
}

func printEnvs(w io.Writer, rep app.EnvironmentsReport) {
	if len(rep.Environments) == 0 {
		fmt.Fprintln(w, i18n.T("cli.envs.none"))
		return
	}
	fmt.Fprintln(w, i18n.T("cli.envs.title"))
	for _, e := range rep.Environments {
		fmt.Fprintf(w, "  %s\n    %s\n", e.Path, app.VenvLine(e.Found))
		if k := e.Kernels; k != nil {
			if k.All {
				fmt.Fprintf(w, "    %s\n", i18n.T("cli.envs.kernels_all", i18n.D{"Cards": strings.Join(rep.Cards, ", ")}))
			} else {
				fmt.Fprintf(w, "    %s\n", i18n.T("cli.envs.kernels_missing", i18n.D{"Cards": strings.Join(k.Missing, ", "), "Venv": e.Path}))
			}
		}
	}
}
