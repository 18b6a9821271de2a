package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

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
		Short: "Check the framework build in a venv: CUDA build, devices, arch list, one GPU computation",
		Long: "verify runs gpuwiz's check script with the venv's Python. The framework is found from what the venv\n" +
			"holds; the expected channel from the constraints.txt gpuwiz install wrote (or --channel).\n" +
			"Exit codes: 0 verified, 4 a check failed, 2 bad input.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if venv == "" {
				return Usagef("pass --venv PATH")
			}
			root, err := filepath.Abs(venv)
			if err != nil {
				return Usagef("--venv %q: %v", venv, err)
			}
			v := pyenv.Venv{Root: root}
			if !v.Exists() {
				return Usagef("--venv %s is not a venv (no pyvenv.cfg): create one with gpuwiz install", root)
			}
			r := runner.New(nil)
			if framework == "" {
				in, err := pyenv.Inspect(cmd.Context(), r, v.Python())
				if err != nil {
					return Exitf(ExitFailure, "inspecting %s: %v", root, err)
				}
				switch {
				case len(in.TorchFamily) > 0:
					framework = "torch"
				case len(in.PaddleDists) > 0:
					framework = "paddle"
				default:
					return Usagef("%s holds neither torch nor paddle: pass --framework, or install one with gpuwiz install", root)
				}
			}
			if framework != "torch" && framework != "paddle" {
				return Usagef("--framework %q: use torch or paddle", framework)
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
	f.StringVar(&venv, "venv", "", "the venv to check (required)")
	f.StringVar(&framework, "framework", "", "torch or paddle (default: what the venv holds)")
	f.StringVar(&channel, "channel", "", "the channel the build must be, e.g. cu126 (default: from the venv's constraints.txt)")
	f.BoolVar(&asJSON, "json", false, "print the report as JSON")
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
			if _, label, ok := strings.Cut(v, "+"); ok {
				return label
			}
		}
	}
	return ""
}

func printVerify(w io.Writer, r verify.Report) {
	fmt.Fprintf(w, "Verify %s %s (CUDA %s, cuDNN %s)\n", r.Framework, r.Version, orDash(r.CUDA), orDash(r.CuDNN))
	for _, c := range r.Checks {
		mark := "ok  "
		if !c.OK {
			mark = "FAIL"
		}
		fmt.Fprintf(w, "  [%s] %s", mark, c.Title)
		if c.Evidence != "" {
			fmt.Fprintf(w, ": %s", strings.ReplaceAll(c.Evidence, "\n", "\n         "))
		}
		fmt.Fprintln(w)
		if !c.OK {
			fmt.Fprintf(w, "         cause: %s\n         fix: %s\n", c.Cause, c.Fix)
		}
	}
	if r.OK {
		fmt.Fprintln(w, "verified")
	} else {
		fmt.Fprintf(w, "%d check(s) failed\n", len(r.Failed()))
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
