package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/keep"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/shellquote"
)

func init() { register(52, newProtectCmd) }

// existingVenv is --venv made absolute, or a usage error when it names no venv (no pyvenv.cfg).
func existingVenv(venv string) (string, error) {
	root, err := filepath.Abs(venv)
	if err != nil {
		return "", Usagef("--venv %q: %v", venv, err) //i18n:raw the flag, the path and the system's error
	}
	if !(pyenv.Venv{Root: root}).Exists() {
		return "", Usagef("%s", i18n.T("cli.protect.not_a_venv", i18n.D{"Path": root}))
	}
	return root, nil
}

// protectReport is `gpuwiz protect --json`.
type protectReport struct {
	Venv      string      `json:"venv"`
	Status    keep.Status `json:"status"`
	Rewritten []string    `json:"rewritten_constraints,omitempty"` // pins written anew into constraints.txt
}

func newProtectCmd(env *Env) *cobra.Command {
	var venv string
	var off, asJSON bool
	cmd := &cobra.Command{
		Use:     "protect",
		Short:   i18n.T("cli.protect.short"),
		Long:    i18n.T("cli.protect.long"),
		Example: "  gpuwiz protect --venv ./venv-torch\n  gpuwiz protect --venv ./venv-torch --off", //i18n:raw commands
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if venv == "" {
				return Usagef("%s", i18n.T("cli.protect.needs_venv"))
			}
			root, err := existingVenv(venv)
			if err != nil {
				return err
			}
			rep := protectReport{Venv: root}
			if off {
				rep.Status, err = keep.Unprotect(root, "")
			} else {
				if _, err := os.Stat(filepath.Join(root, "requirements.lock")); err != nil {
					return Usagef("%s", i18n.T("keep.err.no_lock", i18n.D{"Venv": root}))
				}
				rep.Status, rep.Rewritten, err = keep.Ensure(root, "")
			}
			if err != nil {
				return Exitf(ExitFailure, "%v", err)
			}
			out := cmd.OutOrStdout()
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
		},
	}
	f := cmd.Flags()
	f.Var(newEnvFlag(&venv), "venv", i18n.T("cli.protect.flag.venv"))
	f.BoolVar(&off, "off", false, i18n.T("cli.protect.flag.off"))
	f.BoolVar(&asJSON, "json", false, i18n.T("cli.protect.flag.json"))
	return cmd
}
