package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

func init() { register(52, newProtectCmd) }

// existingVenv is --venv made absolute, or a usage error when it names no venv (no pyvenv.cfg).
func existingVenv(venv string) (string, error) {
	root, err := filepath.Abs(venv)
	if err != nil {
		return "", Usagef("--venv %q: %v", venv, err) //i18n:raw the flag, the path and the system's error
	}
	if !(app.Venv{Root: root}).Exists() {
		return "", Usagef("%s", i18n.T("cli.protect.not_a_venv", i18n.D{"Path": root}))
	}
	return root, nil
}

// protectReport is `gpuwiz protect --json`.
type protectReport struct {
	Venv      string            `json:"venv"`
	Status    app.ProtectStatus `json:"status"`
	Rewritten []string          `json:"rewritten_constraints,omitempty"` // pins written anew into constraints.txt
}

// protectOptions is what `gpuwiz protect` was asked (its flags) and where it prints.
type protectOptions struct {
	streams
	Venv string
	Off  bool
}

func newProtectCmd(env *Env) *cobra.Command {
	return newCommand(env, command[protectOptions]{
		use:     "protect",
		short:   i18n.T("cli.protect.short"),
		long:    i18n.T("cli.protect.long"),
		example: "  gpuwiz protect --venv ./venv-torch\n  gpuwiz protect --venv ./venv-torch --off", //i18n:raw commands
		json:    i18n.T("cli.protect.flag.json"),
		flags: func(cmd *cobra.Command, o *protectOptions) {
			cmd.Flags().Var(newEnvFlag(&o.Venv), "venv", i18n.T("cli.protect.flag.venv"))
			cmd.Flags().BoolVar(&o.Off, "off", false, i18n.T("cli.protect.flag.off"))
		},
		run: protectRun,
	})
}

// protectRun makes pip in the venv keep its framework build, or with --off lets it go.
func protectRun(_ context.Context, _ *Env, o protectOptions) error {
	if o.Venv == "" {
		return Usagef("%s", i18n.T("cli.protect.needs_venv"))
	}
	root, err := existingVenv(o.Venv)
	if err != nil {
		return err
	}
	p, err := app.Protect(root, o.Off)
	if err != nil {
		return err
	}
	return show(o.streams, protectReport{Venv: root, Status: p.Status, Rewritten: p.Rewritten}, func(out io.Writer, rep protectReport) {
		if len(rep.Rewritten) > 0 {
			fmt.Fprintln(out, i18n.T("cli.protect.rewritten", i18n.D{"Pins": strings.Join(rep.Rewritten, " ")}))
		}
		if o.Off {
			fmt.Fprintln(out, i18n.T("cli.protect.off_done", i18n.D{"File": rep.Status.File, "Command": gpuwizLine("protect", "--venv", root)}))
			return
		}
		fmt.Fprintln(out, i18n.T("cli.protect.on_done", i18n.D{"File": rep.Status.File, "Constraints": rep.Status.Constraint}))
	})
}
