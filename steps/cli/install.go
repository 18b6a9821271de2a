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
	"runtime"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"gpuwiz/matrix"
	"gpuwiz/steps/install"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
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
	Force            bool   `toml:"force"`
	Yes              bool   `toml:"yes"`
	DryRun           bool   `toml:"dry-run"`
	JSON             bool   `toml:"json"`
}

// installReport is install's JSON output: the plan, and after a run its outcome.
type installReport struct {
	ExitCode  int               `json:"exit_code"`
	Candidate *matrix.Candidate `json:"candidate,omitempty"`
	Plan      *install.Plan     `json:"plan,omitempty"`
	Outcome   *install.Outcome  `json:"outcome,omitempty"`
	Error     string            `json:"error,omitempty"`
	// The plan's lists at the top, for scripts: what goes, what comes, every command.
	Uninstall []string   `json:"uninstall"`
	Install   []string   `json:"install"`
	Commands  [][]string `json:"commands"`
	// Where it goes and how to enter it afterwards, one line per shell.
	Venv          string   `json:"venv"`
	ActivateHints []string `json:"activate_hints"`
}

func newInstallCmd(env *Env) *cobra.Command {
	var a installAnswers
	var config string
	cmd := &cobra.Command{
		Use:   "install",
		Short: "Install a GPU build of PyTorch or PaddlePaddle into a venv, safely, and verify it",
		Long: "install stages every wheel of the chosen build in gpuwiz's wheel cache before anything is removed,\n" +
			"backs up the dists it replaces, uninstalls every conflicting dist, installs from the staged wheels\n" +
			"only, verifies the build and writes requirements.lock and constraints.txt. Any failure after the\n" +
			"uninstall puts the previous packages back. Omitted choices take the matrix's recommendation.\n" +
			"Exit codes: 0 installed and verified, 4 installed but verification failed, 3 nothing compatible,\n" +
			"1 failed (the environment is as before), 2 bad input.",
		Example: "  gpuwiz install --framework torch --channel cu126 --venv ./venv --yes\n" +
			"  gpuwiz install --framework paddle --venv D:\\envs\\paddle --mirror https://pypi.tuna.tsinghua.edu.cn/simple --dry-run --json\n" +
			"  gpuwiz install --config answers.toml --yes --json",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if config != "" {
				if err := readAnswers(config, &a, cmd); err != nil {
					return err
				}
			}
			return runInstall(cmd, env, a)
		},
	}
	f := cmd.Flags()
	f.StringVar(&a.Framework, "framework", "torch", "torch or paddle")
	f.StringVar(&a.FrameworkVersion, "framework-version", "", "framework version (2.6 means the newest 2.6.x; default: the recommendation)")
	f.StringVar(&a.Channel, "channel", "", "channel such as cu126, cu118 or cpu (default: the recommendation)")
	f.StringVar(&a.Venv, "venv", "", "the venv to install into; created when it does not exist (required)")
	f.StringVar(&a.Venv, "env", "", "a conda env (or venv) to install into: the same as --venv")
	f.StringVar(&a.Python, "python", "", "the Python that creates a new venv (default: the first 64-bit python.org-style Python found)")
	f.StringVar(&a.IndexURL, "index-url", "", "use this index instead of the channel's (https; http only for loopback)")
	f.StringVar(&a.Mirror, "mirror", "", "Paddle: index for paddlepaddle-gpu's dependencies (never for paddlepaddle-gpu itself); also where pip upgrades itself from")
	f.StringVar(&a.FindLinks, "find-links", "", "a flat page of the framework's wheels (pip --find-links), searched beside the index, which then serves the dependencies (--mirror when given)")
	f.StringVar(&a.CacheDir, "cache-dir", "", "wheel cache (default: the user cache dir /gpuwiz/wheels)")
	f.StringVar(&a.Log, "log", "", "log file of every command and its output (default: the user cache dir /gpuwiz/logs)")
	f.BoolVar(&a.NoPipUpgrade, "no-pip-upgrade", false, "keep the venv's pip even when it is older than 25.1")
	f.BoolVar(&a.Force, "force", false, "install the build asked for (--channel, --framework-version) even when it does not fit this machine's driver, GPU or Python")
	f.BoolVar(&a.DryRun, "dry-run", false, "print the plan and run nothing")
	f.BoolVar(&a.Yes, "yes", false, "do not ask before changing the venv")
	f.BoolVar(&a.JSON, "json", false, "print the plan (and outcome) as JSON")
	f.StringVar(&config, "config", "", "TOML answer file with the same keys as these flags (flags win)")
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
			return Usagef("--config %s: unknown key(s):\n%s\nthe keys are the install flags' names (framework, framework-version, channel, venv, python, index-url, mirror, find-links, cache-dir, log, no-pip-upgrade, force, yes, dry-run, json)", path, sm.String())
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
	setb("force", &a.Force, file.Force)
	setb("yes", &a.Yes, file.Yes)
	setb("dry-run", &a.DryRun, file.DryRun)
	setb("json", &a.JSON, file.JSON)
	return nil
}

