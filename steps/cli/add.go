package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/hashicorp/go-version"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/install"
	"gpuwiz/steps/pep"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
	"gpuwiz/steps/shellquote"
	"gpuwiz/steps/userpath"
)

func init() { register(53, newAddCmd) }

// addReport is `gpuwiz add --json`.
type addReport struct {
	ExitCode int                 `json:"exit_code"`
	Preview  *install.AddPreview `json:"preview,omitempty"`
	Outcome  *install.Outcome    `json:"outcome,omitempty"`
	Error    string              `json:"error,omitempty"`
}

func newAddCmd(env *Env) *cobra.Command {
	var venv, indexURL, findLinks, cacheDir, logFile string
	var reqs []string
	var dryRun, yes, asJSON bool
	cmd := &cobra.Command{
		Use:   "add [PACKAGE...]",
		Short: i18n.T("cli.add.short"),
		Long:  i18n.T("cli.add.long"),
		Example: "  gpuwiz add --venv ./venv-torch -r requirements.txt\n  gpuwiz add --venv ./venv-torch ultralytics --dry-run\n" + //i18n:raw commands
			"  gpuwiz add --venv ./venv-paddle paddleocr --index-url https://pypi.tuna.tsinghua.edu.cn/simple --yes", //i18n:raw commands
		RunE: func(cmd *cobra.Command, pkgs []string) error {
			out := cmd.OutOrStdout()
			if venv == "" {
				return Usagef("%s", i18n.T("cli.add.needs_venv"))
			}
			root, err := filepath.Abs(venv)
			if err != nil {
				return Usagef("--venv %q: %v", venv, err) //i18n:raw the flag, the path and the system's error
			}
			v := pyenv.Venv{Root: root}
			if !v.Exists() {
				return Usagef("%s", i18n.T("cli.protect.not_a_venv", i18n.D{"Path": root}))
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
			if logFile == "" {
				logFile = install.DefaultLogPath("add")
			}
			o := install.AddOptions{Venv: v, Requirements: files, Packages: pkgs, IndexURL: indexURL, FindLinks: findLinks, CacheDir: cacheDir}
			var logw io.Writer = io.Discard
			if !dryRun {
				w, opened, closeLog := install.OpenLog(logFile)
				defer closeLog()
				logw, o.LogPath = w, opened
			}
			r := runner.New(logw)
			rep := addReport{}
			finish := func(code int, err error) error {
				rep.ExitCode = code
				if err != nil {
					rep.Error = err.Error()
				}
				if asJSON {
					enc := json.NewEncoder(out)
					enc.SetIndent("", "  ")
					if e := enc.Encode(rep); e != nil {
						return e
					}
					if code != 0 {
						return Silent(code)
					}
					return nil
				}
				if err != nil {
					return Exitf(code, "%v", err)
				}
				if code != 0 {
					return Silent(code)
				}
				return nil
			}
			prev, err := install.PreviewAdd(cmd.Context(), r, o)
			rep.Preview = &prev
			switch {
			case errors.Is(err, install.ErrAddRefused):
				if !asJSON {
					printAddPreview(out, prev, env)
				}
				return finish(ExitIncompatible, nil)
			case errors.Is(err, install.ErrBadInput) || errors.Is(err, install.ErrNotGpuwizVenv):
				if asJSON {
					return finish(ExitUsage, err)
				}
				return Usagef("%s", strings.TrimPrefix(err.Error(), install.ErrBadInput.Error()+": "))
			case err != nil:
				return finish(ExitFailure, err)
			}
			if !asJSON {
				printAddPreview(out, prev, env)
			}
			if dryRun || len(prev.Changes) == 0 {
				if !asJSON && len(prev.Changes) == 0 {
					fmt.Fprintln(out, i18n.T("cli.add.nothing_to_do"))
				}
				return finish(ExitOK, nil)
			}
			if !yes {
				f, isFile := cmd.InOrStdin().(*os.File)
				if asJSON || !isFile || !term.IsTerminal(int(f.Fd())) {
					return Usagef("%s", i18n.T("cli.add.needs_yes"))
				}
				fmt.Fprint(out, i18n.T("cli.install.confirm"))
				var answer string
				fmt.Fscanln(cmd.InOrStdin(), &answer)
				if s := strings.ToLower(strings.TrimSpace(answer)); s != "y" && s != "yes" {
					fmt.Fprintln(out, i18n.T("cli.install.nothing_changed"))
					return Silent(ExitFailure)
				}
			}
			plan, err := install.PrepareAdd(cmd.Context(), r, o, prev)
			if err != nil {
				return finish(ExitFailure, err)
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
					if !asJSON {
						progress.print(out, plan, ev)
					}
				}
			}()
			if !asJSON {
				fmt.Fprintln(out, i18n.T("cli.install.log", i18n.D{"Path": o.LogPath}))
			}
			res := install.Run(cmd.Context(), r, plan, events)
			close(events)
			<-done
			rep.Outcome = &res
			if !asJSON {
				printOutcome(out, res, tail.lines, nil)
			}
			return finish(installExitCode(res, cmd.Context()), nil)
		},
	}
	f := cmd.Flags()
	f.Var(userpath.NewFlag(&venv), "venv", i18n.T("cli.add.flag.venv"))
	f.StringArrayVarP(&reqs, "requirement", "r", nil, i18n.T("cli.add.flag.requirement"))
	f.StringVar(&indexURL, "index-url", "", i18n.T("cli.add.flag.index_url"))
	f.StringVar(&findLinks, "find-links", "", i18n.T("cli.add.flag.find_links"))
	f.StringVar(&cacheDir, "cache-dir", "", i18n.T("cli.install.flag.cache_dir"))
	f.StringVar(&logFile, "log", "", i18n.T("cli.add.flag.log"))
	f.BoolVar(&dryRun, "dry-run", false, i18n.T("cli.add.flag.dry_run"))
	f.BoolVarP(&yes, "yes", "y", false, i18n.T("cli.add.flag.yes"))
	f.BoolVar(&asJSON, "json", false, i18n.T("cli.add.flag.json"))
	return cmd
}

