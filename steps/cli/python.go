package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
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
				doc := map[string]any{"interpreters": interpretersOrEmpty(found)}
				if !anyRuns(found) {
					doc["advice"] = noPythonAdvice(env)
				}
				if err := writePyenvJSON(cmd.OutOrStdout(), doc); err != nil {
					return err
				}
				if !anyRuns(found) {
					return Silent(ExitFailure)
				}
				return nil
			}
			printInterpreters(cmd.OutOrStdout(), found)
			if !anyRuns(found) {
				return Exitf(ExitFailure, "%s", noPythonAdvice(env))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().StringVar(&explicit, "python", "", "also describe this interpreter")
	cmd.AddCommand(newPythonInstallCmd(env))
	return cmd
}

// noPythonAdvice names the Python to install: the minor most of the matrix's releases for this OS support.
func noPythonAdvice(env *Env) string {
	return pyenv.NoPythonAdvice(runtime.GOOS, RecommendedPython(env))
}

// anyRuns reports an interpreter that ran (the Store alias is listed but is not a Python).
func anyRuns(found []pyenv.Interpreter) bool {
	for _, in := range found {
		if in.Version != "" {
			return true
		}
	}
	return false
}

func interpretersOrEmpty(in []pyenv.Interpreter) []pyenv.Interpreter {
	if in == nil {
		return []pyenv.Interpreter{}
	}
	return in
}

func printInterpreters(w io.Writer, found []pyenv.Interpreter) {
	for _, in := range found {
		if in.Kind == "store" && in.Version == "" {
			fmt.Fprintf(w, "%s\n  the Microsoft Store alias: not a Python (it opens the Store) (found via %s)\n", in.Path, in.Source)
			for _, warn := range in.Warnings {
				fmt.Fprintf(w, "  warning: %s\n", warn)
			}
			continue
		}
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
