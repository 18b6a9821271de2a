package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/hashicorp/go-version"
	"github.com/spf13/cobra"

	"gpuwiz/matrix"
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
		Use:   "channels",
		Short: "List every build of PyTorch or PaddlePaddle for this machine, with the recommendation and why",
		Long: "channels judges every framework version × channel of the version matrix against this machine:\n" +
			"the NVIDIA driver (and the CUDA version it supports), the GPUs' compute capabilities, the Python\n" +
			"version and bitness, the OS. Facts given as flags replace what the machine reports.\n" +
			"Exit code 3 when not even a CPU build fits.",
		Example: "  gpuwiz channels\n  gpuwiz channels --framework paddle --os windows --driver 566.36 --cuda-max 12.7 --compute-cap 8.6 --python 3.11\n  gpuwiz channels --no-gpu --json",
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
	f.StringVar(&fl.framework, "framework", "torch", "torch or paddle")
	f.StringVar(&fl.frameworkVersion, "framework-version", "", "only this framework version (2.6 means the newest 2.6.x)")
	f.StringVar(&fl.os, "os", runtime.GOOS, "windows or linux")
	f.StringVar(&fl.driver, "driver", "", "NVIDIA driver version, e.g. 566.36 (default: probed)")
	f.StringVar(&fl.cudaMax, "cuda-max", "", "highest CUDA version the driver supports, e.g. 12.7 (default: probed)")
	f.StringArrayVar(&fl.computeCaps, "compute-cap", nil, "compute capability of a GPU, e.g. 8.6; repeat once per GPU (default: probed)")
	f.StringVar(&fl.python, "python", "", "Python version, e.g. 3.12 (default: the first Python found)")
	f.IntVar(&fl.pythonBits, "python-bits", 0, "64 or 32 (default: the first Python found's, else unknown)")
	f.BoolVar(&fl.noGPU, "no-gpu", false, "judge as if there were no NVIDIA GPU (CPU builds only)")
	f.BoolVar(&fl.json, "json", false, "print the selection as JSON")
	return cmd
}

