package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/go-version"
	"github.com/spf13/cobra"

	"gpuwiz/matrix"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pyenv"
)

func init() { register(20, newChannelsCmd) }

type channelsFlags struct {
	framework, frameworkVersion, os string
	driver, cudaMax, python         string
	pythonBits                      int
	computeCaps                     []string
	noGPU, json                     bool
}

func newChannelsCmd(env *Env) *cobra.Command {
	var fl channelsFlags
	cmd := &cobra.Command{
		Use:     "channels",
		Short:   i18n.T("cli.channels.short"),
		Long:    i18n.T("cli.channels.long"),
		Example: "  gpuwiz channels\n  gpuwiz channels --framework paddle --os windows --driver 566.36 --cuda-max 12.7 --compute-cap 8.6 --python 3.11\n  gpuwiz channels --no-gpu --json", //i18n:raw commands
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			facts, notes, err := fl.facts(cmd.Context(), env, cmd.Flags().Changed("os"))
			if err != nil {
				return err
			}
			m, err := env.Matrix()
			if err != nil {
				return err
			}
			sel := m.Select(facts)
			sel.Notes = append(notes, sel.Notes...)
			if len(sel.Candidates) == 0 && facts.FrameworkVersion != "" {
				// Not a machine problem (exit 3) but a version the matrix does not know: say which it knows.
				return Usagef("--framework-version %s: %s", facts.FrameworkVersion, sel.Notes[len(sel.Notes)-1])
			}
			out := cmd.OutOrStdout()
			if fl.json {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				if err := enc.Encode(sel); err != nil {
					return err
				}
			} else {
				printSelection(out, sel)
			}
			if sel.Recommended == nil {
				return Silent(ExitIncompatible)
			}
			return nil
		},
	}
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
	f.BoolVar(&fl.json, "json", false, i18n.T("cli.channels.flag.json"))
	return cmd
}

// facts checks the flags and fills what they leave out from this machine. The notes say what was
// assumed or could not be learned.
func (fl *channelsFlags) facts(ctx context.Context, env *Env, osGiven bool) (matrix.Facts, []string, error) {
	notes := []string{}
	if !slices.Contains(matrix.Frameworks(), fl.framework) {
		return matrix.Facts{}, nil, Usagef("%s", i18n.T("cli.bad_framework", i18n.D{"Value": strconv.Quote(fl.framework)}))
	}
	simulated := false
	if env.G.SimulateFile != "" {
		rep, err := env.GPUReport(ctx)
		if err != nil {
			return matrix.Facts{}, nil, err
		}
		simulated = true
		// A rig file made on Windows is judged as Windows: driver minimums and builds differ per OS.
		if !osGiven && rep.OS != "" && rep.OS != fl.os {
			fl.os = rep.OS
			notes = append(notes, i18n.T("cli.channels.note.simulated_os", i18n.D{"OS": rep.OS}))
		}
	}
	if fl.os != "windows" && fl.os != "linux" {
		if !osGiven {
			return matrix.Facts{}, nil, Usagef("%s", i18n.T("cli.channels.os_has_no_builds", i18n.D{"OS": fl.os}))
		}
		return matrix.Facts{}, nil, Usagef("%s", i18n.T("cli.channels.bad_os", i18n.D{"Value": strconv.Quote(fl.os)}))
	}
	if v := fl.frameworkVersion; v != "" {
		if _, err := version.NewVersion(v); err != nil || strings.Count(v, ".") > 2 {
			return matrix.Facts{}, nil, Usagef("%s", i18n.T("cli.channels.bad_framework_version", i18n.D{"Value": strconv.Quote(v)}))
		}
	}
	if fl.driver != "" {
		if err := matrix.ValidateDriverVersion(fl.driver); err != nil {
			return matrix.Facts{}, nil, Usagef("--driver: %v", err)
		}
	}
	if fl.cudaMax != "" {
		if err := matrix.ValidateCUDAVersion(fl.cudaMax); err != nil {
			return matrix.Facts{}, nil, Usagef("--cuda-max: %v", err)
		}
	}
	for _, c := range fl.computeCaps {
		if err := matrix.ValidateComputeCap(c); err != nil {
			return matrix.Facts{}, nil, Usagef("--compute-cap: %v", err)
		}
	}
	if fl.python != "" {
		if err := matrix.ValidatePythonVersion(fl.python); err != nil {
			return matrix.Facts{}, nil, Usagef("--python: %v", err)
		}
	}
	if fl.pythonBits != 0 && fl.pythonBits != 32 && fl.pythonBits != 64 {
		return matrix.Facts{}, nil, Usagef("%s", i18n.T("cli.channels.bad_python_bits", i18n.D{"Value": fl.pythonBits}))
	}
	f := matrix.Facts{
		Framework: fl.framework, FrameworkVersion: fl.frameworkVersion, OS: fl.os,
		DriverVersion: fl.driver, CUDAMax: fl.cudaMax, ComputeCaps: fl.computeCaps,
		PythonVersion: fl.python, PythonBits: fl.pythonBits, NoGPU: fl.noGPU, Simulated: simulated,
	}
	if f.NoGPU && len(f.ComputeCaps) > 0 {
		notes = append(notes, i18n.T("cli.channels.note.no_gpu_caps"))
	}
	if !f.NoGPU && (f.DriverVersion == "" || f.CUDAMax == "" || len(f.ComputeCaps) == 0) {
		more, err := env.FillGPUFacts(ctx, &f)
		if err != nil {
			return matrix.Facts{}, nil, err
		}
		notes = append(notes, more...)
	}
	if f.PythonVersion == "" {
		notes = append(notes, fillPythonFacts(ctx, &f)...)
	}
	return f, notes, nil
}

func fillPythonFacts(ctx context.Context, f *matrix.Facts) []string {
	found, err := pyenv.Discover(ctx, pyenv.DiscoverOptions{})
	if err != nil || len(found) == 0 {
		return []string{i18n.T("cli.channels.note.no_python")}
	}
	in := found[0]
	if f.PythonVersion == "" && matrix.ValidatePythonVersion(in.Version) == nil {
		f.PythonVersion = in.Version
		if f.PythonBits == 0 && (in.Bits == 32 || in.Bits == 64) {
			f.PythonBits = in.Bits
		}
		return []string{i18n.T("cli.channels.note.python", i18n.D{"Version": in.Version, "Bits": in.Bits, "Path": in.Path})}
	}
	return nil
}

// printSelection writes the human table: the recommendation first, then every other build with why.
func printSelection(w io.Writer, sel matrix.Selection) {
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
		rows[i] = matrix.RowTexts(c)
	}
	notes := matrix.NewFootnotes(rows)
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

func describeFacts(f matrix.Facts) string {
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

func channelText(c matrix.Candidate) string {
	if c.Channel == "cpu" {
		return "cpu"
	}
	if c.MinorCompat {
		return i18n.T("cli.channels.channel_minor_compat", i18n.D{"Channel": c.Channel, "CUDA": c.CUDA})
	}
	return c.Channel + ", CUDA " + c.CUDA
}

func requirements(c matrix.Candidate) string {
	var reqs []string
	for _, p := range c.Packages {
		reqs = append(reqs, p.Requirement()+p.LocalLabel)
	}
	return strings.Join(reqs, " ")
}
