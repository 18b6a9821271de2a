package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

func init() { register(40, newPythonCmd) }

// pythonOptions is what `gpuwiz python` was asked (its flags) and where it prints.
type pythonOptions struct {
	streams
	Python string // --python: describe this interpreter too
}

func newPythonCmd(env *Env) *cobra.Command {
	return newCommand(env, command[pythonOptions]{
		use:   "python",
		short: i18n.T("cli.python.short"),
		json:  i18n.T("cli.flag.json"),
		flags: func(cmd *cobra.Command, o *pythonOptions) {
			cmd.Flags().StringVar(&o.Python, "python", "", i18n.T("cli.python.flag.python"))
			cmd.AddCommand(newPythonInstallCmd(env))
		},
		run: pythonRun,
	})
}

// pythonRun lists the Python interpreters found, or says which Python to install when none runs.
func pythonRun(ctx context.Context, env *Env, o pythonOptions) error {
	explicit := o.Python
	if explicit != "" {
		p, err := pythonFlag(explicit)
		if err != nil {
			return err
		}
		explicit = p
	}
	found, err := app.DiscoverPythons(ctx, app.DiscoverOptions{Explicit: explicit})
	if err != nil {
		if explicit != "" && ctx.Err() == nil {
			return Usagef("%v", err)
		}
		return err
	}
	if o.JSON {
		doc := map[string]any{"interpreters": interpretersOrEmpty(found)}
		if !anyRuns(found) {
			doc["advice"] = noPythonAdvice(env)
		}
		if err := writePyenvJSON(o.Out, doc); err != nil {
			return err
		}
		if !anyRuns(found) {
			return Silent(ExitFailure)
		}
		return nil
	}
	printInterpreters(o.Out, found)
	if !anyRuns(found) {
		return Exitf(ExitFailure, "%s", noPythonAdvice(env))
	}
	return nil
}

// noPythonAdvice names the Python to install: the minor most of the matrix's releases for this OS support.
func noPythonAdvice(env *Env) string {
	return env.NoPythonAdvice()
}

// anyRuns reports an interpreter that ran (the Store alias is listed but is not a Python).
func anyRuns(found []app.Interpreter) bool {
	for _, in := range found {
		if in.Version != "" {
			return true
		}
	}
	return false
}

func interpretersOrEmpty(in []app.Interpreter) []app.Interpreter {
	if in == nil {
		return []app.Interpreter{}
	}
	return in
}

