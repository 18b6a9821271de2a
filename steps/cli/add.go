package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/words"
)

func init() { register(53, newAddCmd) }

// addReport is `gpuwiz add --json`.
type addReport struct {
	ExitCode int                 `json:"exit_code"`
	Preview  *app.PipPreview     `json:"preview,omitempty"`
	Outcome  *app.InstallOutcome `json:"outcome,omitempty"`
	Error    string              `json:"error,omitempty"`
}

// addOptions is what `gpuwiz add` was asked (its arguments and flags) and the streams it talks on.
type addOptions struct {
	streams
	Packages            []string // the arguments
	Venv                string
	Requirements        []string // -r files
	IndexURL, FindLinks string
	CacheDir, Log       string
	DryRun, Yes         bool
}

func newAddCmd(env *Env) *cobra.Command {
	return newCommand(env, command[addOptions]{
		use:   "add [PACKAGE...]",
		short: i18n.T("cli.add.short"),
		long:  i18n.T("cli.add.long"),
		example: "  gpuwiz add --venv ./venv-torch -r requirements.txt\n  gpuwiz add --venv ./venv-torch ultralytics --dry-run\n" + //i18n:raw commands
			"  gpuwiz add --venv ./venv-paddle paddleocr --index-url https://pypi.tuna.tsinghua.edu.cn/simple --yes", //i18n:raw commands
		args: cobra.ArbitraryArgs,
		json: i18n.T("cli.add.flag.json"),
		flags: func(cmd *cobra.Command, o *addOptions) {
			f := cmd.Flags()
			f.Var(newEnvFlag(&o.Venv), "venv", i18n.T("cli.add.flag.venv"))
			f.StringArrayVarP(&o.Requirements, "requirement", "r", nil, i18n.T("cli.add.flag.requirement"))
			f.StringVar(&o.IndexURL, "index-url", "", i18n.T("cli.add.flag.index_url"))
			f.StringVar(&o.FindLinks, "find-links", "", i18n.T("cli.add.flag.find_links"))
			f.StringVar(&o.CacheDir, "cache-dir", "", i18n.T("cli.install.flag.cache_dir", i18n.D{"Dir": app.DefaultCacheDir()}))
			f.StringVar(&o.Log, "log", "", i18n.T("cli.add.flag.log"))
			f.BoolVar(&o.DryRun, "dry-run", false, i18n.T("cli.add.flag.dry_run"))
			f.BoolVarP(&o.Yes, "yes", "y", false, i18n.T("cli.add.flag.yes"))
		},
		prepare: func(_ *cobra.Command, pkgs []string, o *addOptions) error {
			o.Packages = pkgs
			return nil
		},
		run: addRun,
	})
}

// addRun previews what a project's requirements change in the venv, asks (unless --yes) and installs them, the framework build kept.
func addRun(ctx context.Context, env *Env, o addOptions) error {
	pkgs, venv, reqs, indexURL, findLinks, cacheDir, logFile := o.Packages, o.Venv, o.Requirements, o.IndexURL, o.FindLinks, o.CacheDir, o.Log
	dryRun, yes, asJSON := o.DryRun, o.Yes, o.JSON
	out := o.Out
	if venv == "" {
		return Usagef("%s", i18n.T("cli.add.needs_venv"))
	}
	root, err := existingVenv(venv)
	if err != nil {
		return err
	}
	var files []string
	for _, r := range reqs {
		p, err := filepath.Abs(r)
		if err == nil {
			_, err = os.Stat(p)
		}
		if err != nil {
			return Usagef("%s", i18n.T("cli.add.no_file", i18n.D{"File": r}))
		}
		files = append(files, p)
	}
	rep := addReport{}
	finish := func(code int, err error) error {
		rep.ExitCode = code
		if err != nil {
			rep.Error = err.Error()
		}
		if asJSON {
			if e := writeJSON(out, rep); e != nil {
				return e
			}
			return endWith(code)
		}
		if err != nil {
			return err
		}
		return endWith(code)
	}
	s, err := env.PlanAdd(ctx, app.AddRequest{Venv: root, Requirements: files, Packages: pkgs,
		IndexURL: indexURL, FindLinks: findLinks, CacheDir: cacheDir, LogPath: logFile})
	if s != nil {
		rep.Preview = &s.Preview
	}
	if err != nil {
		code := app.CodeOf(err, ExitFailure)
		if code == ExitIncompatible {
			if !asJSON {
				printAddPreview(out, s)
			}
			return finish(code, nil)
		}
		if asJSON {
			return finish(code, err)
		}
		var f *app.AddPreviewFailed
		if errors.As(err, &f) {
			return Exitf(code, "%s", addFailureWords(f))
		}
		return err
	}
	if !asJSON {
		printAddPreview(out, s)
	}
	if dryRun || len(s.Preview.Changes) == 0 {
		if !asJSON && len(s.Preview.Changes) == 0 {
			fmt.Fprintln(out, i18n.T("cli.add.nothing_to_do"))
		}
		return finish(ExitOK, nil)
	}
	if !yes {
		if asJSON || !o.Interactive {
			return Usagef("%s", i18n.T("cli.add.needs_yes"))
		}
		if !confirmed(o.In, out, i18n.T("cli.install.confirm")) {
			fmt.Fprintln(out, i18n.T("cli.install.nothing_changed"))
			return Silent(ExitFailure)
		}
	}
	if !asJSON {
		fmt.Fprintln(out, i18n.T("cli.install.log", i18n.D{"Path": s.LogPath}))
	}
	var res app.AddResult
	tail := followRun(out, asJSON, func(events chan<- app.InstallEvent) { res, err = s.Run(ctx, events) })
	if err != nil {
		return finish(app.CodeOf(err, ExitFailure), err)
	}
	rep.Outcome = &res.Outcome
	if !asJSON {
		printOutcome(out, res.Outcome, tail, nil)
	}
	return finish(res.ExitCode, nil)
}

