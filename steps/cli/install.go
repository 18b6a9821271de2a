package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/pelletier/go-toml/v2"
	"github.com/spf13/cobra"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/words"
)

func init() { register(50, newInstallCmd) }

// installAnswers are install's choices; an answer file (--config) holds the same keys as the flags.
type installAnswers struct {
	Framework        string `toml:"framework"`
	FrameworkVersion string `toml:"framework-version"`
	Channel          string `toml:"channel"`
	Venv             string `toml:"venv"`
	Python           string `toml:"python"`
	IndexURL         string `toml:"index-url"`
	Mirror           string `toml:"mirror"`
	FindLinks        string `toml:"find-links"`
	CacheDir         string `toml:"cache-dir"`
	Log              string `toml:"log"`
	NoPipUpgrade     bool   `toml:"no-pip-upgrade"`
	FixPth           bool   `toml:"fix-pth"`
	Force            bool   `toml:"force"`
	Yes              bool   `toml:"yes"`
	DryRun           bool   `toml:"dry-run"`
	JSON             bool   `toml:"json"`
}

// installReport is install's JSON output: the plan, and after a run its outcome.
type installReport struct {
	ExitCode  int                 `json:"exit_code"`
	Candidate *app.Candidate      `json:"candidate,omitempty"`
	Plan      *app.InstallPlan    `json:"plan,omitempty"`
	Outcome   *app.InstallOutcome `json:"outcome,omitempty"`
	Error     string              `json:"error,omitempty"`
	// The plan's lists at the top, for scripts: what goes, what comes, every command.
	Uninstall []string   `json:"uninstall"`
	Install   []string   `json:"install"`
	Commands  [][]string `json:"commands"`
	// Where it goes and how to enter it afterwards, one line per shell.
	Venv          string   `json:"venv"`
	ActivateHints []string `json:"activate_hints"`
}

// installOptions is what `gpuwiz install` was asked (its flags, else its answer file) and the
// streams it talks on.
type installOptions struct {
	installAnswers
	In          io.Reader
	Out, ErrOut io.Writer
	Interactive bool // a person can answer on In
}

