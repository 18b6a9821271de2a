package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

func init() { register(90, newMatrixCmd) }

// matrixOptions is what `gpuwiz matrix` was asked (its flags) and where it prints.
type matrixOptions struct {
	streams
	Framework string // "": every framework
	TOML      bool
}

func newMatrixCmd(env *Env) *cobra.Command {
	return newCommand(env, command[matrixOptions]{
		use:     "matrix",
		short:   i18n.T("cli.matrix.short"),
		long:    i18n.T("cli.matrix.long"),
		example: "  gpuwiz matrix --framework paddle\n  gpuwiz matrix --toml > my-matrix.toml\n  gpuwiz matrix validate my-matrix.toml", //i18n:raw commands
		json:    i18n.T("cli.matrix.flag.json"),
		flags: func(cmd *cobra.Command, o *matrixOptions) {
			cmd.Flags().StringVar(&o.Framework, "framework", "", i18n.T("cli.flag.only_framework"))
			cmd.Flags().BoolVar(&o.TOML, "toml", false, i18n.T("cli.matrix.flag.toml"))
			cmd.MarkFlagsMutuallyExclusive("json", "toml")
			cmd.AddCommand(newMatrixValidateCmd(env), newMatrixCheckCmd(env))
		},
		run: matrixRun,
	})
}

// matrixRun prints the version matrix: a table, its JSON or its TOML file.
func matrixRun(_ context.Context, env *Env, o matrixOptions) error {
	if o.Framework != "" && o.Framework != "torch" && o.Framework != "paddle" {
		return Usagef("%s", i18n.T("cli.bad_framework", i18n.D{"Value": strconv.Quote(o.Framework)}))
	}
	m, err := env.Matrix()
	if err != nil {
		return err
	}
	if o.TOML {
		data, err := env.MatrixTOML()
		if err != nil {
			return err
		}
		_, err = o.Out.Write(data)
		return err
	}
	return show(o.streams, m, func(w io.Writer, m *app.VersionMatrix) { printMatrix(w, m, o.Framework) })
}

// matrixValidateOptions is what `gpuwiz matrix validate` was given (its argument) and where it prints.
type matrixValidateOptions struct {
	streams
	File string // the argument
}

func newMatrixValidateCmd(env *Env) *cobra.Command {
	return newCommand(env, command[matrixValidateOptions]{
		use:   "validate FILE", //i18n:raw a usage line: the command and its argument's name
		short: i18n.T("cli.matrix.validate.short"),
		long:  i18n.T("cli.matrix.validate.long"),
		args:  cobra.ExactArgs(1),
		prepare: func(_ *cobra.Command, args []string, o *matrixValidateOptions) error {
			o.File = args[0]
			return nil
		},
		run: matrixValidateRun,
	})
}

// matrixValidateRun loads the matrix file and counts what it holds, or says why it cannot be used.
func matrixValidateRun(_ context.Context, _ *Env, o matrixValidateOptions) error {
	m, err := app.LoadMatrixFile(o.File)
	if err != nil {
		fmt.Fprintln(o.ErrOut, err)
		return Silent(ExitFailure)
	}
	builds := 0
	for _, fw := range app.Frameworks() {
		builds += len(m.Candidates(fw))
	}
	fmt.Fprintln(o.Out, i18n.T("cli.matrix.validate.ok", i18n.D{
		"File": o.File, "Torch": len(m.Torch), "Paddle": len(m.Paddle), "Builds": builds, "CUDA": len(m.CUDA)}))
	return nil
}

