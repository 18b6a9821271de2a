package cli

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/words"
)

func init() { register(20, newChannelsCmd) }

// channelsOptions is what `gpuwiz channels` was asked (its flags) and where it prints.
type channelsOptions struct {
	streams
	osGiven                         bool // --os was given, not this machine's
	framework, frameworkVersion, os string
	driver, cudaMax, python         string
	pythonBits                      int
	computeCaps                     []string
	noGPU                           bool
}

func newChannelsCmd(env *Env) *cobra.Command {
	return newCommand(env, command[channelsOptions]{
		use:     "channels",
		short:   i18n.T("cli.channels.short"),
		long:    i18n.T("cli.channels.long"),
		example: "  gpuwiz channels\n  gpuwiz channels --framework paddle --os windows --driver 566.36 --cuda-max 12.7 --compute-cap 8.6 --python 3.11\n  gpuwiz channels --no-gpu --json", //i18n:raw commands
		json:    i18n.T("cli.channels.flag.json"),
		flags: func(cmd *cobra.Command, fl *channelsOptions) {
			f := cmd.Flags()
			f.StringVar(&fl.framework, "framework", "torch", i18n.T("cli.flag.framework"))
			f.StringVar(&fl.frameworkVersion, "framework-version", "", i18n.T("cli.channels.flag.framework_version"))
			f.StringVar(&fl.os, "os", runtime.GOOS, i18n.T("cli.channels.flag.os"))
			f.StringVar(&fl.driver, "driver", "", i18n.T("cli.channels.flag.driver"))
			f.StringVar(&fl.cudaMax, "cuda-max", "", i18n.T("cli.channels.flag.cuda_max"))
			f.StringArrayVar(&fl.computeCaps, "compute-cap", nil, i18n.T("cli.channels.flag.compute_cap"))
			f.StringVar(&fl.python, "python", "", i18n.T("cli.channels.flag.python"))
			f.IntVar(&fl.pythonBits, "python-bits", 0, i18n.T("cli.channels.flag.python_bits"))
			f.BoolVar(&fl.noGPU, "no-gpu", false, i18n.T("cli.channels.flag.no_gpu"))
		},
		prepare: func(cmd *cobra.Command, _ []string, fl *channelsOptions) error {
			fl.osGiven = cmd.Flags().Changed("os")
			return nil
		},
		run: channelsRun,
	})
}

// channelsRun prints every build of the framework for the facts given, the rest this machine's,
// with the one to install first.
func channelsRun(ctx context.Context, env *Env, fl channelsOptions) error {
	sel, notes, err := env.SelectChannels(ctx, app.ChannelsRequest{Facts: fl.facts(), OSGiven: fl.osGiven})
	if err != nil {
		return err
	}
	// What was assumed or could not be learned comes first, then the matrix's own notes.
	sel.Notes = append(words.Texts(notes), sel.Notes...)
	if err := show(fl.streams, sel, printSelection); err != nil {
		return err
	}
	if sel.Recommended == nil {
		return Silent(ExitIncompatible)
	}
	return nil
}

// facts are the facts the flags give; those left empty are this machine's.
func (fl *channelsOptions) facts() app.Facts {
	return app.Facts{
		Framework: fl.framework, FrameworkVersion: fl.frameworkVersion, OS: fl.os,
		DriverVersion: fl.driver, CUDAMax: fl.cudaMax, ComputeCaps: fl.computeCaps,
		PythonVersion: fl.python, PythonBits: fl.pythonBits, NoGPU: fl.noGPU,
	}
}

