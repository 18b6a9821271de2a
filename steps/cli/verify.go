package cli

import (
	"bufio"
	"fmt"
	"gpuwiz/steps/userpath"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pep"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/verify"
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
			v := pyenv.Venv{Root: root}
			if !v.Exists() {
				return Usagef("%s", i18n.T("cli.verify.not_a_venv", i18n.D{"Path": root}))
			}
			r := runner.New(nil)
			if framework == "" {
				in, err := pyenv.Inspect(cmd.Context(), r, v.Python())
				if err != nil {
					return Exitf(ExitFailure, "%s", i18n.T("cli.verify.inspect_failed", i18n.D{"Path": root, "Err": err}))
				}
				switch {
				case len(in.TorchFamily) > 0:
					framework = "torch"
				case len(in.PaddleDists) > 0:
					framework = "paddle"
				default:
					return Usagef("%s", i18n.T("cli.verify.no_framework", i18n.D{"Path": root}))
				}
			}
			if framework != "torch" && framework != "paddle" {
				return Usagef("%s", i18n.T("cli.bad_framework", i18n.D{"Value": strconv.Quote(framework)}))
			}
			if channel == "" {
				channel = constraintsChannel(filepath.Join(root, "constraints.txt"), framework)
			}
			rep, err := verify.Run(cmd.Context(), r, v.Python(), framework, channel)
			if err != nil {
				return Usagef("%v", err)
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
	f.Var(userpath.NewFlag(&venv), "venv", i18n.T("cli.verify.flag.venv"))
	f.StringVar(&framework, "framework", "", i18n.T("cli.verify.flag.framework"))
	f.StringVar(&channel, "channel", "", i18n.T("cli.verify.flag.channel"))
	f.BoolVar(&asJSON, "json", false, i18n.T("cli.flag.json_report"))
	return cmd
}

// constraintsChannel reads the torch pin's label from a constraints.txt gpuwiz wrote ("" when none).
func constraintsChannel(path, framework string) string {
	f, err := os.Open(path)
	if err != nil || framework != "torch" {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "torch=="); ok {
			if _, label := pep.SplitLocal(v); label != "" {
				return label
			}
		}
	}
	return ""
}

func printVerify(w io.Writer, r verify.Report) {
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
