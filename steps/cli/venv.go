package cli

import (
	"fmt"
	"gpuwiz/steps/userpath"
	"io"
	"runtime"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/install"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
)

func init() { register(41, newVenvCmd) }

type venvReport struct {
	Root          string   `json:"root"`
	Python        string   `json:"python"`         // the venv's interpreter
	BasePython    string   `json:"base_python"`    // the interpreter that made it ("" when reused)
	Created       bool     `json:"created"`        // false: an existing venv was reused
	ActivateHints []string `json:"activate_hints"` // one line per shell
	Warnings      []string `json:"warnings,omitempty"`
	Errors        []string `json:"errors,omitempty"`
}

func newVenvCmd(env *Env) *cobra.Command {
	var asJSON bool
	var python string
	cmd := &cobra.Command{
		Use:   "venv PATH", //i18n:raw a usage line: the command and its argument's name
		Short: i18n.T("cli.venv.short"),
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := userpath.Clean(args[0])
			if err != nil {
				return Usagef("%s", i18n.T("cli.venv.bad_path", i18n.D{"Path": strconv.Quote(args[0]), "Err": err}))
			}
			rep := venvReport{Root: root}
			check := pyenv.CheckVenvPath(root, runtime.GOOS)
			rep.Warnings = check.Warnings
			if !check.OK() {
				rep.Errors = check.Errors
				if asJSON {
					_ = writePyenvJSON(cmd.OutOrStdout(), rep)
				}
				return Usagef("%s", strings.Join(check.Errors, "; "))
			}
			v := pyenv.Venv{Root: root}
			unlock, err := pyenv.Lock(root)
			if err != nil {
				return Exitf(ExitFailure, "%v", err)
			}
			defer unlock()
			if !v.Exists() {
				base, err := chooseBasePython(cmd, python)
				if err != nil {
					return err
				}
				rep.BasePython = base.Path
				rep.Warnings = append(rep.Warnings, base.Warnings...)
				if err := install.CreateVenv(cmd.Context(), runner.New(io.Discard), base.Path, root, nil, install.UnpackedDir(install.DefaultCacheDir())); err != nil {
					return Exitf(ExitFailure, "%v", err)
				}
				rep.Created = true
				recordVenv(cmd.Context(), cmd.ErrOrStderr(), root, app.ActionCreate, app.Created, true, nil)
			}
			rep.Python = v.Python()
			rep.ActivateHints = v.ActivateHints()
			if asJSON {
				return writePyenvJSON(cmd.OutOrStdout(), rep)
			}
			w := cmd.OutOrStdout()
			if rep.Created {
				fmt.Fprintln(w, i18n.T("cli.venv.created", i18n.D{"Path": root}))
			} else {
				fmt.Fprintln(w, i18n.T("cli.venv.reused", i18n.D{"Kind": v.Kind(), "Path": root}))
			}
			if rep.BasePython != "" {
				fmt.Fprintln(w, "  "+i18n.T("cli.venv.made_with", i18n.D{"Python": rep.BasePython}))
			}
			for _, warn := range rep.Warnings {
				fmt.Fprintln(w, "  "+i18n.T("cli.warning", i18n.D{"Text": warn}))
			}
			fmt.Fprintln(w, i18n.T("cli.venv.to_use"))
			for _, h := range rep.ActivateHints {
				fmt.Fprintf(w, "  %s\n", h)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, i18n.T("cli.flag.json"))
	cmd.Flags().StringVar(&python, "python", "", i18n.T("cli.venv.flag.python"))
	return cmd
}

// chooseBasePython takes --python, else the first interpreter found that is a real 64-bit install
// (not a venv, not the Store's).
func chooseBasePython(cmd *cobra.Command, explicit string) (pyenv.Interpreter, error) {
	if explicit != "" {
		p, err := pythonFlag(explicit)
		if err != nil {
			return pyenv.Interpreter{}, err
		}
		explicit = p
		in, err := pyenv.Describe(cmd.Context(), explicit)
		if err != nil {
			return in, Usagef("%v", err)
		}
		in.Warnings = pyenv.SupportWarnings(in, "", "")
		pyenv.NoteVenvSupport(&in, pyenv.ReadDistro())
		if len(in.VenvMissing) > 0 {
			return in, Usagef("--python %s: %s", explicit, pyenv.NoVenvWarning(in, pyenv.ReadDistro()))
		}
		return in, nil
	}
	found, err := pyenv.Discover(cmd.Context(), pyenv.DiscoverOptions{})
	if err != nil {
		return pyenv.Interpreter{}, err
	}
	var noVenv []string
	for _, in := range found {
		if len(in.VenvMissing) > 0 {
			noVenv = append(noVenv, in.Path+": "+pyenv.NoVenvWarning(in, pyenv.ReadDistro()))
			continue
		}
		if in.Kind != "venv" && in.Kind != "store" && in.Bits == 64 {
			return in, nil
		}
	}
	if len(noVenv) > 0 {
		return pyenv.Interpreter{}, Exitf(ExitFailure, "%s", i18n.T("cli.venv.no_venv_python", i18n.D{"Found": strings.Join(noVenv, i18n.T("cli.matrix.check.separator"))}))
	}
	if len(found) > 0 && found[0].Version != "" {
		return found[0], nil
	}
	return pyenv.Interpreter{}, Exitf(ExitFailure, "%s", i18n.T("cli.venv.no_python"))
}
