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
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/spf13/cobra"

	"gpuwiz/matrix"
	"gpuwiz/steps/doctor"
	"gpuwiz/steps/install"
	"gpuwiz/steps/runner"
)

func init() { register(70, newDoctorCommand) }

// DoctorFixJSON is `gpuwiz doctor --fix --json`: the diagnosis, the plan and what applying it did.
type DoctorFixJSON struct {
	Report doctor.Report        `json:"report"`
	Repair doctor.Repair        `json:"repair"`
	Result *doctor.RepairResult `json:"result,omitempty"`
}

func newDoctorCommand(env *Env) *cobra.Command {
	var venv, python, bundle, config string
	var asJSON, fix, yes bool
	var src install.ReinstallOptions
	cmd := &cobra.Command{
		Use:   "doctor [--venv PATH | --python PATH]",
		Short: "Find what is wrong with a GPU build of PyTorch or PaddlePaddle, and repair it",
		Long: "doctor checks, in the setup guides' troubleshooting order, which package is installed, what it was\n" +
			"built for, the driver, the framework's own check and one small computation, then pip's configuration,\n" +
			"PATH and (on Windows) the registry. It works when the framework does not even import.\n" +
			"--bundle FILE writes a zip (report, pip freeze, GPU report, logs; credentials redacted) for a bug report.\n" +
			"--fix applies the repair plan (asks first unless --yes). A reinstall takes the exact build from gpuwiz's\n" +
			"wheel cache when it is there (no network at all), else from --index-url/--find-links/--mirror, else from\n" +
			"the source the venv's requirements.lock recorded, else from the channel's official index; the plan says which.\n" +
			"Exit codes: 0 no problem found; 5 problems found; 2 bad input; 1 the repair failed.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if venv != "" && python != "" {
				return Usagef("give either --venv PATH or --python PATH, not both")
			}
			if bundle != "" {
				if st, err := os.Stat(filepath.Dir(bundle)); err != nil || !st.IsDir() {
					return Usagef("--bundle %s: the folder %s does not exist; name a file in an existing folder", bundle, filepath.Dir(bundle))
				}
			}
			if yes && !fix {
				return Usagef("--yes only goes with --fix")
			}
			if config != "" {
				if !fix {
					return Usagef("--config only goes with --fix")
				}
				if err := readRepairAnswers(config, cmd, &src, &yes); err != nil {
					return err
				}
			}
			for name, u := range map[string]string{"--index-url": src.IndexURL, "--mirror": src.Mirror, "--find-links": src.FindLinks} {
				if u == "" {
					continue
				}
				if !fix {
					return Usagef("%s only goes with --fix", name)
				}
				if err := install.CheckIndexURL(u); err != nil {
					return Usagef("%s: %v", name, err)
				}
			}
			return runDoctor(cmd.Context(), env, cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr(), doctor.Options{Venv: venv, Python: python}, bundle, asJSON, fix, yes, src)
		},
	}
	f := cmd.Flags()
	f.StringVar(&venv, "venv", "", "the virtual environment to check (default: $VIRTUAL_ENV, else the python on PATH)")
	f.StringVar(&venv, "env", "", "a conda env (or venv) to check: the same as --venv")
	f.StringVar(&python, "python", "", "the Python interpreter to check (instead of --venv)")
	f.BoolVar(&asJSON, "json", false, "print the report as JSON")
	f.StringVar(&bundle, "bundle", "", "also write a zip for a bug report to this file")
	f.BoolVar(&fix, "fix", false, "apply the repair plan after the diagnosis")
	f.BoolVar(&yes, "yes", false, "with --fix: do not ask before changing the environment")
	f.StringVar(&src.IndexURL, "index-url", "", "with --fix: reinstall from this index (a mirror of the channel) when the wheel cache lacks the build")
	f.StringVar(&src.Mirror, "mirror", "", "with --fix: Paddle's dependencies (and pip's upgrade) from this index")
	f.StringVar(&src.FindLinks, "find-links", "", "with --fix: a flat page of the framework's wheels (several mirrors of PyTorch's wheels are one)")
	f.StringVar(&src.CacheDir, "cache-dir", "", "with --fix: the wheel cache (default: the user cache dir /gpuwiz/wheels)")
	f.StringVar(&config, "config", "", "with --fix: install's TOML answer file; its index-url, mirror, find-links, cache-dir and yes are used (flags win)")
	return cmd
}

// doctorDeps wires doctor to this machine (or the --simulate GPU report).
func doctorDeps(env *Env, log io.Writer) (doctor.Deps, []string) {
	var notes []string
	m, err := env.Matrix()
	if err != nil {
		notes = append(notes, "version matrix unavailable, checks that need it are skipped: "+err.Error())
		m = nil
	}
	return doctor.Deps{
		Runner:   runner.New(log),
		GPU:      env.GPUReport,
		Matrix:   m,
		Registry: doctor.SystemRegistry(),
		Env:      doctor.OSEnviron{},
		FS:       doctor.OSFS{},
	}, notes
}