func runInstall(cmd *cobra.Command, env *Env, a installAnswers) error {
	// Index URLs may carry credentials (https://user:token@host/...): the plan, the events and the
	// JSON show them redacted, as the log does.
	ctx, out := cmd.Context(), io.Writer(redactingWriter{cmd.OutOrStdout()})
	if a.Framework != "torch" && a.Framework != "paddle" {
		return Usagef("--framework %q: use torch or paddle", a.Framework)
	}
	if a.Venv == "" {
		return Usagef("no venv: pass --venv PATH (an existing venv, or where to create one)")
	}
	for name, u := range map[string]string{"--index-url": a.IndexURL, "--mirror": a.Mirror, "--find-links": a.FindLinks} {
		if u != "" {
			if err := install.CheckIndexURL(u); err != nil {
				return Usagef("%s: %v", name, err)
			}
		}
	}
	root, err := filepath.Abs(a.Venv)
	if err != nil {
		return Usagef("--venv %q: %v", a.Venv, err)
	}
	v := pyenv.Venv{Root: root}
	if check := pyenv.CheckVenvPath(root, ""); !check.OK() {
		return Usagef("--venv %s: %s", root, strings.Join(check.Errors, "; "))
	}
	python := a.Python
	if !v.Exists() && python == "" {
		in, err := chooseBasePython(cmd, "")
		if err != nil {
			return err
		}
		python = in.Path
	} else if python != "" {
		if _, err := os.Stat(python); err != nil {
			return Usagef("--python %s: %v; pass the path of a python executable", python, err)
		}
	}
	cand, notes, err := chooseCandidate(ctx, env, a, v, python)
	if err != nil {
		return err
	}
	if err := checkIndexServes(ctx, env, a, v, python, cand, &notes); err != nil {
		return err
	}
	logPath := a.Log
	if logPath == "" {
		logPath = install.DefaultLogPath("install")
	}
	opts := install.Options{Venv: v, Python: python, Target: install.TargetOf(*cand), IndexURLOverride: a.IndexURL,
		Mirror: a.Mirror, FindLinks: a.FindLinks, CacheDir: a.CacheDir, LogPath: logPath, NoPipUpgrade: a.NoPipUpgrade}
	rep := installReport{Candidate: cand}
	var logw io.Writer = io.Discard
	if !a.DryRun {
		w, opened, closeLog := install.OpenLog(logPath)
		defer closeLog()
		logw, opts.LogPath = w, opened
	}
	r := runner.New(logw)
	plan, err := install.Prepare(ctx, r, opts)
	if err != nil {
		if errors.Is(err, install.ErrBadInput) {
			return Usagef("%s", strings.TrimPrefix(err.Error(), install.ErrBadInput.Error()+": "))
		}
		return Exitf(ExitFailure, "%v", err)
	}
	plan.Notes = append(notes, plan.Notes...)
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
		f, isFile := cmd.InOrStdin().(*os.File)
		if a.JSON || !isFile || !term.IsTerminal(int(f.Fd())) {
			return Usagef("install changes the venv %s: pass --yes to run it without a terminal (or --dry-run to see the plan)", root)
		}
		printPlan(out, plan, *cand)
		fmt.Fprint(out, "Run this plan? [y/N] ")
		var answer string
		fmt.Fscanln(cmd.InOrStdin(), &answer)
		if s := strings.ToLower(strings.TrimSpace(answer)); s != "y" && s != "yes" {
			fmt.Fprintln(out, "Nothing changed.")
			return Silent(ExitFailure)
		}
	}
	events := make(chan install.Event, 512)
	done := make(chan struct{})
	tail := &lineTail{max: 15}
	progress := newProgressPrinter(out)
	go func() {
		defer close(done)
		for ev := range events {
			if ev.Line != "" {
				tail.add(ev.Line)
			}
			if !a.JSON {
				progress.print(out, plan, ev)
			}
		}
	}()
	if !a.JSON {
		fmt.Fprintf(out, "Installing %s %s (%s) into %s\nlog: %s\n", cand.Framework, cand.FrameworkVersion, cand.Channel, root, logPath)
	}
	res := install.Run(ctx, r, plan, events)
	close(events)
	<-done
	RecordVenv(ctx, cmd.ErrOrStderr(), root, "install", res.Result, res.Result == install.ResultInstalled, cand)
	rep.Outcome = &res
	if res.VenvRemoved {
		rep.ActivateHints = nil // there is no venv left to enter
	}
	code := installExitCode(res, ctx)
	rep.ExitCode = code
	if a.JSON {
		if err := writeInstallJSON(out, rep); err != nil {
			return err
		}
	} else {
		printOutcome(out, res, tail.lines, rep.ActivateHints)
	}
	if code != 0 {
		return Silent(code)
	}
	return nil
}

