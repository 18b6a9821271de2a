package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"gpuwiz/steps/userpath"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/spf13/cobra"

	"gpuwiz/steps/doctor"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/install"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/urls"
)

func init() { register(70, newDoctorCommand) }

// DoctorFixJSON is `gpuwiz doctor --fix --json`: the diagnosis, the plan and what applying it did.
type DoctorFixJSON struct {
	Report doctor.Report        `json:"report"`
	Repair doctor.Repair        `json:"repair"`
	Result *doctor.RepairResult `json:"result,omitempty"`
}

func newDoctorCommand(env *Env) *cobra.Command {
	var venv, python, bundle, config, reqFile string
	var asJSON, fix, yes, finish bool
	var src install.ReinstallOptions
	cmd := &cobra.Command{
		Use:   "doctor [--venv PATH | --python PATH]", //i18n:raw the command and its syntax, typed as it is
		Short: i18n.T("cli.doctor.short"),
		Long:  i18n.T("cli.doctor.long"),
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if venv != "" && python != "" {
				return Usagef("%s", i18n.T("cli.doctor.venv_and_python"))
			}
			if bundle != "" {
				if st, err := os.Stat(filepath.Dir(bundle)); err != nil || !st.IsDir() {
					return Usagef("%s", i18n.T("cli.doctor.bundle_folder", i18n.D{"File": bundle, "Folder": filepath.Dir(bundle)}))
				}
			}
			if reqFile != "" {
				if fix || bundle != "" || python != "" || config != "" {
					return Usagef("%s", i18n.T("cli.doctor.req.alone"))
				}
				if venv == "" {
					return Usagef("%s", i18n.T("cli.doctor.req.needs_venv"))
				}
			}
			if yes && !fix {
				return Usagef("%s", i18n.T("cli.doctor.only_with_fix", i18n.D{"Flag": "--yes"}))
			}
			if finish && !fix {
				return Usagef("%s", i18n.T("cli.doctor.only_with_fix", i18n.D{"Flag": "--finish"}))
			}
			if config != "" {
				if !fix {
					return Usagef("%s", i18n.T("cli.doctor.only_with_fix", i18n.D{"Flag": "--config"}))
				}
				if err := readRepairAnswers(config, cmd, &src, &yes); err != nil {
					return err
				}
			}
			for name, u := range map[string]string{"--index-url": src.IndexURL, "--mirror": src.Mirror, "--find-links": src.FindLinks} {
				if u == "" {
					continue
				}
				if !fix && reqFile == "" {
					return Usagef("%s", i18n.T("cli.doctor.only_with_fix", i18n.D{"Flag": name}))
				}
				if _, err := urls.Check(u); err != nil {
					return Usagef("%s: %v", name, err)
				}
			}
			if reqFile != "" {
				idx := src.IndexURL
				if idx == "" {
					idx = src.Mirror
				}
				return predictAdd(cmd.Context(), env, cmd.OutOrStdout(), venv, reqFile, idx, src.FindLinks, asJSON)
			}
			if python != "" {
				p, err := pythonFlag(python)
				if err != nil {
					return err
				}
				python = p
			}
			return runDoctor(cmd.Context(), env, cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr(), doctor.Options{Venv: venv, Python: python}, bundle, asJSON, fix, yes, finish, src)
		},
	}
	f := cmd.Flags()
	f.Var(newEnvFlag(&venv), "venv", i18n.T("cli.doctor.flag.venv"))
	f.Var(newEnvFlag(&venv), "env", i18n.T("cli.doctor.flag.env"))
	cmd.MarkFlagsMutuallyExclusive("venv", "env") // one variable: given both, the last would win silently
	f.StringVar(&python, "python", "", i18n.T("cli.doctor.flag.python"))
	f.BoolVar(&asJSON, "json", false, i18n.T("cli.doctor.flag.json"))
	f.Var(userpath.NewFlag(&bundle), "bundle", i18n.T("cli.doctor.flag.bundle"))
	f.BoolVar(&fix, "fix", false, i18n.T("cli.doctor.flag.fix"))
	f.BoolVar(&yes, "yes", false, i18n.T("cli.doctor.flag.yes"))
	f.BoolVar(&finish, "finish", false, i18n.T("cli.doctor.flag.finish"))
	f.StringVar(&src.IndexURL, "index-url", "", i18n.T("cli.doctor.flag.index_url"))
	f.StringVar(&src.Mirror, "mirror", "", i18n.T("cli.doctor.flag.mirror"))
	f.StringVar(&src.FindLinks, "find-links", "", i18n.T("cli.doctor.flag.find_links"))
	f.Var(userpath.NewFlag(&src.CacheDir), "cache-dir", i18n.T("cli.doctor.flag.cache_dir"))
	f.Var(userpath.NewFlag(&config), "config", i18n.T("cli.doctor.flag.config"))
	f.Var(userpath.NewFlag(&reqFile), "requirements", i18n.T("cli.doctor.flag.requirements"))
	return cmd
}