// printAddPreview says what the project's requirements would change, or why they cannot go in.
func printAddPreview(w io.Writer, s *app.AddSession) {
	p := s.Preview
	fmt.Fprintln(w, i18n.T("cli.add.keeps", i18n.D{"Build": strings.Join(p.Build, " "), "Venv": p.Venv}))
	switch {
	case p.IndexURL == "":
		fmt.Fprintln(w, i18n.T("cli.add.from_pip_settings"))
	case p.ExtraIndexURL != "":
		fmt.Fprintln(w, i18n.T("cli.add.from_lock_mirror", i18n.D{"Index": app.Redact(p.IndexURL), "Framework": app.Redact(p.ExtraIndexURL)}))
	default:
		fmt.Fprintln(w, i18n.T("cli.add.from_index", i18n.D{"Index": app.Redact(p.IndexURL)}))
	}
	if ref := p.Refusal; ref != nil {
		fmt.Fprintln(w, i18n.T("cli.add.refused", i18n.D{"Requirement": ref.Requirement, "Needs": ref.Needs, "Installed": ref.Installed}))
		printWayOut(w, s)
		return
	}
	printAddChanges(w, p)
}

// printWayOut names the channel change that satisfies a refused requirement, or says there is none.
func printWayOut(w io.Writer, s *app.AddSession) {
	p := s.Preview
	{
		if s.WayOut != "" {
			fmt.Fprintln(w, i18n.T("cli.add.way_out", i18n.D{"Version": s.WayOut, "Channel": p.Channel,
				"Command": gpuwizLine("install", "--venv", p.Venv, "--framework", p.Framework, "--framework-version", s.WayOut, "--channel", p.Channel)}))
		} else {
			fmt.Fprintln(w, i18n.T("cli.add.way_out_none"))
		}
	}
}

// printAddChanges lists what would be added or upgraded, then the known troublemakers among them.
func printAddChanges(w io.Writer, p app.PipPreview) {
	for _, c := range p.Changes {
		if c.From == "" {
			fmt.Fprintln(w, "  + "+i18n.T("cli.add.change.new", i18n.D{"Name": c.Name, "To": c.To}))
		} else {
			fmt.Fprintln(w, "  ~ "+i18n.T("cli.add.change.upgrade", i18n.D{"Name": c.Name, "From": c.From, "To": c.To}))
		}
	}
	for _, t := range p.Troubles {
		dists := strings.Join(t.Dists, ", ")
		switch t.Code {
		case app.TroubleSecondFramework:
			fmt.Fprintln(w, i18n.T("cli.add.trouble.second_framework", i18n.D{"Dists": dists}))
		case app.TroubleOpenCVVariants:
			fmt.Fprintln(w, i18n.T("cli.add.trouble.opencv", i18n.D{"Dists": dists}))
		case app.TroubleNumpyMajor:
			fmt.Fprintln(w, i18n.T("cli.add.trouble.numpy", i18n.D{"Dists": dists}))
		}
	}
}

// addFailureWords words a preview pip could not make (words.AddFailure), one line each.
func addFailureWords(f *app.AddPreviewFailed) string {
	what, do, log := words.AddFailure(f.Kind, f.Package, f.LogPath, i18n.T("cli.add.another_source"))
	return what + "\n" + do + "\n" + log
}
