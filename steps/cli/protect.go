package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/shellquote"
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
	Out       io.Writer
	Venv      string
	Off, JSON bool
}

func newProtectCmd(env *Env) *cobra.Command {
	var o protectOptions
	cmd := &cobra.Command{
		Use:     "protect",
		Short:   i18n.T("cli.protect.short"),
		Long:    i18n.T("cli.protect.long"),
		Example: "  gpuwiz protect --venv ./venv-torch\n  gpuwiz protect --venv ./venv-torch --off", //i18n:raw commands
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Out = cmd.OutOrStdout()
			return protectRun(cmd.Context(), env, o)
		},
	}
	f := cmd.Flags()
	f.Var(newEnvFlag(&o.Venv), "venv", i18n.T("cli.protect.flag.venv"))
	f.BoolVar(&o.Off, "off", false, i18n.T("cli.protect.flag.off"))
	f.BoolVar(&o.JSON, "json", false, i18n.T("cli.protect.flag.json"))
	return cmd
}

// protectRun makes pip in the venv keep its framework build, or with --off lets it go.
func protectRun(ctx context.Context, env *Env, o protectOptions) error {
	venv, off, asJSON := o.Venv, o.Off, o.JSON
	if venv == "" {
		return Usagef("%s", i18n.T("cli.protect.needs_venv"))
	}
	root, err := existingVenv(venv)
	if err != nil {
		return err
	}
	p, err := app.Protect(root, off)
	if err != nil {
		return err
	}
	rep := protectReport{Venv: root, Status: p.Status, Rewritten: p.Rewritten}
	out := o.Out
	if asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	if len(rep.Rewritten) > 0 {
		fmt.Fprintln(out, i18n.T("cli.protect.rewritten", i18n.D{"Pins": strings.Join(rep.Rewritten, " ")}))
	}
	if off {
		fmt.Fprintln(out, i18n.T("cli.protect.off_done", i18n.D{"File": rep.Status.File, "Command": shellquote.Command(runtime.GOOS, "gpuwiz", "protect", "--venv", root)}))
		return nil
	}
	fmt.Fprintln(out, i18n.T("cli.protect.on_done", i18n.D{"File": rep.Status.File, "Constraints": rep.Status.Constraint}))
	return nil
}
