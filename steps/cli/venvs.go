package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/words"
)

func init() { register(42, newVenvsCmd) }

// venvsReport is `gpuwiz venvs --json`.
type venvsReport = app.VenvList

// venvsOptions is what `gpuwiz venvs` was asked (its flags) and the streams it talks on.
type venvsOptions struct {
	streams
	All bool
}

func newVenvsCmd(env *Env) *cobra.Command {
	return newCommand(env, command[venvsOptions]{
		use:     "venvs",
		short:   i18n.T("cli.venvs.short"),
		long:    i18n.T("cli.venvs.long"),
		example: "  gpuwiz venvs\n  gpuwiz venvs --all --json", //i18n:raw commands
		json:    i18n.T("cli.venvs.flag.json"),
		flags: func(cmd *cobra.Command, o *venvsOptions) {
			cmd.Flags().BoolVar(&o.All, "all", false, i18n.T("cli.venvs.flag.all"))
		},
		run: venvsRun,
	})
}

// venvsRun prints the list of venvs gpuwiz worked on (with --all, every environment found).
func venvsRun(ctx context.Context, _ *Env, o venvsOptions) error {
	rep, err := app.ListVenvs(ctx, o.All)
	if err != nil {
		return err
	}
	if rep.Warning != "" {
		fmt.Fprintln(o.ErrOut, i18n.Said(i18n.T("cli.warning", i18n.D{"Text": rep.Warning})))
	}
	return show(o.streams, rep, func(w io.Writer, rep venvsReport) { printVenvs(w, rep, o.All) })
}

// stateLine says what the venv's state folder holds and takes: "state folder …/.gpuwiz: 3 snapshots,
// no backup; 344 KiB".
func stateLine(s app.VenvStateFolder) string {
	backups := i18n.T("cli.venvs.state.no_backup")
	if s.Backups > 0 {
		backups = i18n.N("cli.venvs.state.backups", s.Backups)
	}
	size := i18n.Size(s.Bytes)
	if s.Shared > 0 {
		size = i18n.T("cli.venvs.state.shared", i18n.D{"Own": i18n.Size(s.Bytes), "Shared": i18n.Size(s.Shared)})
	}
	return i18n.T("cli.venvs.state", i18n.D{"Dir": s.Dir, "Snapshots": i18n.N("cli.venvs.state.snapshots", s.Snapshots), "Backups": backups, "Size": size})
}

func printVenvs(w io.Writer, rep venvsReport, all bool) {
	if len(rep.Venvs) == 0 {
		fmt.Fprintln(w, i18n.T("cli.venvs.none", i18n.D{"List": rep.List}))
		return
	}
	fmt.Fprintln(w, i18n.T("cli.venvs.title", i18n.D{"List": rep.List}))
	for _, f := range rep.Venvs {
		fmt.Fprintf(w, "  %s\n    %s\n", f.Path, words.VenvLine(f))
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

// warnNotRecorded is the one warning line of a list of venvs that could not be written.
func warnNotRecorded(warn io.Writer, err error) {
	if err != nil && warn != nil {
		fmt.Fprintln(warn, i18n.Said(i18n.T("cli.warning", i18n.D{"Text": i18n.T("cli.venvs.not_recorded", i18n.D{"Err": err})})))
	}
}