// printAddPreview says what the project's requirements would change, or why they cannot go in.
func printAddPreview(w io.Writer, p install.AddPreview, env *Env) {
	fmt.Fprintln(w, i18n.T("cli.add.keeps", i18n.D{"Build": strings.Join(p.Build, " "), "Venv": p.Venv}))
	if ref := p.Refusal; ref != nil {
		fmt.Fprintln(w, i18n.T("cli.add.refused", i18n.D{"Requirement": ref.Requirement, "Needs": ref.Needs, "Installed": ref.Installed}))
		if way := addWayOut(env, p, ref.Needs); way != "" {
			fmt.Fprintln(w, way)
		} else {
			fmt.Fprintln(w, i18n.T("cli.add.way_out_none"))
		}
		return
	}
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
		case install.TroubleSecondFramework:
			fmt.Fprintln(w, i18n.T("cli.add.trouble.second_framework", i18n.D{"Dists": dists}))
		case install.TroubleOpenCVVariants:
			fmt.Fprintln(w, i18n.T("cli.add.trouble.opencv", i18n.D{"Dists": dists}))
		case install.TroubleNumpyMajor:
			fmt.Fprintln(w, i18n.T("cli.add.trouble.numpy", i18n.D{"Dists": dists}))
		}
	}
}

// addWayOut names the channel change that would satisfy needs ("torch>=2.7"): the newest release
// of the matrix on the venv's channel whose version fits, as the install command to run.
func addWayOut(env *Env, p install.AddPreview, needs string) string {
	m, err := env.Matrix()
	if err != nil || m == nil {
		return ""
	}
	name, spec := needs, ""
	if i := strings.IndexAny(needs, "<>=!~"); i > 0 {
		name, spec = strings.TrimSpace(needs[:i]), strings.TrimSpace(needs[i:])
	}
	cons, err := version.NewConstraint(strings.ReplaceAll(spec, "~=", "~>"))
	if err != nil {
		return ""
	}
	rels := m.Torch
	if p.Framework == "paddle" {
		rels = m.Paddle
	}
	best := ""
	var bestV *version.Version
	for _, r := range rels {
		v := r.Version
		if pep.Normalize(name) == "torchvision" {
			v = r.Torchvision
		} else if pep.Normalize(name) == "torchaudio" {
			v = r.Torchaudio
		}
		pv, err := version.NewVersion(v)
		if err != nil || !cons.Check(pv) {
			continue
		}
		for _, b := range r.Builds {
			if b.Channel == p.Channel && (bestV == nil || pv.GreaterThan(bestV)) {
				best, bestV = r.Version, pv
			}
		}
	}
	if best == "" {
		return ""
	}
	return i18n.T("cli.add.way_out", i18n.D{"Version": best, "Channel": p.Channel, "Command": shellquote.Command(runtime.GOOS, "gpuwiz", "install", "--venv", p.Venv, "--framework", p.Framework, "--framework-version", best, "--channel", p.Channel)})
}