func printMatrix(w io.Writer, m *app.VersionMatrix, only string) {
	for _, fw := range app.Frameworks() {
		if only != "" && fw != only {
			continue
		}
		fmt.Fprintf(w, "%s\n", fw)
		var tw table
		tw.row("  "+i18n.T("cli.col.version"), i18n.T("cli.col.channel"), "CUDA", i18n.T("cli.col.cudnn"), i18n.T("cli.col.python"), i18n.T("cli.col.os"), i18n.T("cli.col.verified"), i18n.T("cli.col.index"))
		releases := m.Torch
		if fw == "paddle" {
			releases = m.Paddle
		}
		for _, r := range releases {
			for _, b := range r.Builds {
				osList := b.OS
				if len(osList) == 0 {
					osList = r.OS
				}
				verified := i18n.T("cli.yes")
				var on []string // the systems it is verified on, when not all of its own
				for _, o := range osList {
					if !slices.Contains(b.UnverifiedOS, o) {
						on = append(on, o)
					}
				}
				switch {
				case !r.Verified || !b.Verified || len(on) == 0:
					verified = i18n.T("cli.no")
				case len(on) < len(osList):
					verified = i18n.T("cli.matrix.verified_on", i18n.D{"OS": osNames(on)})
				}
				tw.row("  "+r.Version, b.Channel, dash(b.CUDA), dash(b.CUDNN),
					r.PythonMin+"–"+r.PythonMax, osNames(osList), verified, b.IndexURL)
			}
		}
		tw.write(w)
		fmt.Fprintln(w)
	}
	if only != "" {
		return
	}
	fmt.Fprintln(w, i18n.T("cli.matrix.cuda_title"))
	var tw table
	tw.row("  CUDA", i18n.T("cli.col.linux"), i18n.T("cli.col.windows"), i18n.T("cli.col.newest_arch"), i18n.T("cli.col.verified"))
	for _, c := range m.CUDA {
		verified := i18n.T("cli.yes")
		if !c.Verified {
			verified = i18n.T("cli.no")
		}
		tw.row("  "+c.Version, c.MinorCompatLinux+" / "+dash(c.FullLinux),
			c.MinorCompatWindows+" / "+dash(c.FullWindows), c.MaxComputeCap, verified)
	}
	tw.write(w)
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// osNames is a list of the matrix's OS ids ("linux", "windows") as the current language names them:
// "linux,windows" in English, "Linux、Windows" in Chinese. An id the catalog does not name stays as it is.
func osNames(ids []string) string {
	names := make([]string, len(ids))
	for i, id := range ids {
		switch id {
		case "linux":
			names[i] = i18n.T("cli.os.linux")
		case "windows":
			names[i] = i18n.T("cli.os.windows")
		default:
			names[i] = id
		}
	}
	return strings.Join(names, i18n.T("cli.os.sep"))
}

// matrixCheckOptions is what `gpuwiz matrix check` was asked (its flags) and where it prints.
type matrixCheckOptions struct {
	streams
	Framework string // "": every framework
	Source    app.IndexSource
	Timeout   time.Duration
	Parallel  int
}

func newMatrixCheckCmd(env *Env) *cobra.Command {
	return newCommand(env, command[matrixCheckOptions]{
		use:   "check",
		short: i18n.T("cli.matrix.check.short"),
		long:  i18n.T("cli.matrix.check.long"),
		//i18n:raw commands
		example: "  gpuwiz matrix check --framework torch\n  gpuwiz matrix check --mirror https://mirror.example.com --json\n" +
			"  gpuwiz matrix check --find-links https://download.pytorch.org/whl/{channel}/torch_stable.html",
		json: i18n.T("cli.flag.json_report"),
		flags: func(cmd *cobra.Command, o *matrixCheckOptions) {
			f := cmd.Flags()
			f.StringVar(&o.Framework, "framework", "", i18n.T("cli.flag.only_framework"))
			f.StringVar(&o.Source.IndexURL, "index-url", "", i18n.T("cli.matrix.check.flag.index_url"))
			f.StringVar(&o.Source.Mirror, "mirror", "", i18n.T("cli.matrix.check.flag.mirror"))
			f.StringVar(&o.Source.FindLinks, "find-links", "", i18n.T("cli.matrix.check.flag.find_links"))
			f.DurationVar(&o.Timeout, "timeout", 20*time.Second, i18n.T("cli.matrix.check.flag.timeout"))
			f.IntVar(&o.Parallel, "parallel", 8, i18n.T("cli.matrix.check.flag.parallel"))
		},
		run: matrixCheckRun,
	})
}

// matrixCheckRun checks that the index (or the source given) serves every build of the matrix.
func matrixCheckRun(ctx context.Context, env *Env, o matrixCheckOptions) error {
	framework, src, timeout, parallel := o.Framework, o.Source, o.Timeout, o.Parallel
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
	if err := show(o.streams, rep, printCheck); err != nil {
		return err
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