func printInterpreters(w io.Writer, found []app.Interpreter) {
	for _, in := range found {
		if in.Kind == "store" && in.Version == "" {
			fmt.Fprintf(w, "%s\n  %s\n", in.Path, i18n.T("cli.python.store_alias", i18n.D{"Source": in.Source}))
			for _, warn := range in.Warnings {
				fmt.Fprintln(w, "  "+i18n.T("cli.warning", i18n.D{"Text": warn}))
			}
			continue
		}
		fmt.Fprintf(w, "%s\n  %s\n", in.Path, i18n.T("cli.python.found", i18n.D{"Version": versionOrQuestion(in.Version), "Bits": in.Bits, "Kind": in.Kind, "Source": in.Source}))
		for _, warn := range in.Warnings {
			fmt.Fprintln(w, "  "+i18n.T("cli.warning", i18n.D{"Text": warn}))
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

type pythonInstallReport struct {
	Plan             *app.PythonPlan   `json:"plan,omitempty"`
	AlreadyInstalled *app.Interpreter  `json:"already_installed,omitempty"`
	Result           *app.PythonResult `json:"result,omitempty"`
	ExitCode         int               `json:"exit_code"`
}

// pythonInstallOptions is what `gpuwiz python install` was asked (its argument and flags) and the streams it talks on.
type pythonInstallOptions struct {
	streams
	Version             string // the argument, else the matrix's recommended minor
	Yes                 bool
	Mirror, SHA256, Log string
}

func newPythonInstallCmd(env *Env) *cobra.Command {
	return newCommand(env, command[pythonInstallOptions]{
		use:   "install [VERSION]", //i18n:raw a usage line: the command and its argument's name
		short: i18n.T("cli.python.install.short"),
		long:  i18n.T("cli.python.install.long", i18n.D{"Mirrors": strings.Join(app.PythonMirrors, i18n.T("cli.python.install.or"))}),
		args:  cobra.MaximumNArgs(1),
		json:  i18n.T("cli.flag.json"),
		flags: func(cmd *cobra.Command, o *pythonInstallOptions) {
			cmd.Flags().BoolVar(&o.Yes, "yes", false, i18n.T("cli.python.install.flag.yes"))
			cmd.Flags().StringVar(&o.Mirror, "mirror", "", i18n.T("cli.python.install.flag.mirror", i18n.D{"URL": app.PythonOfficialBase}))
			cmd.Flags().StringVar(&o.SHA256, "sha256", "", i18n.T("cli.python.install.flag.sha256"))
			cmd.Flags().Var(app.PathFlag(&o.Log), "log", i18n.T("cli.python.install.flag.log"))
		},
		prepare: func(_ *cobra.Command, args []string, o *pythonInstallOptions) error {
			o.Version = env.RecommendedPython()
			if len(args) == 1 {
				o.Version = args[0]
			}
			return nil
		},
		run: pythonInstallRun,
	})
}

// pythonInstallRun plans the Python install, asks (unless --yes) and runs it.
func pythonInstallRun(ctx context.Context, env *Env, o pythonInstallOptions) error {
	asJSON, yes, mirror, sum, logPath := o.JSON, o.Yes, o.Mirror, o.SHA256, o.Log
	out := o.Out
	version := o.Version
	rep := pythonInstallReport{}
	finish := func(code int) error {
		rep.ExitCode = code
		if asJSON {
			if err := writePyenvJSON(out, rep); err != nil {
				return err
			}
		}
		return endWith(code)
	}
	sess, err := env.PlanPython(ctx, app.PythonRequest{Version: version, Mirror: mirror, SHA256: sum, LogPath: logPath})
	if err != nil {
		return err
	}
	plan := sess.Plan
	rep.Plan = &plan
	if have := sess.AlreadyInstalled; have != nil {
		rep.AlreadyInstalled = have
		if !asJSON {
			fmt.Fprintln(out, i18n.T("cli.python.install.already", i18n.D{"Version": have.Version, "Path": have.Path, "Kind": have.Kind}))
		}
		return finish(ExitOK)
	}
	if plan.Method == app.PythonByDistro {
		if !asJSON {
			printPythonPlan(out, plan)
		}
		return finish(ExitOK)
	}
	if !yes {
		if asJSON || !o.Interactive {
			return Usagef("%s", i18n.T("cli.python.install.needs_yes", i18n.D{"Version": plan.Minor}))
		}
		printPythonPlan(out, plan)
		if !confirmed(o.In, out, i18n.T("cli.python.install.ask")+" ") {
			fmt.Fprintln(out, i18n.T("cli.python.install.nothing_changed"))
			return Silent(ExitFailure)
		}
	} else if !asJSON {
		printPythonPlan(out, plan)
	}
	bar := &byteProgress{w: out}
	onEvent := func(e app.PythonEvent) {
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
	res, opened, err := sess.Run(ctx, onEvent)
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
			fmt.Fprintf(o.ErrOut, "%s\n%s\n", i18n.Said(err), i18n.T("cli.python.install.log", i18n.D{"Path": opened}))
		case res.Python != nil:
			fmt.Fprintln(out, "✓ "+i18n.T("cli.python.install.done", i18n.D{"Version": res.Python.Version, "Path": res.Python.Path}))
			fmt.Fprintln(out, "  "+i18n.T("cli.python.install.make_venv", i18n.D{"Command": `gpuwiz venv --python "` + res.Python.Path + `" PATH`})) //i18n:raw a command to type
		}
	}
	return finish(code)
}

func printPythonPlan(w io.Writer, p app.PythonPlan) {
	if p.Method == app.PythonByDistro {
		if p.Fix != nil {
			fmt.Fprintf(w, "%s\n\n    %s\n\n", i18n.T("cli.python.install.distro_run", i18n.D{"Version": p.Minor}), p.Fix.Command)
		}
		for _, n := range p.Notes {
			fmt.Fprintln(w, i18n.T("cli.python.install.note", i18n.D{"Text": n}))
		}
		return
	}
	version := p.Version // "3.12.10"; the minor alone when the plan has no exact version yet
	if version == "" {
		version = p.Minor
	}
	fmt.Fprintln(w, i18n.T("cli.python.install.plan", i18n.D{"Version": version, "Method": methodWords(p.Method)}))
	if p.URL != "" {
		fmt.Fprintln(w, "  "+i18n.T("cli.python.install.download", i18n.D{"URL": app.Redact(p.URL)}))
		fmt.Fprintln(w, "  "+i18n.T("cli.python.install.check_sum", i18n.D{"Sum": orText(p.SHA256, i18n.T("cli.python.install.sum_from", i18n.D{"From": p.ChecksumFrom}))}))
		if p.SHA256 != "" {
			fmt.Fprintf(w, "    (%s)\n", p.ChecksumFrom)
		}
	}
	fmt.Fprintln(w, "  "+i18n.T("cli.python.install.run", i18n.D{"Command": app.QuoteArgv(p.Command)}))
	fmt.Fprintln(w, "  "+i18n.T("cli.python.install.look_for", i18n.D{"Target": p.Target}))
	for _, n := range p.Notes {
		fmt.Fprintln(w, i18n.T("cli.python.install.note", i18n.D{"Text": n}))
	}
}

// methodWords is how the plan installs, in words (the JSON keeps pyget's value).
func methodWords(m string) string {
	if m == app.PythonByInstaller {
		return i18n.T("cli.python.install.method_installer")
	}
	return m
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
	fmt.Fprintln(b.w, i18n.T("cli.python.install.progress", i18n.D{"Pct": fmt.Sprintf("%3d", pct), "Done": fmt.Sprintf("%.1f", float64(done)/1e6), "Total": fmt.Sprintf("%.1f", float64(total)/1e6)}))
}
