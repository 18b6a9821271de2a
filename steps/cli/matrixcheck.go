package cli

import (
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

func newMatrixCheckCmd(env *Env) *cobra.Command {
	var framework string
	var src app.IndexSource
	var asJSON bool
	var timeout time.Duration
	var parallel int
	cmd := &cobra.Command{
		Use:   "check",
		Short: i18n.T("cli.matrix.check.short"),
		Long:  i18n.T("cli.matrix.check.long"),
		//i18n:raw commands
		Example: "  gpuwiz matrix check --framework torch\n  gpuwiz matrix check --mirror https://mirror.example.com --json\n" +
			"  gpuwiz matrix check --find-links https://download.pytorch.org/whl/{channel}/torch_stable.html",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
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
			rep, err := env.CheckMatrix(cmd.Context(), app.MatrixCheckRequest{Frameworks: fws, Source: src, Timeout: timeout, Parallel: parallel})
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
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
		},
	}
	f := cmd.Flags()
	f.StringVar(&framework, "framework", "", i18n.T("cli.flag.only_framework"))
	f.StringVar(&src.IndexURL, "index-url", "", i18n.T("cli.matrix.check.flag.index_url"))
	f.StringVar(&src.Mirror, "mirror", "", i18n.T("cli.matrix.check.flag.mirror"))
	f.StringVar(&src.FindLinks, "find-links", "", i18n.T("cli.matrix.check.flag.find_links"))
	f.BoolVar(&asJSON, "json", false, i18n.T("cli.flag.json_report"))
	f.DurationVar(&timeout, "timeout", 20*time.Second, i18n.T("cli.matrix.check.flag.timeout"))
	f.IntVar(&parallel, "parallel", 8, i18n.T("cli.matrix.check.flag.parallel"))
	return cmd
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
		parts = append(parts, i18n.T("cli.matrix.check.optional_missing", i18n.D{"Package": m.Package, "Version": m.Version, "OS": osWord(m.OS)}))
	}
	for _, o := range r.ExtraOS {
		parts = append(parts, i18n.T("cli.matrix.check.extra_os", i18n.D{"OS": osWord(o)}))
	}
	return strings.Join(parts, i18n.T("cli.matrix.check.separator"))
}

func osWord(goos string) string {
	switch goos {
	case "windows":
		return "Windows"
	case "linux":
		return "Linux"
	}
	return goos
}
