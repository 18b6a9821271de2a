package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

// matrixCheckOptions is what `gpuwiz matrix check` was asked (its flags) and where it prints.
type matrixCheckOptions struct {
	Out       io.Writer
	Framework string // "": every framework
	Source    app.IndexSource
	JSON      bool
	Timeout   time.Duration
	Parallel  int
}

func newMatrixCheckCmd(env *Env) *cobra.Command {
	var o matrixCheckOptions
	cmd := &cobra.Command{
		Use:   "check",
		Short: i18n.T("cli.matrix.check.short"),
		Long:  i18n.T("cli.matrix.check.long"),
		//i18n:raw commands
		Example: "  gpuwiz matrix check --framework torch\n  gpuwiz matrix check --mirror https://mirror.example.com --json\n" +
			"  gpuwiz matrix check --find-links https://download.pytorch.org/whl/{channel}/torch_stable.html",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Out = cmd.OutOrStdout()
			return matrixCheckRun(cmd.Context(), env, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Framework, "framework", "", i18n.T("cli.flag.only_framework"))
	f.StringVar(&o.Source.IndexURL, "index-url", "", i18n.T("cli.matrix.check.flag.index_url"))
	f.StringVar(&o.Source.Mirror, "mirror", "", i18n.T("cli.matrix.check.flag.mirror"))
	f.StringVar(&o.Source.FindLinks, "find-links", "", i18n.T("cli.matrix.check.flag.find_links"))
	f.BoolVar(&o.JSON, "json", false, i18n.T("cli.flag.json_report"))
	f.DurationVar(&o.Timeout, "timeout", 20*time.Second, i18n.T("cli.matrix.check.flag.timeout"))
	f.IntVar(&o.Parallel, "parallel", 8, i18n.T("cli.matrix.check.flag.parallel"))
	return cmd
}

// matrixCheckRun checks that the index (or the source given) serves every build of the matrix.
func matrixCheckRun(ctx context.Context, env *Env, o matrixCheckOptions) error {
	framework, src, asJSON, timeout, parallel := o.Framework, o.Source, o.JSON, o.Timeout, o.Parallel
	var fws []string
	switch framework {
	case "":
	case "torch", "paddle":
		fws = []string{framework}
	default:
		return Usagef("%s", i18n.T("cli.bad_framework", i18n.D{"Value": strconv.Quote(framework)}))
	}
	if err := src.Validate(); err != nil {
		return Usagef("%v", err)
	}
	if parallel < 1 || parallel > 64 {
		return Usagef("%s", i18n.T("cli.matrix.check.bad_parallel", i18n.D{"Value": parallel}))
	}
	if timeout <= 0 {
		return Usagef("%s", i18n.T("cli.matrix.check.bad_timeout", i18n.D{"Value": timeout}))
	}
	rep, err := env.CheckMatrix(ctx, app.MatrixCheckRequest{Frameworks: fws, Source: src, Timeout: timeout, Parallel: parallel})
	if err != nil {
		return err
	}
	out := o.Out
	if asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		printCheck(out, rep)
	}
	switch phantoms, unknown := rep.Phantoms(); {
	case phantoms > 0:
		return Silent(ExitFailure)
	case unknown > 0:
		return Silent(ExitProblems)
	}
	return nil
}

func printCheck(w io.Writer, rep app.MatrixCheckReport) {
	counts := map[string]int{}
	last := ""
	var tw *table
	for _, r := range rep.Rows {
		if r.Framework != last {
			if tw != nil {
				tw.write(w)
				fmt.Fprintln(w)
			}
			last = r.Framework
			fmt.Fprintln(w, r.Framework)
			tw = &table{}
			tw.row("  "+i18n.T("cli.col.version"), i18n.T("cli.col.channel"), i18n.T("cli.col.os"), i18n.T("cli.col.python"), i18n.T("cli.col.index"))
		}
		counts[r.Status]++
		py := "-"
		if n := len(r.Pythons); n > 0 {
			py = r.Pythons[0] + "–" + r.Pythons[n-1]
		}
		tw.row("  "+r.Version, r.Channel, osNames(r.OS), py, checkWords(r))
	}
	if tw != nil {
		tw.write(w)
	}
	if len(rep.Extra) > 0 {
		fmt.Fprintln(w, "\n"+i18n.T("cli.matrix.check.extra_title"))
		for _, e := range rep.Extra {
			fmt.Fprintln(w, "  "+i18n.T("cli.matrix.check.extra", i18n.D{"Framework": e.Framework, "Version": e.Version, "Channel": e.Channel, "OS": i18n.Join(e.OS)}))
		}
	}
	fmt.Fprintln(w, "\n"+i18n.N("cli.matrix.check.summary", len(rep.Rows), i18n.D{"OK": counts[app.IndexServed], "Phantom": counts[app.IndexPhantom], "Unknown": counts[app.IndexCouldNotLook]}))
}

// checkWords is one build's line: the status, then what is missing or unread, then what is extra.
func checkWords(r app.MatrixCheckRow) string {
	var parts []string
	switch r.Status {
	case app.IndexServed:
		if r.WheelsFrom != "" { // served, but the bytes come from another host than this source
			parts = append(parts, i18n.T("cli.matrix.check.elsewhere", i18n.D{"Host": r.WheelsFrom}))
			break
		}
		parts = append(parts, i18n.T("cli.matrix.check.ok"))
	case app.IndexPhantom:
		parts = append(parts, i18n.T("cli.matrix.check.phantom", i18n.D{"Missing": r.MissingList()}))
	case app.IndexCouldNotLook:
		parts = append(parts, r.Reason())
	}
	if r.Status == app.IndexPhantom && len(r.CouldNotLook) > 0 {
		parts = append(parts, app.MatrixCheckRow{Status: app.IndexCouldNotLook, CouldNotLook: r.CouldNotLook}.Reason())
	}
	for _, m := range r.OptionalMissing {
		parts = append(parts, i18n.T("cli.matrix.check.optional_missing", i18n.D{"Package": m.Package, "Version": m.Version, "OS": app.OSName(m.OS)}))
	}
	for _, o := range r.ExtraOS {
		parts = append(parts, i18n.T("cli.matrix.check.extra_os", i18n.D{"OS": app.OSName(o)}))
	}
	return strings.Join(parts, i18n.T("cli.matrix.check.separator"))
}
