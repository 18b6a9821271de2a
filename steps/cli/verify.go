package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

func init() { register(51, newVerifyCmd) }

func newVerifyCmd(env *Env) *cobra.Command {
	var venv, framework, channel string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "verify",
		Short: i18n.T("cli.verify.short"),
		Long:  i18n.T("cli.verify.long"),
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if venv == "" {
				return Usagef("%s", i18n.T("cli.verify.needs_venv"))
			}
			root, err := filepath.Abs(venv)
			if err != nil {
				return Usagef("--venv %q: %v", venv, err) //i18n:raw the flag, the path and the system's error
			}
			v := app.Venv{Root: root}
			if !v.Exists() {
				return Usagef("%s", i18n.T("cli.verify.not_a_venv", i18n.D{"Path": root}))
			}
			rep, err := app.Verify(cmd.Context(), root, framework, channel)
			if err != nil {
				return err
			}
			if asJSON {
				if err := writeInstallJSON(cmd.OutOrStdout(), rep); err != nil {
					return err
				}
			} else {
				printVerify(cmd.OutOrStdout(), rep)
			}
			if !rep.OK {
				return Silent(ExitVerifyFailed)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.Var(newEnvFlag(&venv), "venv", i18n.T("cli.verify.flag.venv"))
	f.StringVar(&framework, "framework", "", i18n.T("cli.verify.flag.framework"))
	f.StringVar(&channel, "channel", "", i18n.T("cli.verify.flag.channel"))
	f.BoolVar(&asJSON, "json", false, i18n.T("cli.flag.json_report"))
	return cmd
}

func printVerify(w io.Writer, r app.VerifyReport) {
	fmt.Fprintln(w, i18n.T("cli.verify.title", i18n.D{"Framework": r.Framework, "Version": r.Version, "CUDA": orDash(r.CUDA), "CuDNN": orDash(r.CuDNN)}))
	okMark, failMark := i18n.T("cli.verify.mark_ok"), i18n.T("cli.verify.mark_fail")
	width := max(i18n.Width(okMark), i18n.Width(failMark))
	indent := strings.Repeat(" ", width+5)
	for _, c := range r.Checks {
		mark := okMark
		if !c.OK {
			mark = failMark
		}
		fmt.Fprintf(w, "  [%s] %s", i18n.Pad(mark, width), c.Title)
		if c.Evidence != "" {
			fmt.Fprintf(w, ": %s", strings.ReplaceAll(c.Evidence, "\n", "\n"+indent))
		}
		fmt.Fprintln(w)
		if !c.OK {
			fmt.Fprintln(w, indent+i18n.T("cli.verify.cause", i18n.D{"Cause": c.Cause}))
			fmt.Fprintln(w, indent+i18n.T("cli.verify.fix", i18n.D{"Fix": c.Fix}))
		}
	}
	if r.OK {
		fmt.Fprintln(w, i18n.T("cli.verify.verified"))
	} else {
		fmt.Fprintln(w, i18n.N("cli.verify.failed", len(r.Failed())))
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
