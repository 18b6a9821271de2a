package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"gpuwiz/matrix"
	"gpuwiz/steps/pyenv"
)

func init() { register(40, newPythonCmd) }

func newPythonCmd(env *Env) *cobra.Command {
	var asJSON bool
	var explicit string
	cmd := &cobra.Command{
		Use:   "python",
		Short: "List the Python interpreters found (PATH, py launcher, registry, conda, --python)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if explicit != "" {
				if _, err := os.Stat(explicit); err != nil {
					return Usagef("--python %s: %v; pass the path of a python executable", explicit, err)
				}
			}
			found, err := pyenv.Discover(cmd.Context(), pyenv.DiscoverOptions{Explicit: explicit})
			if err != nil {
				if explicit != "" && cmd.Context().Err() == nil {
					return Usagef("%v", err)
				}
				return err
			}
			if asJSON {
				doc := map[string]any{"interpreters": interpretersOrEmpty(found)}
				if len(found) == 0 {
					doc["advice"] = noPythonAdvice(env)
				}
				if err := writePyenvJSON(cmd.OutOrStdout(), doc); err != nil {
					return err
				}
				if len(found) == 0 {
					return Silent(ExitFailure)
				}
				return nil
			}
			printInterpreters(cmd.OutOrStdout(), found)
			if len(found) == 0 {
				return Exitf(ExitFailure, "%s", noPythonAdvice(env))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().StringVar(&explicit, "python", "", "also describe this interpreter")
	return cmd
}

// noPythonAdvice names the Python to install: the minor most of the matrix's releases for this OS support.
func noPythonAdvice(env *Env) string {
	var ranges []pyenv.PythonRange
	if m, err := env.Matrix(); err == nil {
		for _, rels := range [][]matrix.Release{m.Torch, m.Paddle} {
			for _, r := range rels {
				if slices.Contains(r.OS, runtime.GOOS) {
					ranges = append(ranges, pyenv.PythonRange{Min: r.PythonMin, Max: r.PythonMax})
				}
			}
		}
	}
	return pyenv.NoPythonAdvice(runtime.GOOS, pyenv.RecommendedMinor(ranges))
}

func interpretersOrEmpty(in []pyenv.Interpreter) []pyenv.Interpreter {
	if in == nil {
		return []pyenv.Interpreter{}
	}
	return in
}

func printInterpreters(w io.Writer, found []pyenv.Interpreter) {
	for _, in := range found {
		fmt.Fprintf(w, "%s\n  Python %s, %d-bit, %s (found via %s)\n", in.Path, versionOrQuestion(in.Version), in.Bits, in.Kind, in.Source)
		for _, warn := range in.Warnings {
			fmt.Fprintf(w, "  warning: %s\n", warn)
		}
	}
}

func versionOrQuestion(s string) string {
	if strings.TrimSpace(s) == "" {
		return "?"
	}
	return s
}

func writePyenvJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
