package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"gpuwiz/matrix"
)

func init() { register(90, newMatrixCmd) }

func newMatrixCmd(env *Env) *cobra.Command {
	var framework string
	var asJSON, asTOML bool
	cmd := &cobra.Command{
		Use:   "matrix",
		Short: "Print the version matrix (the --matrix file, else the embedded one)",
		Long: "matrix prints every known build of PyTorch and PaddlePaddle and the CUDA driver table.\n" +
			"--toml prints the file itself: start a newer matrix from it and pass it with --matrix FILE.",
		Example: "  gpuwiz matrix --framework paddle\n  gpuwiz matrix --toml > my-matrix.toml\n  gpuwiz matrix validate my-matrix.toml",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if framework != "" && framework != "torch" && framework != "paddle" {
				return Usagef("--framework %q: use torch or paddle", framework)
			}
			m, err := env.Matrix()
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			switch {
			case asTOML:
				data := matrix.EmbeddedTOML()
				if env.G.MatrixFile != "" {
					if data, err = os.ReadFile(env.G.MatrixFile); err != nil {
						return Exitf(ExitFailure, "%v", err)
					}
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
		},
	}
	cmd.Flags().StringVar(&framework, "framework", "", "only torch or paddle")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the matrix as JSON")
	cmd.Flags().BoolVar(&asTOML, "toml", false, "print the matrix file itself")
	cmd.MarkFlagsMutuallyExclusive("json", "toml")
	cmd.AddCommand(newMatrixValidateCmd(), newMatrixCheckCmd(env))
	return cmd
}

func newMatrixValidateCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "validate FILE",
		Short: "Check a matrix file: strict keys, unique rows, parseable versions, https index URLs",
		Long:  "validate reads FILE as gpuwiz would with --matrix FILE and prints every problem as FILE:LINE: message.\nExit code 1 when it has problems.",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			m, err := matrix.LoadFile(args[0])
			if err != nil {
				fmt.Fprintln(cmd.ErrOrStderr(), err)
				return Silent(ExitFailure)
			}
			builds := 0
			for _, fw := range matrix.Frameworks() {
				builds += len(m.Candidates(fw))
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: ok (%d torch releases, %d paddle releases, %d builds, %d CUDA driver rows)\n",
				args[0], len(m.Torch), len(m.Paddle), builds, len(m.CUDA))
			return nil
		},
	}
}

func printMatrix(w io.Writer, m *matrix.Matrix, only string) {
	for _, fw := range matrix.Frameworks() {
		if only != "" && fw != only {
			continue
		}
		fmt.Fprintf(w, "%s\n", fw)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  VERSION\tCHANNEL\tCUDA\tCUDNN\tPYTHON\tOS\tVERIFIED\tINDEX")
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
				verified := "yes"
				if !r.Verified || !b.Verified {
					verified = "no"
				}
				fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s–%s\t%s\t%s\t%s\n", r.Version, b.Channel, dash(b.CUDA), dash(b.CUDNN),
					r.PythonMin, r.PythonMax, strings.Join(osList, ","), verified, b.IndexURL)
			}
		}
		tw.Flush()
		fmt.Fprintln(w)
	}
	if only != "" {
		return
	}
	fmt.Fprintln(w, "CUDA driver minimums (minor-version compatibility / full toolkit)")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  CUDA\tLINUX\tWINDOWS\tNEWEST ARCH\tVERIFIED")
	for _, c := range m.CUDA {
		verified := "yes"
		if !c.Verified {
			verified = "no"
		}
		fmt.Fprintf(tw, "  %s\t%s / %s\t%s / %s\t%s\t%s\n", c.Version, c.MinorCompatLinux, dash(c.FullLinux),
			c.MinorCompatWindows, dash(c.FullWindows), c.MaxComputeCap, verified)
	}
	tw.Flush()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