func runDoctor(ctx context.Context, env *Env, stdin io.Reader, out, errOut io.Writer, opts doctor.Options, bundle string, asJSON, fix, yes, finish bool, src install.ReinstallOptions) error {
	var cmdLog bytes.Buffer
	// A repair's own check runs the framework's check on the reinstalled build; a support bundle
	// wants the whole diagnosis.
	opts.RepairFollows = fix && bundle == ""
	diag, err := env.Diagnose(ctx, opts, &cmdLog)
	if err != nil {
		return err
	}
	for _, n := range diag.Notes {
		fmt.Fprintln(errOut, "gpuwiz doctor:", n) //i18n:raw the program's name, before its message
	}
	rep := diag.Report
	if bundle != "" {
		g, _ := env.GPUReport(ctx)
		in := doctor.BundleInput{Report: rep, GPU: g, Runner: runner.New(&cmdLog), Env: doctor.OSEnviron{}, LogDirs: doctor.LogDirs(rep.Venv), CommandLog: cmdLog.Bytes()}
		if err := doctor.WriteBundle(ctx, bundle, in); err != nil {
			return Exitf(ExitFailure, "%s", i18n.T("cli.doctor.bundle_failed", i18n.D{"File": bundle, "Err": err}))
		}
		fmt.Fprintln(errOut, "gpuwiz doctor:", i18n.T("cli.doctor.bundle_written", i18n.D{"File": bundle})) //i18n:raw the program's name, before its message
	}
	if !fix {
		if asJSON {
			if err := writeDoctorJSON(out, rep); err != nil {
				return err
			}
		} else {
			doctor.WriteText(out, rep)
		}
		if rep.Problems > 0 {
			return Silent(ExitProblems)
		}
		return nil
	}
	sess, err := env.PlanRepairFinishing(ctx, diag, src, finish)
	if err != nil {
		return err
	}
	plan, rep := sess.Plan, sess.Report // the report the plan was made from
	if !asJSON {
		doctor.WriteText(out, rep)
		writeRepairPlan(out, plan)
	}
	if plan.Empty() {
		if asJSON {
			_ = writeDoctorJSON(out, DoctorFixJSON{Report: rep, Repair: plan})
		}
		if rep.Problems > 0 {
			return Silent(ExitProblems)
		}
		return nil
	}
	if !yes {
		if asJSON {
			return Usagef("%s", i18n.T("cli.doctor.fix_json_needs_yes"))
		}
		fmt.Fprint(out, i18n.T("cli.doctor.confirm"))
		var answer string
		fmt.Fscanln(stdin, &answer)
		if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
			fmt.Fprintln(out, i18n.T("cli.doctor.nothing_changed"))
			if rep.FrameworkCheck.Deferred {
				fmt.Fprintln(out, i18n.T("cli.doctor.check_left_for_repair"))
			}
			return Silent(ExitProblems)
		}
	}
	sess.LogTo(&cmdLog)
	events := make(chan doctor.RepairEvent, 256)
	done := make(chan struct{})
	go func() {
		for e := range events {
			if asJSON {
				continue
			}
			switch {
			case e.Line != "":
			case e.Done && e.Err != "":
				fmt.Fprintf(out, "  %s\n", i18n.T("cli.doctor.step_failed", i18n.D{"Err": e.Err}))
			case e.Done:
			case e.Step == 0:
				fmt.Fprintln(out, i18n.T("cli.doctor.checking_again"))
			default:
				fmt.Fprintf(out, "[%d/%d] %s\n", e.Step, e.Of, e.Title)
			}
		}
		close(done)
	}()
	ran := sess.Run(ctx, events)
	close(events)
	<-done
	warnNotRecorded(errOut, ran.RecordErr)
	res, logPath := ran.Result, ran.LogPath
	if ran.Err != nil {
		return ran.Err
	}
	if asJSON {
		if err := writeDoctorJSON(out, DoctorFixJSON{Report: rep, Repair: plan, Result: &res}); err != nil {
			return err
		}
	} else {
		if res.After != nil {
			fmt.Fprintln(out)
			doctor.WriteText(out, *res.After)
		}
		if logPath != "" {
			fmt.Fprintln(out, i18n.T("cli.doctor.log", i18n.D{"Path": logPath}))
		}
	}
	switch {
	case res.Failed:
		return Silent(ExitFailure)
	case res.After != nil && res.After.Problems > 0:
		return Silent(ExitProblems)
	}
	return nil
}

