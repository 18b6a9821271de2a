package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"gpuwiz/matrix"
	"gpuwiz/steps/install"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/pyget"
	"gpuwiz/steps/runner"
)

type pythonInstallReport struct {
	Plan             *pyget.Plan        `json:"plan,omitempty"`
	AlreadyInstalled *pyenv.Interpreter `json:"already_installed,omitempty"`
	Result           *pyget.Result      `json:"result,omitempty"`
	ExitCode         int                `json:"exit_code"`
}

func newPythonInstallCmd(env *Env) *cobra.Command {
	var asJSON, yes bool
	var mirror, sum, logPath string
	cmd := &cobra.Command{
		Use:   "install [VERSION]",
		Short: "Install Python for this user (Windows: winget or the python.org installer; Linux: shows the distribution's command)",
		Long: "Installs 64-bit Python VERSION (3.X or 3.X.Y; default: the version most builds support) for this user only.\n" +
			"Windows: winget when present, else python.org's installer (from python.org or --mirror, e.g. " + strings.Join(pyget.Mirrors, " or ") + "),\n" +
			"checked against its published SHA-256 and run quietly (no administrator rights, PATH left alone).\n" +
			"Linux: prints the distribution's command (apt, dnf, pacman, zypper) for you to run; gpuwiz never runs a package manager as root.",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			out := cmd.OutOrStdout()
			version := RecommendedPython(env)
			if len(args) == 1 {
				version = args[0]
			}
			rep := pythonInstallReport{}
			finish := func(code int) error {
				rep.ExitCode = code
				if asJSON {
					if err := writePyenvJSON(out, rep); err != nil {
						return err
					}
				}
				if code != 0 {
					return Silent(code)
				}
				return nil
			}
			o := pyget.Options{Version: version, Mirror: mirror, SHA256: sum}
			plan, err := pyget.MakePlan(o)
			if err != nil {
				if errors.Is(err, pyget.ErrBadInput) {
					return Usagef("%s", strings.TrimPrefix(err.Error(), pyget.ErrBadInput.Error()+": "))
				}
				return Exitf(ExitFailure, "%v", err)
			}
			rep.Plan = &plan
			exact := ""
			if strings.Count(strings.TrimSpace(version), ".") == 2 {
				exact = plan.Version
			}
			if have := installedPython(cmd, plan.Minor, exact); have != nil {
				rep.AlreadyInstalled = have
				if !asJSON {
					fmt.Fprintf(out, "Python %s is already installed: %s (%s); nothing to do\n", have.Version, have.Path, have.Kind)
				}
				return finish(ExitOK)
			}
			if plan.Method == pyget.MethodDistro {
				if !asJSON {
					printPythonPlan(out, plan)
				}
				return finish(ExitOK)
			}
			if !yes {
				f, isFile := cmd.InOrStdin().(*os.File)
				if asJSON || !isFile || !term.IsTerminal(int(f.Fd())) {
					return Usagef("python install installs Python %s for this user: pass --yes to run it without a terminal", plan.Minor)
				}
				printPythonPlan(out, plan)
				fmt.Fprint(out, "Install it? [y/N] ")
				var answer string
				fmt.Fscanln(cmd.InOrStdin(), &answer)
				if s := strings.ToLower(strings.TrimSpace(answer)); s != "y" && s != "yes" {
					fmt.Fprintln(out, "Nothing changed.")
					return Silent(ExitFailure)
				}
			} else if !asJSON {
				printPythonPlan(out, plan)
			}
			if logPath == "" {
				logPath = install.DefaultLogPath("python-install")
			}
			w, opened, closeLog := install.OpenLog(logPath)
			defer closeLog()
			o.Run = runner.New(w)
			bar := &byteProgress{w: out}
			o.OnEvent = func(e pyget.Event) {
				if asJSON {
					return
				}
				switch {
				case e.Message != "":
					fmt.Fprintf(out, "%s: %s\n", e.Step, e.Message)
				case e.Line != "":
					fmt.Fprintf(out, "  %s\n", e.Line)
				case e.Total > 0:
					bar.update(e.Done, e.Total)
				}
			}
			res, err := pyget.Run(cmd.Context(), o, plan)
			rep.Result = &res
			code := ExitOK
			switch {
			case res.Cancelled:
				code = ExitInterrupted
			case err != nil:
				code = ExitFailure
			}
			if !asJSON {
				switch {
				case err != nil:
					fmt.Fprintf(cmd.ErrOrStderr(), "gpuwiz: %v\nlog: %s\n", err, opened)
				case res.Python != nil:
					fmt.Fprintf(out, "✓ Python %s installed for this user: %s\n  make a venv with it: gpuwiz venv --python \"%s\" PATH\n", res.Python.Version, res.Python.Path, res.Python.Path)
				}
			}
			return finish(code)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().BoolVar(&yes, "yes", false, "install without asking")
	cmd.Flags().StringVar(&mirror, "mirror", "", "a copy of "+pyget.OfficialBase+" to download the installer from (the python.org installer, not winget)")
	cmd.Flags().StringVar(&sum, "sha256", "", "the installer's SHA-256, for a version whose checksum gpuwiz cannot read")
	cmd.Flags().StringVar(&logPath, "log", "", "log file (default: in gpuwiz's log folder)")
	return cmd
}

// installedPython is an interpreter already here that the plan would install: same minor (and
// version when one was named), 64-bit, able to make venvs.
func installedPython(cmd *cobra.Command, minor, exact string) *pyenv.Interpreter {
	found, err := pyenv.Discover(cmd.Context(), pyenv.DiscoverOptions{})
	if err != nil {
		return nil
	}
	for _, in := range found {
		if in.MinorVersion() == minor && (exact == "" || in.Version == exact) &&
			in.Kind != "store" && in.Kind != "venv" && in.Bits == 64 && len(in.VenvMissing) == 0 {
			return &in
		}
	}
	return nil
}

func printPythonPlan(w io.Writer, p pyget.Plan) {
	if p.Method == pyget.MethodDistro {
		if p.Fix != nil {
			fmt.Fprintf(w, "To install Python %s with venv, run:\n\n    %s\n\n", p.Minor, p.Fix.Command)
		}
		for _, n := range p.Notes {
			fmt.Fprintf(w, "note: %s\n", n)
		}
		return
	}
	fmt.Fprintf(w, "Plan: Python %s for this user, with the %s\n", strings.TrimSpace(p.Minor+" "+strings.TrimPrefix(p.Version, p.Minor)), p.Method)
	if p.URL != "" {
		fmt.Fprintf(w, "  download %s\n  check SHA-256 %s\n", p.URL, orText(p.SHA256, "read from "+p.ChecksumFrom))
		if p.SHA256 != "" {
			fmt.Fprintf(w, "    (%s)\n", p.ChecksumFrom)
		}
	}
	fmt.Fprintf(w, "  run %s\n  then look for %s\n", runner.QuoteArgv(p.Command), p.Target)
	for _, n := range p.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
}

func orText(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// byteProgress prints the download every 10%.
type byteProgress struct {
	w    io.Writer
	last int64
}

func (b *byteProgress) update(done, total int64) {
	pct := done * 100 / total
	if pct/10 == b.last/10 && pct != 100 || pct == b.last {
		return
	}
	b.last = pct
	fmt.Fprintf(b.w, "  %3d%%  %.1f of %.1f MB\n", pct, float64(done)/1e6, float64(total)/1e6)
}

// RecommendedPython is the Python minor most of the matrix's releases for this OS support.
func RecommendedPython(env *Env) string {
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
	return pyenv.RecommendedMinor(ranges)
}
