package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"gpuwiz/matrix"
	"gpuwiz/steps/doctor"
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
		Use:   "venvs",
		Short: "List the venvs gpuwiz created, installed into or repaired, with what each holds",
		Long: "venvs lists the venvs gpuwiz worked on, newest first, with what each holds now (read from its files)\n" +
			"and how gpuwiz's last run there ended. Venvs that no longer exist are dropped from the list.\n" +
			"--all adds the active venv ($VIRTUAL_ENV), ./venv, ./.venv and the conda environments gpuwiz can see.",
		Example: "  gpuwiz venvs\n  gpuwiz venvs --all --json",
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
			if rep.Warning != "" {
				fmt.Fprintln(cmd.ErrOrStderr(), "gpuwiz: warning:", rep.Warning)
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
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the list as JSON")
	cmd.Flags().BoolVar(&all, "all", false, "also list the active venv, ./venv, ./.venv and conda environments")
	return cmd
}

func printVenvs(w io.Writer, rep venvsReport, all bool) {
	if len(rep.Venvs) == 0 {
		fmt.Fprintf(w, "gpuwiz has not worked on any venv that still exists (the list is kept in %s).\n", rep.List)
		return
	}
	fmt.Fprintf(w, "Venvs gpuwiz worked on, newest first (kept in %s):\n", rep.List)
	for _, f := range rep.Venvs {
		fmt.Fprintf(w, "  %s\n    %s\n", f.Path, VenvLine(f))
	}
	if !all {
		fmt.Fprintln(w, "gpuwiz venvs --all also lists the active venv, ./venv, ./.venv and conda environments.")
	}
}

// VenvLine is one environment in words: what it holds, and gpuwiz's last run there or where it was
// found. "PyTorch 2.6.0 (cu126), Python 3.12.8 · installed on 2026-12-03".
func VenvLine(f venvs.Found) string {
	s := f.Holds.Describe()
	switch {
	case f.Known != nil:
		s += " · " + lastRun(*f.Known) + " on " + f.Known.When.Local().Format("2006-01-02")
	case f.Source == venvs.SourceActive:
		s += " · the active venv ($VIRTUAL_ENV)"
	case f.Source == venvs.SourceHere:
		s += " · in this folder"
	case f.Source == venvs.SourceConda:
		s += " · conda environment"
	}
	return s
}

// lastRun is how gpuwiz's last run there ended: "installed", "repaired", "install failed, restored",
// "repair cancelled".
func lastRun(e venvs.Entry) string {
	switch {
	case e.OK:
		return e.Result
	case e.Result == "cancelled":
		return e.Action + " cancelled"
	case e.Result == "" || e.Result == e.Action+" failed" || e.Result == "failed":
		return e.Action + " failed"
	}
	return e.Action + " failed, " + e.Result
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
		fmt.Fprintln(warn, "gpuwiz: warning: the list of venvs gpuwiz worked on was not updated:", err)
	}
}

// RepairResultWords is how a repair ended, for the list of venvs: "repaired", "repaired, problems
// left", "repair failed", "cancelled".
func RepairResultWords(res doctor.RepairResult, err error, ctx context.Context) string {
	switch {
	case ctx.Err() != nil:
		return "cancelled"
	case err != nil || res.Failed:
		return "repair failed"
	case res.After != nil && res.After.Problems > 0:
		return "repaired, problems left"
	}
	return "repaired"
}
