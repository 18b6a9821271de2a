package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"gpuwiz/steps/indexcheck"
)

func newMatrixCheckCmd(env *Env) *cobra.Command {
	var framework string
	var src indexcheck.Source
	var asJSON bool
	var timeout time.Duration
	var parallel int
	cmd := &cobra.Command{
		Use:   "check",
		Short: "Ask the package indexes whether every build of the matrix has its wheels",
		Long: "check reads each build's index pages (torch, torchvision, torchaudio, paddlepaddle-gpu on its channel)\n" +
			"and reports, per build, whether the exact wheels exist for every system it names and every Python of\n" +
			"its range (ok), which are missing (phantom), or that the index did not answer or sent a page gpuwiz\n" +
			"cannot read (could not look: never counted as missing). It also lists newer builds a channel serves\n" +
			"that the matrix lacks, and wheels for a system the matrix does not name.\n" +
			"--index-url and --find-links may hold {channel}, replaced by each build's channel (cu126).\n" +
			"Exit code 0 when every declared wheel exists, 1 when phantoms are found, 5 when some builds could\n" +
			"not be checked and none is a phantom, 2 on bad input.",
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
				return Usagef("--framework %q: use torch or paddle", framework)
			}
			if err := src.Validate(); err != nil {
				return Usagef("%v", err)
			}
			if parallel < 1 || parallel > 64 {
				return Usagef("--parallel %d: use 1 to 64", parallel)
			}
			if timeout <= 0 {
				return Usagef("--timeout %s: give a positive duration such as 20s", timeout)
			}
			m, err := env.Matrix()
			if err != nil {
				return err
			}
			rep := indexcheck.CheckMatrix(cmd.Context(), m, fws, &indexcheck.Fetcher{Timeout: timeout}, src, parallel)
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
	f.StringVar(&framework, "framework", "", "only torch or paddle")
	f.StringVar(&src.IndexURL, "index-url", "", "check this index instead of each build's (PEP 503/691; {channel} is replaced by the channel)")
	f.StringVar(&src.Mirror, "mirror", "", "a mirror of the builds' indexes: its scheme and host replace theirs, their paths are kept")
	f.StringVar(&src.FindLinks, "find-links", "", "a flat page of a channel's files (pip --find-links); {channel} is replaced by the channel")
	f.BoolVar(&asJSON, "json", false, "print the report as JSON")
	f.DurationVar(&timeout, "timeout", 20*time.Second, "time limit for each page")
	f.IntVar(&parallel, "parallel", 8, "builds checked at the same time (each reads its packages' pages together)")
	return cmd
}

func printCheck(w io.Writer, rep indexcheck.Report) {
	counts := map[string]int{}
	last := ""
	var tw *tabwriter.Writer
	for _, r := range rep.Rows {
		if r.Framework != last {
			if tw != nil {
				tw.Flush()
				fmt.Fprintln(w)
			}
			last = r.Framework
			fmt.Fprintln(w, r.Framework)
			tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "  VERSION\tCHANNEL\tOS\tPYTHON\tINDEX")
		}
		counts[r.Status]++
		py := "-"
		if n := len(r.Pythons); n > 0 {
			py = r.Pythons[0] + "–" + r.Pythons[n-1]
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", r.Version, r.Channel, strings.Join(r.OS, ","), py, checkWords(r))
	}
	if tw != nil {
		tw.Flush()
	}
	if len(rep.Extra) > 0 {
		fmt.Fprintln(w, "\nbuilds the indexes serve that the matrix lacks:")
		for _, e := range rep.Extra {
			fmt.Fprintf(w, "  %s %s on %s (%s)\n", e.Framework, e.Version, e.Channel, strings.Join(e.OS, ", "))
		}
	}
	fmt.Fprintf(w, "\n%d builds: %d ok, %d phantom, %d could not look\n", len(rep.Rows), counts[indexcheck.Served], counts[indexcheck.Phantom], counts[indexcheck.CouldNotLook])
}

// checkWords is one build's line: the status, then what is missing or unread, then what is extra.
func checkWords(r indexcheck.Result) string {
	var parts []string
	switch r.Status {
	case indexcheck.Served:
		parts = append(parts, "ok")
	case indexcheck.Phantom:
		parts = append(parts, "PHANTOM: "+strings.TrimPrefix(r.Reason(), "the index has "))
	case indexcheck.CouldNotLook:
		parts = append(parts, r.Reason())
	}
	if r.Status == indexcheck.Phantom && len(r.CouldNotLook) > 0 {
		parts = append(parts, indexcheck.Result{Status: indexcheck.CouldNotLook, CouldNotLook: r.CouldNotLook}.Reason())
	}
	for _, m := range r.OptionalMissing {
		parts = append(parts, fmt.Sprintf("optional %s==%s not served for %s", m.Package, m.Version, osWord(m.OS)))
	}
	for _, o := range r.ExtraOS {
		parts = append(parts, fmt.Sprintf("%s wheels are served too", osWord(o)))
	}
	return strings.Join(parts, "; ")
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
