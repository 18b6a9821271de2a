package cli

import (
	"bytes"
	"context"
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

func init() { register(70, newDoctorCommand) }

// DoctorFixJSON is `gpuwiz doctor --fix --json`: the diagnosis, the plan and what applying it did.
type DoctorFixJSON struct {
	Report app.DoctorReport        `json:"report"`
	Repair app.Repair              `json:"repair"`
	Result *app.DoctorRepairResult `json:"result,omitempty"`
}

// doctorOptions is what `gpuwiz doctor` was asked (its flags) and the streams it talks on.
type doctorOptions struct {
	streams
	Venv             string
	Python           string
	Bundle           string // --bundle: the support bundle's file
	Config           string // --config: an answer file for the repair's sources
	Requirements     string // --requirements: predict a project's requirements instead
	Fix, Yes, Finish bool
	Source           app.ReinstallOptions // where a repair takes its wheels from
}

func newDoctorCommand(env *Env) *cobra.Command {
	return newCommand(env, command[doctorOptions]{
		use:     "doctor [--venv PATH | --python PATH]", //i18n:raw the command and its syntax, typed as it is
		short:   i18n.T("cli.doctor.short"),
		long:    i18n.T("cli.doctor.long"),
		json:    i18n.T("cli.doctor.flag.json"),
		flags:   doctorFlags,
		prepare: doctorPrepare,
		run:     doctorRun,
	})
}

func doctorFlags(cmd *cobra.Command, o *doctorOptions) {
	f := cmd.Flags()
	f.Var(newEnvFlag(&o.Venv), "venv", i18n.T("cli.doctor.flag.venv"))
	f.Var(newEnvFlag(&o.Venv), "env", i18n.T("cli.doctor.flag.env"))
	cmd.MarkFlagsMutuallyExclusive("venv", "env") // one variable: given both, the last would win silently
	f.StringVar(&o.Python, "python", "", i18n.T("cli.doctor.flag.python"))
	f.Var(app.PathFlag(&o.Bundle), "bundle", i18n.T("cli.doctor.flag.bundle"))
	f.BoolVar(&o.Fix, "fix", false, i18n.T("cli.doctor.flag.fix"))
	f.BoolVar(&o.Yes, "yes", false, i18n.T("cli.doctor.flag.yes"))
	f.BoolVar(&o.Finish, "finish", false, i18n.T("cli.doctor.flag.finish"))
	f.StringVar(&o.Source.IndexURL, "index-url", "", i18n.T("cli.doctor.flag.index_url"))
	f.StringVar(&o.Source.Mirror, "mirror", "", i18n.T("cli.doctor.flag.mirror"))
	f.StringVar(&o.Source.FindLinks, "find-links", "", i18n.T("cli.doctor.flag.find_links"))
	f.Var(app.PathFlag(&o.Source.CacheDir), "cache-dir", i18n.T("cli.doctor.flag.cache_dir", i18n.D{"Dir": app.DefaultCacheDir()}))
	f.Var(app.PathFlag(&o.Config), "config", i18n.T("cli.doctor.flag.config"))
	f.Var(app.PathFlag(&o.Requirements), "requirements", i18n.T("cli.doctor.flag.requirements"))
}

// doctorPrepare refuses flags that do not go together, reads the --config answer file, and finds
// the environment to look at: --venv, --python, else the active one.
func doctorPrepare(cmd *cobra.Command, _ []string, o *doctorOptions) error {
	if o.Venv != "" && o.Python != "" {
		return Usagef("%s", i18n.T("cli.doctor.venv_and_python"))
	}
	if o.Bundle != "" {
		if st, err := os.Stat(filepath.Dir(o.Bundle)); err != nil || !st.IsDir() {
			return Usagef("%s", i18n.T("cli.doctor.bundle_folder", i18n.D{"File": o.Bundle, "Folder": filepath.Dir(o.Bundle)}))
		}
	}
	if o.Requirements != "" {
		if o.Fix || o.Bundle != "" || o.Python != "" || o.Config != "" {
			return Usagef("%s", i18n.T("cli.doctor.req.alone"))
		}
		if o.Venv == "" {
			return Usagef("%s", i18n.T("cli.doctor.req.needs_venv"))
		}
	}
	if o.Yes && !o.Fix {
		return Usagef("%s", i18n.T("cli.doctor.only_with_fix", i18n.D{"Flag": "--yes"}))
	}
	if o.Finish && !o.Fix {
		return Usagef("%s", i18n.T("cli.doctor.only_with_fix", i18n.D{"Flag": "--finish"}))
	}
	if o.Config != "" {
		if !o.Fix {
			return Usagef("%s", i18n.T("cli.doctor.only_with_fix", i18n.D{"Flag": "--config"}))
		}
		if err := readRepairAnswers(o.Config, cmd, &o.Source, &o.Yes); err != nil {
			return err
		}
	}
	for name, u := range map[string]string{"--index-url": o.Source.IndexURL, "--mirror": o.Source.Mirror, "--find-links": o.Source.FindLinks} {
		if u == "" {
			continue
		}
		if !o.Fix && o.Requirements == "" {
			return Usagef("%s", i18n.T("cli.doctor.only_with_fix", i18n.D{"Flag": name}))
		}
		if _, err := app.CheckURL(u); err != nil {
			return Usagef("%s: %v", name, err)
		}
	}
	if o.Requirements != "" {
		return nil
	}
	if o.Python != "" {
		p, err := pythonFlag(o.Python)
		if err != nil {
			return err
		}
		o.Python = p
	}
	if o.Venv == "" && o.Python == "" {
		// The active environment, else the user picks one: the first python on PATH is
		// rarely the environment meant.
		active := app.ActiveEnv()
		if active == "" {
			return Usagef("%s", noActiveEnv(cmd.Context()))
		}
		o.Venv = active
	}
	return nil
}

// doctorRun diagnoses the environment, writes the support bundle when asked, and with --fix plans the
// repair, asks (unless --yes) and applies it; with --requirements it answers that instead.
func doctorRun(ctx context.Context, env *Env, o doctorOptions) error {
	if o.Requirements != "" {
		return doctorRequirementsRun(ctx, env, o)
	}
	opts := app.DoctorOptions{Venv: o.Venv, Python: o.Python}
	var cmdLog bytes.Buffer
	// A repair's own check runs the framework's check on the reinstalled build; a support bundle
	// wants the whole diagnosis.
	opts.RepairFollows = o.Fix && o.Bundle == ""
	diag, err := env.Diagnose(ctx, opts, &cmdLog)
	if err != nil {
		return err
	}
	for _, n := range diag.Notes {
		fmt.Fprintln(o.ErrOut, "gpuwiz doctor:", n.Text()) //i18n:raw the program's name, before its message
	}
	rep := diag.Report
	if o.Bundle != "" {
		if err := env.WriteBundle(ctx, o.Bundle, rep, &cmdLog); err != nil {
			return Exitf(ExitFailure, "%s", i18n.T("cli.doctor.bundle_failed", i18n.D{"File": o.Bundle, "Err": err}))
		}
		fmt.Fprintln(o.ErrOut, "gpuwiz doctor:", i18n.T("cli.doctor.bundle_written", i18n.D{"File": o.Bundle})) //i18n:raw the program's name, before its message
	}
	if !o.Fix {
		if err := show(o.streams, rep, app.WriteDoctorText); err != nil {
			return err
		}
		if rep.Problems > 0 {
			return Silent(ExitProblems)
		}
		return nil
	}
	sess, err := env.PlanRepairFinishing(ctx, diag, o.Source, o.Finish)
	if err != nil {
		return err
	}
	plan, rep := sess.Plan, sess.Report // the report the plan was made from
	if !o.JSON {
		app.WriteDoctorText(o.Out, rep)
		writeRepairPlan(o.Out, plan)
	}
	if plan.Empty() {
		if o.JSON {
			_ = writeJSON(o.Out, DoctorFixJSON{Report: rep, Repair: plan})
		}
		if rep.Problems > 0 {
			return Silent(ExitProblems)
		}
		return nil
	}
	if !o.Yes {
		if o.JSON {
			return Usagef("%s", i18n.T("cli.doctor.fix_json_needs_yes"))
		}
		if !confirmed(o.In, o.Out, i18n.T("cli.doctor.confirm")) {
			fmt.Fprintln(o.Out, i18n.T("cli.doctor.nothing_changed"))
			if rep.FrameworkCheck.Deferred {
				fmt.Fprintln(o.Out, i18n.T("cli.doctor.check_left_for_repair"))
			}
			return Silent(ExitProblems)
		}
	}
	sess.LogTo(&cmdLog)
	events := make(chan app.RepairEvent, 256)
	done := make(chan struct{})
	go func() {
		for e := range events {
			if o.JSON {
				continue
			}
			switch {
			case e.Line != "":
			case e.Done && e.Err != "":
				fmt.Fprintf(o.Out, "  %s\n", i18n.T("cli.doctor.step_failed", i18n.D{"Err": e.Err}))
			case e.Done:
			case e.Step == 0:
				fmt.Fprintln(o.Out, i18n.T("cli.doctor.checking_again"))
			default:
				fmt.Fprintf(o.Out, "[%d/%d] %s\n", e.Step, e.Of, e.Title)
			}
		}
		close(done)
	}()
	ran := sess.Run(ctx, events)
	close(events)
	<-done
	warnNotRecorded(o.ErrOut, ran.RecordErr)
	res, logPath := ran.Result, ran.LogPath
	if ran.Err != nil {
		return ran.Err
	}
	if o.JSON {
		if err := writeJSON(o.Out, DoctorFixJSON{Report: rep, Repair: plan, Result: &res}); err != nil {
			return err
		}
	} else {
		if res.After != nil {
			fmt.Fprintln(o.Out)
			app.WriteDoctorText(o.Out, *res.After)
			if !res.Failed {
				writeRepairVerdict(o.Out, *res.After)
			}
		}
		if logPath != "" {
			fmt.Fprintln(o.Out, i18n.T("cli.doctor.log", i18n.D{"Path": logPath}))
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

// noActiveEnv says that no environment is active and lists the ones gpuwiz knows, each with the
// command that checks it.
func noActiveEnv(ctx context.Context) string {
	var b strings.Builder
	b.WriteString(i18n.T("cli.doctor.no_active"))
	found, _ := app.KnownVenvs(ctx)
	if len(found) == 0 {
		b.WriteString("\n" + i18n.T("cli.doctor.no_active.none_known"))
		return b.String()
	}
	b.WriteString("\n" + i18n.T("cli.doctor.no_active.known"))
	for _, f := range found {
		b.WriteString("\n  " + gpuwizLine("doctor", "--venv", f.Path))
		b.WriteString("\n      " + words.VenvLine(f))
	}
	return b.String()
}

// writeRepairVerdict is the repair's last word: ✓ when the check afterwards finds nothing that
// blocks or threatens the build (its context listed under it), ✗ with the count otherwise.
func writeRepairVerdict(out io.Writer, after app.DoctorReport) {
	if after.Problems > 0 {
		fmt.Fprintln(out, "✗ "+i18n.N("cli.doctor.verdict.problems_left", after.Problems))
		return
	}
	fmt.Fprintln(out, "✓ "+i18n.T("cli.doctor.verdict.repaired"))
	for _, f := range after.Findings {
		if !f.IsProblem() {
			fmt.Fprintf(out, "  %s\n", i18n.T("cli.doctor.verdict.context", i18n.D{"Title": f.Title}))
		}
	}
}

func writeRepairPlan(out io.Writer, p app.Repair) {
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
			fmt.Fprintf(out, "  %d. %s\n", st.N, i18n.T("cli.doctor.plan.reinstall", i18n.D{"Framework": c.Framework, "Version": c.FrameworkVersion, "Channel": c.Channel, "Source": app.Redact(from)}))
		case a.RemovePath != "" || len(a.Argv) == 0: // the title says it all: no command to show
			fmt.Fprintf(out, "  %d. %s\n", st.N, a.Title)
		default:
			fmt.Fprintf(out, "  %d. %s\n", st.N, i18n.T("cli.doctor.plan.action", i18n.D{"Title": a.Title, "Command": app.QuoteArgv(a.Argv)}))
		}
	}
	for _, n := range p.Notes {
		fmt.Fprintf(out, "  %s\n", i18n.T("cli.doctor.plan.note", i18n.D{"Text": n}))
	}
	for _, f := range p.Unfixable {
		fmt.Fprintf(out, "  %s\n", i18n.T("cli.doctor.plan.left", i18n.D{"Title": f.Title, "Code": f.Code}))
	}
}

// readRepairAnswers takes the sources (index-url, mirror, find-links, cache-dir) and yes from an
// install answer file, so one file serves install and repair; keys install does not know are errors.
func readRepairAnswers(path string, cmd *cobra.Command, src *app.ReinstallOptions, yes *bool) error {
	a := installAnswers{IndexURL: src.IndexURL, Mirror: src.Mirror, FindLinks: src.FindLinks, CacheDir: src.CacheDir, Yes: *yes}
	err := readAnswers(cmd, path, &a, func(n int, keys string) string {
		return i18n.N("cli.doctor.config_unknown_keys", n, i18n.D{"File": path, "Keys": keys})
	})
	src.IndexURL, src.Mirror, src.FindLinks, src.CacheDir, *yes = a.IndexURL, a.Mirror, a.FindLinks, a.CacheDir, a.Yes
	return err
}

// DoctorRequirementsJSON is `gpuwiz doctor --venv V --requirements FILE --json`: whether installing
// FILE would keep the venv's framework build, and pip's preview of what would change.
type DoctorRequirementsJSON struct {
	ExitCode     int             `json:"exit_code"`
	Requirements string          `json:"requirements"`
	KeepsBuild   bool            `json:"keeps_build"`
	Preview      *app.PipPreview `json:"preview,omitempty"`
	// WayOut is the framework version on the venv's channel that satisfies a refused requirement.
	WayOut string `json:"way_out,omitempty"`
	Error  string `json:"error,omitempty"`
}

// doctorRequirementsRun answers doctor --requirements: pip's dry run under the venv's constraints,
// nothing installed. Exit 0: the build stays; 3: the file needs another framework build; 2: bad input.
func doctorRequirementsRun(ctx context.Context, env *Env, o doctorOptions) error {
	out, venv, file, findLinks, asJSON := o.Out, o.Venv, o.Requirements, o.Source.FindLinks, o.JSON
	indexURL := o.Source.IndexURL
	if indexURL == "" {
		indexURL = o.Source.Mirror
	}
	root, err := existingVenv(venv)
	if err != nil {
		return err
	}
	path, err := filepath.Abs(file)
	if err == nil {
		var st os.FileInfo
		if st, err = os.Stat(path); err == nil && st.IsDir() {
			err = fmt.Errorf("a folder") //i18n:raw never shown: only its presence counts
		}
	}
	if err != nil {
		return Usagef("%s", i18n.T("cli.add.no_file", i18n.D{"File": file}))
	}
	rep := DoctorRequirementsJSON{Requirements: path}
	s, perr := env.PlanAdd(ctx, app.AddRequest{Venv: root, Requirements: []string{path}, IndexURL: indexURL, FindLinks: findLinks})
	code := ExitOK
	if perr != nil {
		code = app.CodeOf(perr, ExitFailure)
	}
	if s != nil && (perr == nil || code == ExitIncompatible) {
		rep.Preview, rep.WayOut = &s.Preview, s.WayOut
	}
	rep.ExitCode, rep.KeepsBuild = code, code == ExitOK
	if asJSON {
		if perr != nil && code != ExitIncompatible {
			rep.Error = perr.Error()
		}
		if err := writeJSON(out, rep); err != nil {
			return err
		}
		return endWith(code)
	}
	if perr != nil && code != ExitIncompatible {
		return perr
	}
	p := s.Preview
	build := strings.Join(p.Build, " ")
	if ref := p.Refusal; ref != nil {
		fmt.Fprintln(out, i18n.T("cli.doctor.req.would_replace", i18n.D{"File": path, "Requirement": ref.Requirement, "Needs": ref.Needs, "Installed": ref.Installed}))
		printWayOut(out, s)
		return Silent(ExitIncompatible)
	}
	fmt.Fprintln(out, i18n.T("cli.doctor.req.keeps", i18n.D{"File": path, "Build": build, "Venv": p.Venv}))
	if len(p.Changes) == 0 {
		fmt.Fprintln(out, i18n.T("cli.doctor.req.nothing_new"))
	} else {
		fmt.Fprintln(out, i18n.N("cli.doctor.req.changes", len(p.Changes)))
		printAddChanges(out, p)
	}
	fmt.Fprintln(out, i18n.T("cli.doctor.req.unchanged", i18n.D{"Command": gpuwizLine("add", "--venv", root, "-r", path)}))
	return nil
}