func newInstallCmd(env *Env) *cobra.Command {
	var o installOptions
	a := &o.installAnswers
	var config string
	cmd := &cobra.Command{
		Use:   "install",
		Short: i18n.T("cli.install.short"),
		Long:  i18n.T("cli.install.long"),
		//i18n:raw commands to type, the same in every language
		Example: "  gpuwiz install --framework torch --channel cu126 --venv ./venv --yes\n" +
			"  gpuwiz install --framework paddle --venv D:\\envs\\paddle --mirror https://pypi.tuna.tsinghua.edu.cn/simple --dry-run --json\n" +
			"  gpuwiz install --config answers.toml --yes --json",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if config != "" {
				if err := readAnswers(config, a, cmd); err != nil {
					return err
				}
			}
			o.In, o.Out, o.ErrOut, o.Interactive = cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr(), interactive(cmd)
			return installRun(cmd.Context(), env, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&a.Framework, "framework", "torch", i18n.T("cli.install.flag.framework"))
	f.StringVar(&a.FrameworkVersion, "framework-version", "", i18n.T("cli.install.flag.framework_version"))
	f.StringVar(&a.Channel, "channel", "", i18n.T("cli.install.flag.channel"))
	f.Var(newEnvFlag(&a.Venv), "venv", i18n.T("cli.install.flag.venv"))
	f.Var(newEnvFlag(&a.Venv), "env", i18n.T("cli.install.flag.env"))
	cmd.MarkFlagsMutuallyExclusive("venv", "env") // one variable: given both, the last would win silently
	f.StringVar(&a.Python, "python", "", i18n.T("cli.install.flag.python"))
	f.StringVar(&a.IndexURL, "index-url", "", i18n.T("cli.install.flag.index_url"))
	f.StringVar(&a.Mirror, "mirror", "", i18n.T("cli.install.flag.mirror"))
	f.StringVar(&a.FindLinks, "find-links", "", i18n.T("cli.install.flag.find_links"))
	f.Var(app.PathFlag(&a.CacheDir), "cache-dir", i18n.T("cli.install.flag.cache_dir", i18n.D{"Dir": app.DefaultCacheDir()}))
	f.Var(app.PathFlag(&a.Log), "log", i18n.T("cli.install.flag.log", i18n.D{"Dir": filepath.Dir(app.DefaultLogPath("install"))}))
	f.BoolVar(&a.NoPipUpgrade, "no-pip-upgrade", false, i18n.T("cli.install.flag.no_pip_upgrade"))
	f.BoolVar(&a.FixPth, "fix-pth", false, i18n.T("cli.install.flag.fix_pth"))
	f.BoolVar(&a.Force, "force", false, i18n.T("cli.install.flag.force"))
	f.BoolVar(&a.DryRun, "dry-run", false, i18n.T("cli.install.flag.dry_run"))
	f.BoolVar(&a.Yes, "yes", false, i18n.T("cli.install.flag.yes"))
	f.BoolVar(&a.JSON, "json", false, i18n.T("cli.install.flag.json"))
	f.Var(app.PathFlag(&config), "config", i18n.T("cli.install.flag.config"))
	return cmd
}

// readAnswers fills every choice that no flag set from the TOML answer file; unknown keys are errors.
func readAnswers(path string, a *installAnswers, cmd *cobra.Command) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return Usagef("--config: %v", err)
	}
	var file installAnswers
	dec := toml.NewDecoder(bytes.NewReader(b)).DisallowUnknownFields()
	if err := dec.Decode(&file); err != nil {
		var sm *toml.StrictMissingError
		if errors.As(err, &sm) {
			return Usagef("%s", i18n.N("cli.install.config_unknown_keys", len(sm.Errors), i18n.D{"File": path, "Keys": sm.String()}))
		}
		return Usagef("--config %s: %v", path, err)
	}
	fl := cmd.Flags()
	set := func(name string, dst *string, v string) {
		if !fl.Changed(name) && v != "" {
			*dst = v
		}
	}
	setb := func(name string, dst *bool, v bool) {
		if !fl.Changed(name) && v {
			*dst = v
		}
	}
	set("framework", &a.Framework, file.Framework)
	set("framework-version", &a.FrameworkVersion, file.FrameworkVersion)
	set("channel", &a.Channel, file.Channel)
	if !fl.Changed("venv") && !fl.Changed("env") && file.Venv != "" {
		a.Venv = file.Venv
		if !filepath.IsAbs(a.Venv) {
			a.Venv = filepath.Join(filepath.Dir(path), a.Venv)
		}
	}
	set("python", &a.Python, file.Python)
	set("index-url", &a.IndexURL, file.IndexURL)
	set("mirror", &a.Mirror, file.Mirror)
	set("find-links", &a.FindLinks, file.FindLinks)
	set("cache-dir", &a.CacheDir, file.CacheDir)
	set("log", &a.Log, file.Log)
	setb("no-pip-upgrade", &a.NoPipUpgrade, file.NoPipUpgrade)
	setb("fix-pth", &a.FixPth, file.FixPth)
	setb("force", &a.Force, file.Force)
	setb("yes", &a.Yes, file.Yes)
	setb("dry-run", &a.DryRun, file.DryRun)
	setb("json", &a.JSON, file.JSON)
	return nil
}

