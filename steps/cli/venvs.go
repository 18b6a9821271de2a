package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"gpuwiz/steps/install"
	"io"

	"github.com/spf13/cobra"

	"gpuwiz/matrix"
	"gpuwiz/steps/doctor"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/venvs"
)

func init() { register(42, newVenvsCmd) }

// venvsReport is `gpuwiz venvs --json`.
type venvsReport struct {
	List    string        `json:"list"` // the file the list is kept in
	Venvs   []venvs.Found `json:"venvs"`
	Warning string        `json:"warning,omitempty"`
}

func newVenvsCmd(env *Env) *cobra.Command {
	var asJSON, all bool
	cmd := &cobra.Command{
		Use:     "venvs",
		Short:   i18n.T("cli.venvs.short"),
		Long:    i18n.T("cli.venvs.long"),
		Example: "  gpuwiz venvs\n  gpuwiz venvs --all --json", //i18n:raw commands
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			store, err := venvs.Default()
			if err != nil {
				return Exitf(ExitFailure, "%v", err)
			}
			rep := venvsReport{List: store.Path, Venvs: []venvs.Found{}}
			if all {
				found, warning := venvs.Find(cmd.Context(), venvs.FindOptions{Store: store})
				rep.Venvs, rep.Warning = append(rep.Venvs, found...), warning
			} else {
				list, warning, err := store.List(cmd.Context())
				if err != nil {
					return Exitf(ExitFailure, "%v", err)
				}
				rep.Warning = warning
				for i := range list {
					rep.Venvs = append(rep.Venvs, venvs.Found{Path: list[i].Path, Source: venvs.SourceKnown, Known: &list[i], Holds: venvs.Read(list[i].Path, "")})
				}
			}
			for i := range rep.Venvs {
				rep.Venvs[i].Look()
			}
			if rep.Warning != "" {
				fmt.Fprintln(cmd.ErrOrStderr(), "gpuwiz: "+i18n.T("cli.warning", i18n.D{"Text": rep.Warning}))
			}
			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(rep)
			}
			printVenvs(out, rep, all)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, i18n.T("cli.venvs.flag.json"))
	cmd.Flags().BoolVar(&all, "all", false, i18n.T("cli.venvs.flag.all"))
	return cmd
}

func printVenvs(w io.Writer, rep venvsReport, all bool) {
	if len(rep.Venvs) == 0 {
		fmt.Fprintln(w, i18n.T("cli.venvs.none", i18n.D{"List": rep.List}))
		return
	}
	fmt.Fprintln(w, i18n.T("cli.venvs.title", i18n.D{"List": rep.List}))
	for _, f := range rep.Venvs {
		fmt.Fprintf(w, "  %s\n    %s\n", f.Path, VenvLine(f))
		if f.Interrupted != nil {
			fmt.Fprintf(w, "    %s\n", f.Interrupted.Summary())
		}
		if s := f.State; s != nil {
			fmt.Fprintf(w, "    %s\n", stateLine(*s))
		}
	}
	if !all {
		fmt.Fprintln(w, i18n.T("cli.venvs.all_hint"))
	}
}

// VenvLine is one environment in words: what it holds, and gpuwiz's last run there or where it was
// found. "PyTorch 2.6.0 (cu126), Python 3.12.8 · installed on 2026-12-03".
func VenvLine(f venvs.Found) string {
	s := f.Holds.Describe()
	if in := f.Interrupted; in != nil && !in.Running {
		return s + " · " + i18n.T("cli.venvs.interrupted", i18n.D{"What": in.Journal.What(), "Date": in.Journal.Started.Local().Format("2006-01-02 15:04"), "Venv": f.Path})
	}
	switch {
	case f.Known != nil:
		s += " · " + i18n.T("cli.venvs.last_run", i18n.D{"Run": lastRun(*f.Known), "Date": f.Known.When.Local().Format("2006-01-02")})
	case f.Source == venvs.SourceActive:
		s += " · " + i18n.T("cli.venvs.source.active")
	case f.Source == venvs.SourceHere:
		s += " · " + i18n.T("cli.venvs.source.here")
	case f.Source == venvs.SourceConda:
		s += " · " + i18n.T("cli.venvs.source.conda")
	}
	return s
}

// stateLine says what the venv's state folder holds and takes: "state folder .gpuwiz: 3 snapshots,
// no backup, the journal; 1.2 MiB".
func stateLine(s venvs.StateFolder) string {
	backups := i18n.T("cli.venvs.state.no_backup")
	if s.Backups > 0 {
		backups = i18n.N("cli.venvs.state.backups", s.Backups)
	}
	size := humanSize(s.Bytes)
	if s.Shared > 0 {
		size = i18n.T("cli.venvs.state.shared", i18n.D{"Own": humanSize(s.Bytes), "Shared": humanSize(s.Shared)})
	}
	return i18n.T("cli.venvs.state", i18n.D{"Dir": s.Dir, "Snapshots": i18n.N("cli.venvs.state.snapshots", s.Snapshots), "Backups": backups, "Size": size})
}