func installExitCode(o install.Outcome, ctx context.Context) int {
	switch {
	case o.Result == install.ResultInstalled && o.OK():
		return ExitOK
	case o.Result == install.ResultInstalled:
		return ExitVerifyFailed
	case ctx.Err() != nil:
		return ExitInterrupted
	}
	return ExitFailure
}

// chooseCandidate finds the build: the exact one asked for, or the matrix's recommendation for this
// machine (GPU report and the Python) among the builds that fit what was given. A build asked for that
// does not fit is refused with its reasons (exit 3) unless --force.
func chooseCandidate(ctx context.Context, env *Env, a installAnswers, v pyenv.Venv, python string) (*matrix.Candidate, []string, error) {
	m, err := env.Matrix()
	if err != nil {
		return nil, nil, err
	}
	if a.FrameworkVersion != "" && !m.HasRelease(a.Framework, a.FrameworkVersion) {
		return nil, nil, Usagef("--framework-version %s: the matrix has no %s release %s (it knows %s)", a.FrameworkVersion, a.Framework, a.FrameworkVersion, strings.Join(m.Versions(a.Framework), ", "))
	}
	if a.Channel != "" && !slices.Contains(m.Channels(a.Framework), a.Channel) {
		return nil, nil, Usagef("--channel %s: %s has no such channel (it has %s)", a.Channel, a.Framework, strings.Join(m.Channels(a.Framework), ", "))
	}
	facts := matrix.Facts{Framework: a.Framework, FrameworkVersion: a.FrameworkVersion, OS: osOf(), Simulated: env.G.SimulateFile != ""}
	notes, err := fillGPUFacts(ctx, env, &facts)
	if err != nil {
		return nil, nil, err
	}
	py := python
	if v.Exists() {
		py = v.Python()
	}
	if py != "" {
		in, err := pyenv.Describe(ctx, py)
		if err != nil {
			what := "--python " + py
			if v.Exists() {
				what = "the venv's Python " + py
			}
			return nil, nil, Usagef("%s does not run as a Python 3 interpreter: %v", what, err)
		}
		if err := matrix.ValidatePythonVersion(in.Version); err != nil {
			return nil, nil, Usagef("%s is Python %s: %v", py, in.Version, err)
		}
		facts.PythonVersion, facts.PythonBits = in.Version, in.Bits
	}
	sel := m.Select(facts)
	notes = append(notes, sel.Notes...)
	if a.Channel == "" {
		if sel.Recommended == nil {
			return nil, nil, Exitf(ExitIncompatible, "no %s build fits this machine: %s", a.Framework, strings.Join(notes, "; "))
		}
		return sel.Recommended, notes, nil
	}
	// The builds on the channel asked for, newest first (Select orders compatible ones first).
	var first *matrix.Candidate
	for i := range sel.Candidates {
		c := &sel.Candidates[i]
		if c.Channel != a.Channel {
			continue
		}
		if c.Compatible {
			return c, notes, nil
		}
		if first == nil {
			first = c
		}
	}
	if first == nil {
		return nil, nil, Exitf(ExitIncompatible, "the matrix has no %s %s build on channel %s: see gpuwiz channels --framework %s", a.Framework, a.FrameworkVersion, a.Channel, a.Framework)
	}
	if a.Force {
		notes = append(notes, fmt.Sprintf("--force: %s %s (%s) does not fit this machine: %s", a.Framework, first.FrameworkVersion, first.Channel, strings.Join(first.Reasons, "; ")))
		return first, notes, nil
	}
	return nil, nil, Exitf(ExitIncompatible, "%s %s on %s does not fit this machine: %s\nsee gpuwiz channels --framework %s for what fits, or pass --force to install it anyway", a.Framework, first.FrameworkVersion, a.Channel, strings.Join(first.Reasons, "; "), a.Framework)
}

// redactingWriter passes every write through runner.Redact. Each write is a whole line or a whole
// JSON document here, so a secret is never split across two writes.
type redactingWriter struct{ w io.Writer }

func (r redactingWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(r.w, runner.Redact(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

func osOf() string {
	return runtime.GOOS
}

func writeInstallJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
