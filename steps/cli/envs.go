package cli

import (
	"context"
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
type envsOptions struct{ streams }

func newEnvsCmd(env *Env) *cobra.Command {
	return newCommand(env, command[envsOptions]{
		use:     "envs",
		short:   i18n.T("cli.envs.short"),
		long:    i18n.T("cli.envs.long"),
		example: "  gpuwiz envs\n  gpuwiz envs --json", //i18n:raw commands
		json:    i18n.T("cli.envs.flag.json"),
		run:     envsRun,
	})
}

// envsRun prints the environments on this machine, each judged against its cards.
func envsRun(ctx context.Context, env *Env, o envsOptions) error {
	rep := env.Environments(ctx, app.VenvFindOptions{})
	if rep.Warning != "" {
		fmt.Fprintln(o.ErrOut, "gpuwiz: "+i18n.T("cli.warning", i18n.D{"Text": rep.Warning}))
	}
	return show(o.streams, rep, printEnvs)
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