// humanSize is a size for the list: 12 KiB, 3.4 MiB, 1.2 GiB.
func humanSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d KiB", (n+1023)>>10)
}

// lastRun is how gpuwiz's last run there ended: "installed", "repaired", "install failed, restored",
// "repair cancelled".
func lastRun(e venvs.Entry) string {
	action := actionWords(e.Action)
	switch {
	case e.OK:
		return resultWords(e.Result)
	case e.Result == "cancelled":
		return i18n.T("cli.venvs.run.cancelled", i18n.D{"Action": action})
	case e.Result == ResultVerifyFailed:
		return i18n.T("cli.venvs.run.verify_failed")
	case e.Result == "" || e.Result == e.Action+" failed" || e.Result == "failed":
		return i18n.T("cli.venvs.run.failed", i18n.D{"Action": action})
	}
	return i18n.T("cli.venvs.run.failed_then", i18n.D{"Action": action, "Result": resultWords(e.Result)})
}

// actionWords is the list's action ("install", "repair", "create") in words; the list file keeps the value.
func actionWords(a string) string {
	switch a {
	case "install":
		return i18n.T("cli.venvs.action.install")
	case "repair":
		return i18n.T("cli.venvs.action.repair")
	case "create":
		return i18n.T("cli.venvs.action.create")
	}
	return a
}

// resultWords is the list's result (the run's own value) in words; the list file keeps the value.
func resultWords(r string) string {
	switch r {
	case "installed":
		return i18n.T("cli.venvs.result.installed")
	case "repaired":
		return i18n.T("cli.venvs.result.repaired")
	case "created":
		return i18n.T("cli.venvs.result.created")
	case "restored":
		return i18n.T("cli.venvs.result.restored")
	case "unchanged":
		return i18n.T("cli.venvs.result.unchanged")
	case "damaged":
		return i18n.T("cli.venvs.result.damaged")
	case "repaired, problems left": //i18n:raw a value of the list file (RepairResultWords)
		return i18n.T("cli.venvs.result.problems_left")
	}
	return r
}

// RecordVenv puts the venv at path on the list of venvs gpuwiz worked on, with what it holds now and
// how the run (action "install", "repair", "create") ended; cand names the build when the files do
// not (Paddle's channel). A venv that is gone (removed after a failed first install) leaves the list.
// A list that cannot be written is one warning on warn, never the run's failure.
func RecordVenv(ctx context.Context, warn io.Writer, path, action, result string, ok bool, cand *matrix.Candidate) {
	ctx = context.WithoutCancel(ctx) // an interrupted run is recorded too
	store, err := venvs.Default()
	if err == nil {
		if !(pyenv.Venv{Root: path}).Exists() {
			err = store.Forget(ctx, path)
		} else {
			h := venvs.Read(path, "")
			e := venvs.Entry{Path: path, Framework: h.Framework, FrameworkVersion: h.FrameworkVersion, Channel: h.Channel,
				Python: h.Python, Action: action, Result: result, OK: ok}
			if ok && cand != nil && cand.Framework == h.Framework && cand.FrameworkVersion == h.FrameworkVersion && e.Channel == "" {
				e.Channel = cand.Channel
			}
			err = store.Record(ctx, e)
		}
	}
	if err != nil && warn != nil {
		fmt.Fprintln(warn, "gpuwiz: "+i18n.T("cli.warning", i18n.D{"Text": i18n.T("cli.venvs.not_recorded", i18n.D{"Err": err})}))
	}
}

// ResultVerifyFailed is the list's result of an install whose new set is in place but failed
// verification: not "installed", which the list shows as working.
const ResultVerifyFailed = "verify failed" //i18n:raw a value of the list file

// InstallResultWords is how an install ended, for the list of venvs, and whether it ended well: ok
// only when the set is in place and verification (when it ran) passed; "cancelled" when the user
// cancelled it, whatever the engine then did to put the venv back ("unchanged", "restored").
func InstallResultWords(o install.Outcome, ctx context.Context) (result string, ok bool) {
	switch {
	case o.Result == install.ResultInstalled && o.Verify != nil && !o.Verify.OK:
		return ResultVerifyFailed, false
	case o.Result == install.ResultInstalled:
		return o.Result, true
	case ctx.Err() != nil && (o.Result == install.ResultUnchanged || o.Result == install.ResultRestored):
		return "cancelled", false
	}
	return o.Result, false
}

// RepairResultWords is how a repair ended, for the list of venvs: "repaired", "repaired, problems
// left", "repair failed", "cancelled". These are values of the list file, the same in every language;
// lastRun puts them in words.
func RepairResultWords(res doctor.RepairResult, err error, ctx context.Context) string {
	switch {
	case ctx.Err() != nil:
		return "cancelled"
	case err != nil || res.Failed:
		return "repair failed" //i18n:raw a value of the list file
	case res.After != nil && res.After.Problems > 0:
		return "repaired, problems left" //i18n:raw a value of the list file, shown through resultWords
	}
	return "repaired"
}