func runDoctor(ctx context.Context, env *Env, stdin io.Reader, out, errOut io.Writer, opts doctor.Options, bundle string, asJSON, fix, yes bool, src install.ReinstallOptions) error {
	var cmdLog bytes.Buffer
	deps, notes := doctorDeps(env, &cmdLog)
	for _, n := range notes {
		fmt.Fprintln(errOut, "gpuwiz doctor:", n)
	}
	rep, err := doctor.Run(ctx, deps, opts)
	var inErr *doctor.InputError
	if errors.As(err, &inErr) {
		return Usagef("%s", inErr.Msg)
	}
	if err != nil {
		return err
	}
	if bundle != "" {
		g, _ := env.GPUReport(ctx)
		in := doctor.BundleInput{Report: rep, GPU: g, Runner: deps.Runner, Env: deps.Env, LogDirs: doctor.LogDirs(rep.Venv), CommandLog: cmdLog.Bytes()}
		if err := doctor.WriteBundle(ctx, bundle, in); err != nil {
			return Exitf(ExitFailure, "could not write the bundle %s: %v", bundle, err)
		}
		fmt.Fprintf(errOut, "gpuwiz doctor: wrote %s (credentials redacted); attach it to your bug report\n", bundle)
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
	g, _ := env.GPUReport(ctx)
	plan := doctor.RepairPlan(rep, doctor.RepairOptions{Matrix: deps.Matrix, GPU: g})
	if c := plan.Reinstall; c != nil {
		s, err := install.RepairSource(plan.Venv, *c, src)
		if err != nil {
			return Usagef("%s", strings.TrimPrefix(err.Error(), install.ErrBadInput.Error()+": "))
		}
		plan.Source = s.Describe()
	}
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
			return Usagef("--fix --json changes the environment without a prompt only with --yes")
		}
		fmt.Fprint(out, "Apply this plan? [y/N] ")
		var answer string
		fmt.Fscanln(stdin, &answer)
		if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
			fmt.Fprintln(out, "Nothing changed.")
			return Silent(ExitProblems)
		}
	}
	deps, logPath, closeLog := withRepairLog(deps, &cmdLog, src)
	defer closeLog()
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
				fmt.Fprintf(out, "  failed: %s\n", e.Err)
			case e.Done:
			case e.Step == 0:
				fmt.Fprintln(out, "Checking again…")
			default:
				fmt.Fprintf(out, "[%d/%d] %s\n", e.Step, e.Of, e.Title)
			}
		}
		close(done)
	}()
	res, err := doctor.ApplyRepair(ctx, deps, plan, events)
	close(events)
	<-done
	if plan.Venv != "" {
		RecordVenv(ctx, errOut, plan.Venv, "repair", RepairResultWords(res, err, ctx), err == nil && !res.Failed, plan.Reinstall)
	}
	if err != nil {
		return err
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
			fmt.Fprintf(out, "log: %s\n", logPath)
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
	fmt.Fprintln(out, "\nRepair plan:")
	if p.Empty() {
		fmt.Fprintln(out, "  nothing gpuwiz can fix by itself; follow the fixes above.")
	}
	// In the order ApplyRepair runs them: the engine's removals and the install, then doctor's own steps.
	i := 0
	line := func(a doctor.Action) {
		i++
		if a.RemovePath != "" {
			fmt.Fprintf(out, "  %d. %s\n", i, a.Title)
		} else {
			fmt.Fprintf(out, "  %d. %s: %s\n", i, a.Title, runner.QuoteArgv(a.Argv))
		}
	}
	for _, a := range p.Actions {
		if a.Engine {
			line(a)
		}
	}
	if c := p.Reinstall; c != nil {
		i++
		from := p.Source
		if from == "" {
			from = c.IndexURL
		}
		fmt.Fprintf(out, "  %d. Install %s %s (%s) through the install engine, then verify; wheels from %s\n", i, c.Framework, c.FrameworkVersion, c.Channel, runner.Redact(from))
	}
	for _, a := range p.Actions {
		if !a.Engine {
			line(a)
		}
	}
	for _, n := range p.Notes {
		fmt.Fprintf(out, "  note: %s\n", n)
	}
	for _, f := range p.Unfixable {
		fmt.Fprintf(out, "  left to you: %s (%s)\n", f.Title, f.Code)
	}
}

func writeDoctorJSON(out io.Writer, v any) error {
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// withRepairLog points the repair's commands (and the reinstall's) at a log file as well as the
// bundle's in-memory log, and wires the install engine in as doctor's reinstall step.
func withRepairLog(deps doctor.Deps, cmdLog io.Writer, src install.ReinstallOptions) (doctor.Deps, string, func()) {
	w, path, closeLog := install.OpenLog(install.DefaultLogPath("doctor-fix"))
	r := runner.New(io.MultiWriter(cmdLog, w))
	deps.Runner = r
	src.LogPath = path
	deps.Reinstall = func(ctx context.Context, venv, _ string, c matrix.Candidate, lines chan<- runner.Line) error {
		return install.Reinstall(ctx, r, venv, c, src, lines)
	}
	return deps, path, closeLog
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
			return Usagef("--config %s: unknown key(s):\n%s\nthe file is install's answer file; doctor --fix reads its index-url, mirror, find-links, cache-dir and yes", path, sm.String())
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
