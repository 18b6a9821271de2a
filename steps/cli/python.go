package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

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
				return writePyenvJSON(cmd.OutOrStdout(), map[string]any{"interpreters": interpretersOrEmpty(found)})
			}
			printInterpreters(cmd.OutOrStdout(), found)
			if len(found) == 0 {
				return Exitf(ExitFailure, "no Python found: install 64-bit Python from python.org, or pass one with --python")
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().StringVar(&explicit, "python", "", "also describe this interpreter")
	return cmd
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
