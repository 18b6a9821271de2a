package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

func init() { register(90, newMatrixCmd) }

// matrixOptions is what `gpuwiz matrix` was asked (its flags) and where it prints.
type matrixOptions struct {
	Out        io.Writer
	Framework  string // "": every framework
	JSON, TOML bool
}

func newMatrixCmd(env *Env) *cobra.Command {
	var o matrixOptions
	cmd := &cobra.Command{
		Use:     "matrix",
		Short:   i18n.T("cli.matrix.short"),
		Long:    i18n.T("cli.matrix.long"),
		Example: "  gpuwiz matrix --framework paddle\n  gpuwiz matrix --toml > my-matrix.toml\n  gpuwiz matrix validate my-matrix.toml", //i18n:raw commands
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Out = cmd.OutOrStdout()
			return matrixRun(cmd.Context(), env, o)
		},
	}
	cmd.Flags().StringVar(&o.Framework, "framework", "", i18n.T("cli.flag.only_framework"))
	cmd.Flags().BoolVar(&o.JSON, "json", false, i18n.T("cli.matrix.flag.json"))
	cmd.Flags().BoolVar(&o.TOML, "toml", false, i18n.T("cli.matrix.flag.toml"))
	cmd.MarkFlagsMutuallyExclusive("json", "toml")
	cmd.AddCommand(newMatrixValidateCmd(), newMatrixCheckCmd(env))
	return cmd
}

// matrixRun prints the version matrix: a table, its JSON or its TOML file.
func matrixRun(ctx context.Context, env *Env, o matrixOptions) error {
	framework, asJSON, asTOML := o.Framework, o.JSON, o.TOML
	if framework != "" && framework != "torch" && framework != "paddle" {
		return Usagef("%s", i18n.T("cli.bad_framework", i18n.D{"Value": strconv.Quote(framework)}))
	}
	m, err := env.Matrix()
	if err != nil {
		return err
	}
	out := o.Out
	switch {
	case asTOML:
		data, err := env.MatrixTOML()
		if err != nil {
			return err
		}
		_, err = out.Write(data)
		return err
	case asJSON:
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(m)
	}
	printMatrix(out, m, framework)
	return nil
}

func newMatrixValidateCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "validate FILE", //i18n:raw a usage line: the command and its argument's name
		Short: i18n.T("cli.matrix.validate.short"),
		Long:  i18n.T("cli.matrix.validate.long"),
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			m, err := app.LoadMatrixFile(args[0])
			if err != nil {
				fmt.Fprintln(cmd.ErrOrStderr(), err)
				return Silent(ExitFailure)
			}
			builds := 0
			for _, fw := range app.Frameworks() {
				builds += len(m.Candidates(fw))
			}
			fmt.Fprintln(cmd.OutOrStdout(), i18n.T("cli.matrix.validate.ok", i18n.D{
				"File": args[0], "Torch": len(m.Torch), "Paddle": len(m.Paddle), "Builds": builds, "CUDA": len(m.CUDA)}))
			return nil
		},
	}
}

func printMatrix(w io.Writer, m *app.VersionMatrix, only string) {
	for _, fw := range app.Frameworks() {
		if only != "" && fw != only {
			continue
		}
		fmt.Fprintf(w, "%s\n", fw)
		var tw table
		tw.row("  "+i18n.T("cli.col.version"), i18n.T("cli.col.channel"), "CUDA", i18n.T("cli.col.cudnn"), i18n.T("cli.col.python"), i18n.T("cli.col.os"), i18n.T("cli.col.verified"), i18n.T("cli.col.index"))
		releases := m.Torch
		if fw == "paddle" {
			releases = m.Paddle
		}
		for _, r := range releases {
			for _, b := range r.Builds {
				osList := b.OS
				if len(osList) == 0 {
					osList = r.OS
				}
				verified := i18n.T("cli.yes")
				var on []string // the systems it is verified on, when not all of its own
				for _, o := range osList {
					if !slices.Contains(b.UnverifiedOS, o) {
						on = append(on, o)
					}
				}
				switch {
				case !r.Verified || !b.Verified || len(on) == 0:
					verified = i18n.T("cli.no")
				case len(on) < len(osList):
					verified = i18n.T("cli.matrix.verified_on", i18n.D{"OS": osNames(on)})
				}
				tw.row("  "+r.Version, b.Channel, dash(b.CUDA), dash(b.CUDNN),
					r.PythonMin+"–"+r.PythonMax, osNames(osList), verified, b.IndexURL)
			}
		}
		tw.write(w)
		fmt.Fprintln(w)
	}
	if only != "" {
		return
	}
	fmt.Fprintln(w, i18n.T("cli.matrix.cuda_title"))
	var tw table
	tw.row("  CUDA", i18n.T("cli.col.linux"), i18n.T("cli.col.windows"), i18n.T("cli.col.newest_arch"), i18n.T("cli.col.verified"))
	for _, c := range m.CUDA {
		verified := i18n.T("cli.yes")
		if !c.Verified {
			verified = i18n.T("cli.no")
		}
		tw.row("  "+c.Version, c.MinorCompatLinux+" / "+dash(c.FullLinux),
			c.MinorCompatWindows+" / "+dash(c.FullWindows), c.MaxComputeCap, verified)
	}
	tw.write(w)
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// osNames is a list of the matrix's OS ids ("linux", "windows") as the current language names them:
// "linux,windows" in English, "Linux、Windows" in Chinese. An id the catalog does not name stays as it is.
func osNames(ids []string) string {
	names := make([]string, len(ids))
	for i, id := range ids {
		switch id {
		case "linux":
			names[i] = i18n.T("cli.os.linux")
		case "windows":
			names[i] = i18n.T("cli.os.windows")
		default:
			names[i] = id
		}
	}
	return strings.Join(names, i18n.T("cli.os.sep"))
}
