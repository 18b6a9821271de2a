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

func init() { register(51, newVerifyCmd) }

// verifyOptions is what `gpuwiz verify` was asked (its flags) and where it prints.
type verifyOptions struct {
	streams
	Venv, Framework, Channel string
}

func newVerifyCmd(env *Env) *cobra.Command {
	return newCommand(env, command[verifyOptions]{
		use:   "verify",
		short: i18n.T("cli.verify.short"),
		long:  i18n.T("cli.verify.long"),
		json:  i18n.T("cli.flag.json_report"),
		flags: func(cmd *cobra.Command, o *verifyOptions) {
			f := cmd.Flags()
			f.Var(newEnvFlag(&o.Venv), "venv", i18n.T("cli.verify.flag.venv"))
			f.StringVar(&o.Framework, "framework", "", i18n.T("cli.verify.flag.framework"))
			f.StringVar(&o.Channel, "channel", "", i18n.T("cli.verify.flag.channel"))
		},
		run: verifyRun,
	})
}

// verifyRun runs the framework's checks in the venv and prints them.
func verifyRun(ctx context.Context, _ *Env, o verifyOptions) error {
	if o.Venv == "" {
		return Usagef("%s", i18n.T("cli.verify.needs_venv"))
	}
	root, err := filepath.Abs(o.Venv)
	if err != nil {
		return Usagef("--venv %q: %v", o.Venv, err) //i18n:raw the flag, the path and the system's error
	}
	v := app.Venv{Root: root}
	if !v.Exists() {
		return Usagef("%s", i18n.T("cli.verify.not_a_venv", i18n.D{"Path": root}))
	}
	rep, err := app.Verify(ctx, root, o.Framework, o.Channel)
	if err != nil {
		return err
	}
	if err := show(o.streams, rep, printVerify); err != nil {
		return err
	}
	if !rep.OK {
		return Silent(ExitVerifyFailed)
	}
	return nil
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