func writeRepairPlan(out io.Writer, p doctor.Repair) {
	fmt.Fprintln(out)
	fmt.Fprintln(out, i18n.T("cli.doctor.plan.title"))
	if p.Empty() {
		fmt.Fprintf(out, "  %s\n", i18n.T("cli.doctor.plan.nothing"))
	}
	for _, st := range p.Steps() { // in the order ApplyRepair runs them
		a := st.Action
		switch {
		case a == nil:
			c := p.Reinstall
			from := p.Source
			if from == "" {
				from = c.IndexURL
			}
			fmt.Fprintf(out, "  %d. %s\n", st.N, i18n.T("cli.doctor.plan.reinstall", i18n.D{"Framework": c.Framework, "Version": c.FrameworkVersion, "Channel": c.Channel, "Source": urls.Redact(from)}))
		case a.RemovePath != "" || len(a.Argv) == 0: // the title says it all: no command to show
			fmt.Fprintf(out, "  %d. %s\n", st.N, a.Title)
		default:
			fmt.Fprintf(out, "  %d. %s\n", st.N, i18n.T("cli.doctor.plan.action", i18n.D{"Title": a.Title, "Command": runner.QuoteArgv(a.Argv)}))
		}
	}
	for _, n := range p.Notes {
		fmt.Fprintf(out, "  %s\n", i18n.T("cli.doctor.plan.note", i18n.D{"Text": n}))
	}
	for _, f := range p.Unfixable {
		fmt.Fprintf(out, "  %s\n", i18n.T("cli.doctor.plan.left", i18n.D{"Title": f.Title, "Code": f.Code}))
	}
}

func writeDoctorJSON(out io.Writer, v any) error {
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// readRepairAnswers takes the sources (index-url, mirror, find-links, cache-dir) and yes from an
// install answer file, so one file serves install and repair; keys install does not know are errors.
func readRepairAnswers(path string, cmd *cobra.Command, src *install.ReinstallOptions, yes *bool) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return Usagef("--config: %v", err)
	}
	var file installAnswers
	if err := toml.NewDecoder(bytes.NewReader(b)).DisallowUnknownFields().Decode(&file); err != nil {
		var sm *toml.StrictMissingError
		if errors.As(err, &sm) {
			return Usagef("%s", i18n.N("cli.doctor.config_unknown_keys", len(sm.Errors), i18n.D{"File": path, "Keys": sm.String()}))
		}
		return Usagef("--config %s: %v", path, err)
	}
	fl := cmd.Flags()
	for _, k := range []struct {
		flag string
		dst  *string
		v    string
	}{{"index-url", &src.IndexURL, file.IndexURL}, {"mirror", &src.Mirror, file.Mirror}, {"find-links", &src.FindLinks, file.FindLinks}, {"cache-dir", &src.CacheDir, file.CacheDir}} {
		if !fl.Changed(k.flag) && k.v != "" {
			*k.dst = k.v
		}
	}
	if !fl.Changed("yes") && file.Yes {
		*yes = true
	}
	return nil
}