// facts checks the flags and fills what they leave out from this machine. The notes say what was
// assumed or could not be learned.
func (fl *channelsFlags) facts(ctx context.Context, env *Env, osGiven bool) (matrix.Facts, []string, error) {
	notes := []string{}
	if !slices.Contains(matrix.Frameworks(), fl.framework) {
		return matrix.Facts{}, nil, Usagef("--framework %q: use torch or paddle", fl.framework)
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
			notes = append(notes, fmt.Sprintf("OS %s, from the simulated report (--os overrides it)", rep.OS))
		}
	}
	if fl.os != "windows" && fl.os != "linux" {
		if !osGiven {
			return matrix.Facts{}, nil, Usagef("this machine runs %s, which has no CUDA builds: pass --os windows or --os linux", fl.os)
		}
		return matrix.Facts{}, nil, Usagef("--os %q: use windows or linux", fl.os)
	}
	if v := fl.frameworkVersion; v != "" {
		if _, err := version.NewVersion(v); err != nil || strings.Count(v, ".") > 2 {
			return matrix.Facts{}, nil, Usagef("--framework-version %q is not a version such as 2.6 or 2.6.0", v)
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
		return matrix.Facts{}, nil, Usagef("--python-bits %d: use 64 or 32", fl.pythonBits)
	}
	f := matrix.Facts{
		Framework: fl.framework, FrameworkVersion: fl.frameworkVersion, OS: fl.os,
		DriverVersion: fl.driver, CUDAMax: fl.cudaMax, ComputeCaps: fl.computeCaps,
		PythonVersion: fl.python, PythonBits: fl.pythonBits, NoGPU: fl.noGPU, Simulated: simulated,
	}
	if f.NoGPU && len(f.ComputeCaps) > 0 {
		notes = append(notes, "--no-gpu: the --compute-cap values are not used (CPU builds only)")
	}
	if !f.NoGPU && (f.DriverVersion == "" || f.CUDAMax == "" || len(f.ComputeCaps) == 0) {
		more, err := fillGPUFacts(ctx, env, &f)
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

// fillGPUFacts takes the GPU facts the flags left out from the probe (or the --simulate file).
func fillGPUFacts(ctx context.Context, env *Env, f *matrix.Facts) ([]string, error) {
	rep, err := env.GPUReport(ctx)
	if err != nil {
		return nil, err
	}
	if !rep.Available {
		return nil, nil
	}
	var notes []string
	if f.DriverVersion == "" && matrix.ValidateDriverVersion(rep.DriverVersion) == nil {
		f.DriverVersion = rep.DriverVersion
	}
	if f.CUDAMax == "" && matrix.ValidateCUDAVersion(rep.CUDAMax) == nil {
		f.CUDAMax = rep.CUDAMax
	}
	if len(f.ComputeCaps) == 0 {
		for _, g := range rep.GPUs {
			if matrix.ValidateComputeCap(g.ComputeCapability) == nil {
				f.ComputeCaps = append(f.ComputeCaps, g.ComputeCapability)
			} else {
				notes = append(notes, fmt.Sprintf("GPU %d (%s) did not report its compute capability (drivers before 510 do not): pass --compute-cap X.Y for it", g.Index, g.Name))
			}
		}
	}
	return notes, nil
}

func fillPythonFacts(ctx context.Context, f *matrix.Facts) []string {
	found, err := pyenv.Discover(ctx, pyenv.DiscoverOptions{})
	if err != nil || len(found) == 0 {
		return []string{"no Python interpreter found on this machine: pass --python X.Y"}
	}
	in := found[0]
	if f.PythonVersion == "" && matrix.ValidatePythonVersion(in.Version) == nil {
		f.PythonVersion = in.Version
		if f.PythonBits == 0 && (in.Bits == 32 || in.Bits == 64) {
			f.PythonBits = in.Bits
		}
		return []string{fmt.Sprintf("Python %s (%d-bit) from %s", in.Version, in.Bits, in.Path)}
	}
	return nil
}

// printSelection writes the human table: the recommendation first, then every other build with why.
func printSelection(w io.Writer, sel matrix.Selection) {
	f := sel.Facts
	fmt.Fprintf(w, "%s builds for %s\n", sel.Framework, describeFacts(f))
	if r := sel.Recommended; r != nil {
		fmt.Fprintf(w, "recommended: %s %s (%s)\n", sel.Framework, r.FrameworkVersion, channelText(*r))
		fmt.Fprintf(w, "  pip install %s --index-url %s\n", requirements(*r), r.IndexURL)
	} else {
		fmt.Fprintln(w, "recommended: none (see notes)")
	}
	fmt.Fprintln(w)
	rows := make([][]string, len(sel.Candidates))
	for i, c := range sel.Candidates {
		rows[i] = matrix.RowTexts(c)
	}
	notes := matrix.NewFootnotes(rows)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "\tVERSION\tCHANNEL\tCUDA\tSTATUS\tWHY / NOTE")
	unverified := false
	for i, c := range sel.Candidates {
		mark := ""
		if i == 0 && sel.Recommended != nil {
			mark = "*"
		}
		status := "no"
		switch {
		case c.Compatible && c.MinorCompat:
			status = "ok (minor compat)"
		case c.Compatible:
			status = "ok"
		}
		if !c.Verified && c.Compatible {
			status += ", unverified"
			unverified = true
		}
		cuda := c.CUDA
		if cuda == "" {
			cuda = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", mark, c.FrameworkVersion, c.Channel, cuda, status, notes.Line(rows[i]))
	}
	tw.Flush()
	if len(notes.Texts) > 0 {
		fmt.Fprintln(w)
		for i, t := range notes.Texts {
			fmt.Fprintf(w, "[%d] %s\n", i+1, t)
		}
	}
	if unverified {
		fmt.Fprintln(w, "\n"+UnverifiedMeaning)
	}
	if len(sel.Notes) > 0 {
		fmt.Fprintln(w, "\nnotes:")
		for _, n := range sel.Notes {
			fmt.Fprintf(w, "  - %s\n", n)
		}
	}
}

// UnverifiedMeaning says what "unverified" on a build means and what to do about it.
const UnverifiedMeaning = "unverified: what gpuwiz knows of that build was read from release notes and build scripts; " +
	"no install on such a machine has confirmed it yet. A verified build that fits is the safer choice; an unverified one usually works too."

func describeFacts(f matrix.Facts) string {
	parts := []string{f.OS}
	switch {
	case f.NoGPU:
		parts = append(parts, "no GPU")
	case f.DriverVersion == "" && f.CUDAMax == "":
		parts = append(parts, "no NVIDIA driver")
	default:
		d := "driver " + orUnknown(f.DriverVersion)
		if f.CUDAMax != "" {
			d += " (CUDA " + f.CUDAMax + ")"
		}
		parts = append(parts, d)
		if len(f.ComputeCaps) > 0 {
			parts = append(parts, "compute capability "+strings.Join(f.ComputeCaps, ", "))
		}
	}
	py := "Python " + orUnknown(f.PythonVersion)
	if f.PythonBits != 0 {
		py += fmt.Sprintf(" %d-bit", f.PythonBits)
	}
	return strings.Join(append(parts, py), ", ")
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

func channelText(c matrix.Candidate) string {
	if c.Channel == "cpu" {
		return "cpu"
	}
	s := c.Channel + ", CUDA " + c.CUDA
	if c.MinorCompat {
		s += " via minor-version compatibility"
	}
	return s
}

func requirements(c matrix.Candidate) string {
	var reqs []string
	for _, p := range c.Packages {
		reqs = append(reqs, p.Requirement()+p.LocalLabel)
	}
	return strings.Join(reqs, " ")
}