// installRun plans the install (a new venv from a base Python when there is none), shows the plan,
// asks (unless --yes) and runs it, recording the venv.
func installRun(ctx context.Context, env *Env, o installOptions) error {
	a := o.installAnswers
	// Index URLs may carry credentials (https://user:token@host/...): the plan, the events and the
	// JSON show them redacted, as the log does.
	out := app.RedactingWriter(o.Out)
	if a.Framework != "torch" && a.Framework != "paddle" {
		return Usagef("%s", i18n.T("cli.install.bad_framework", i18n.D{"Framework": strconv.Quote(a.Framework)}))
	}
	if a.Venv == "" {
		return Usagef("%s", i18n.T("cli.install.no_venv"))
	}
	for name, u := range map[string]string{"--index-url": a.IndexURL, "--mirror": a.Mirror, "--find-links": a.FindLinks} {
		if u != "" {
			if _, err := app.CheckURL(u); err != nil {
				return Usagef("%s: %v", name, err)
			}
		}
	}
	root, err := filepath.Abs(a.Venv)
	if err != nil {
		return Usagef("--venv %q: %v", a.Venv, err)
	}
	v := app.Venv{Root: root}
	if check := app.CheckVenvPath(root, ""); !check.OK() {
		return Usagef("--venv %s: %s", root, i18n.JoinClauses(check.Errors))
	}
	python := a.Python
	if !v.Exists() && python == "" {
		in, err := app.ChooseBasePython(ctx, "")
		if err != nil {
			return err
		}
		python = in.Path
	} else if python != "" {
		p, err := pythonFlag(python)
		if err != nil {
			return err
		}
		python = p
	}
	req := app.InstallRequest{Framework: a.Framework, FrameworkVersion: a.FrameworkVersion, Channel: a.Channel, Venv: root,
		Python: python, IndexURL: a.IndexURL, Mirror: a.Mirror, FindLinks: a.FindLinks, CacheDir: a.CacheDir, LogPath: a.Log,
		NoPipUpgrade: a.NoPipUpgrade, Force: a.Force, FixPth: a.FixPth}
	sess, err := env.PlanInstall(ctx, req)
	var notServed *app.ErrNotServed
	if errors.As(err, &notServed) {
		return Exitf(ExitIncompatible, "%s", notServed.Check.Verdict.Message())
	}
	if err != nil {
		return err
	}
	cand, plan := &sess.Candidate, sess.Plan
	plan.Notes = append(append(words.Texts(sess.Notes), indexNotes(sess.Index)...), plan.Notes...)
	logPath := sess.LogPath
	rep := installReport{Candidate: cand}
	rep.Plan, rep.Uninstall, rep.Install, rep.Commands = &plan, plan.Uninstall, plan.Install, plan.Commands
	rep.Venv, rep.ActivateHints = plan.Venv, v.ActivateHints()
	if a.DryRun {
		if a.JSON {
			return writeInstallJSON(out, rep)
		}
		printPlan(out, plan, *cand)
		return nil
	}
	if !a.Yes {
		if a.JSON || !o.Interactive {
			return Usagef("%s", i18n.T("cli.install.needs_yes", i18n.D{"Venv": root}))
		}
		printPlan(out, plan, *cand)
		if !confirmed(o.In, out, i18n.T("cli.install.confirm")) {
			fmt.Fprintln(out, i18n.T("cli.install.nothing_changed"))
			return Silent(ExitFailure)
		}
	}
	if !a.JSON {
		fmt.Fprintln(out, i18n.T("cli.install.installing", i18n.D{"Framework": cand.Framework, "Version": cand.FrameworkVersion, "Channel": cand.Channel, "Venv": root}))
		fmt.Fprintln(out, i18n.T("cli.install.log", i18n.D{"Path": logPath}))
	}
	sess.Plan = plan
	var res app.InstallResult
	tail := followRun(out, a.JSON, func(events chan<- app.InstallEvent) { res = sess.Run(ctx, events) })
	warnNotRecorded(o.ErrOut, res.RecordErr)
	rep.Outcome = &res.Outcome
	if res.Activations == nil {
		rep.ActivateHints = nil // there is no venv left to enter
	}
	code := res.ExitCode
	rep.ExitCode = code
	if a.JSON {
		if err := writeInstallJSON(out, rep); err != nil {
			return err
		}
	} else {
		printOutcome(out, res.Outcome, tail, rep.ActivateHints)
	}
	if code != 0 {
		return Silent(code)
	}
	return nil
}

// indexNotes words the index's answer for the plan: a build forced past a refusal, an index that
// could not be read, a --find-links page or folder that was not asked.
func indexNotes(c app.IndexCheck) []string {
	switch {
	case c.Refused():
		return []string{"--force: " + c.Verdict.Message()}
	case c.CouldNotLook():
		return []string{i18n.T("cli.install.index_unreadable", i18n.D{"Reason": c.Verdict.Reason()})}
	case c.NotAsked == app.NotAskedFindLinks:
		return []string{i18n.T("cli.install.index_not_checked")}
	}
	return nil
}

func writeInstallJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