// printSelection writes the human table: the recommendation first, then every other build with why.
func printSelection(w io.Writer, sel app.Selection) {
	f := sel.Facts
	fmt.Fprintln(w, i18n.T("cli.channels.title", i18n.D{"Framework": sel.Framework, "Facts": describeFacts(f)}))
	if r := sel.Recommended; r != nil {
		fmt.Fprintln(w, i18n.T("cli.channels.recommended", i18n.D{"Framework": sel.Framework, "Version": r.FrameworkVersion, "Channel": channelText(*r)}))
		fmt.Fprintf(w, "  pip install %s --index-url %s\n", requirements(*r), r.IndexURL) //i18n:raw a command to type
	} else {
		fmt.Fprintln(w, i18n.T("cli.channels.recommended_none"))
	}
	fmt.Fprintln(w)
	rows := make([][]string, len(sel.Candidates))
	for i, c := range sel.Candidates {
		rows[i] = app.RowTexts(c)
	}
	notes := app.NewFootnotes(rows)
	var tw table
	tw.row("", i18n.T("cli.col.version"), i18n.T("cli.col.channel"), "CUDA", i18n.T("cli.col.status"), i18n.T("cli.col.why"))
	unverified := false
	for i, c := range sel.Candidates {
		mark := ""
		if i == 0 && sel.Recommended != nil {
			mark = "*"
		}
		status := i18n.T("cli.channels.status.no")
		switch {
		case c.Compatible && c.MinorCompat && !c.Verified:
			status = i18n.T("cli.channels.status.minor_compat_unverified")
		case c.Compatible && c.MinorCompat:
			status = i18n.T("cli.channels.status.minor_compat")
		case c.Compatible && !c.Verified:
			status = i18n.T("cli.channels.status.ok_unverified")
		case c.Compatible:
			status = i18n.T("cli.channels.status.ok")
		}
		if !c.Verified && c.Compatible {
			unverified = true
		}
		cuda := c.CUDA
		if cuda == "" {
			cuda = "-"
		}
		tw.row(mark, c.FrameworkVersion, c.Channel, cuda, status, notes.Line(rows[i]))
	}
	tw.write(w)
	if len(notes.Texts) > 0 {
		fmt.Fprintln(w)
		for i, t := range notes.Texts {
			fmt.Fprintf(w, "[%d] %s\n", i+1, t)
		}
	}
	if unverified {
		fmt.Fprintln(w, "\n"+UnverifiedMeaning())
	}
	if len(sel.Notes) > 0 {
		fmt.Fprintln(w, "\n"+i18n.T("cli.channels.notes"))
		for _, n := range sel.Notes {
			fmt.Fprintf(w, "  - %s\n", n)
		}
	}
}

// UnverifiedMeaning says what "unverified" on a build means and what to do about it.
func UnverifiedMeaning() string { return i18n.T("cli.channels.unverified_meaning") }

func describeFacts(f app.Facts) string {
	parts := []string{f.OS}
	switch {
	case f.NoGPU:
		parts = append(parts, i18n.T("cli.facts.no_gpu"))
	case f.DriverVersion == "" && f.CUDAMax == "":
		parts = append(parts, i18n.T("cli.facts.no_driver"))
	case f.CUDAMax != "":
		parts = append(parts, i18n.T("cli.facts.driver_cuda", i18n.D{"Driver": orUnknown(f.DriverVersion), "CUDA": f.CUDAMax}))
	default:
		parts = append(parts, i18n.T("cli.facts.driver", i18n.D{"Driver": orUnknown(f.DriverVersion)}))
	}
	if !f.NoGPU && (f.DriverVersion != "" || f.CUDAMax != "" || f.DriverMissing) && len(f.ComputeCaps) > 0 {
		parts = append(parts, i18n.T("cli.facts.compute_cap", i18n.D{"Caps": i18n.Join(f.ComputeCaps)}))
	}
	if f.PythonBits != 0 {
		parts = append(parts, i18n.T("cli.facts.python_bits", i18n.D{"Version": orUnknown(f.PythonVersion), "Bits": f.PythonBits}))
	} else {
		parts = append(parts, i18n.T("cli.facts.python", i18n.D{"Version": orUnknown(f.PythonVersion)}))
	}
	return i18n.Join(parts)
}

func orUnknown(s string) string {
	if s == "" {
		return i18n.T("cli.unknown")
	}
	return s
}

func channelText(c app.Candidate) string {
	if c.Channel == "cpu" {
		return "cpu"
	}
	if c.MinorCompat {
		return i18n.T("cli.channels.channel_minor_compat", i18n.D{"Channel": c.Channel, "CUDA": c.CUDA})
	}
	return c.Channel + ", CUDA " + c.CUDA
}

func requirements(c app.Candidate) string {
	var reqs []string
	for _, p := range c.Packages {
		reqs = append(reqs, p.Requirement()+p.LocalLabel)
	}
	return strings.Join(reqs, " ")
}
