package app

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/go-version"

	"gpuwiz/matrix"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/words"
)

// ChannelsRequest asks which builds suit a machine: the facts given (the channels command's flags),
// those left empty learned from this machine (the GPU report or --simulate, the first Python found).
type ChannelsRequest struct {
	Facts   matrix.Facts // Framework, FrameworkVersion, OS, DriverVersion, CUDAMax, ComputeCaps, PythonVersion, PythonBits, NoGPU
	OSGiven bool         // Facts.OS was given, not this machine's
}

// SelectChannels checks the facts given, fills the rest from this machine and asks the matrix for
// every build with why it suits or not; the notes say what was assumed or could not be learned
// (the front end says them before the selection's own). A fact that is no valid value, or a
// framework version the matrix does not know, is a usage error naming its flag.
func (e *Env) SelectChannels(ctx context.Context, req ChannelsRequest) (matrix.Selection, []words.Note, error) {
	facts, notes, err := e.channelFacts(ctx, req)
	if err != nil {
		return matrix.Selection{}, nil, err
	}
	m, err := e.Matrix()
	if err != nil {
		return matrix.Selection{}, nil, err
	}
	sel := m.Select(facts)
	if len(sel.Candidates) == 0 && facts.FrameworkVersion != "" {
		// Not a machine problem (exit 3) but a version the matrix does not know: say which it knows.
		return sel, notes, Usagef("--framework-version %s: %s", facts.FrameworkVersion, lastOf(append(words.Texts(notes), sel.Notes...)))
	}
	return sel, notes, nil
}

// lastOf is the last of notes.
func lastOf(notes []string) string { return notes[len(notes)-1] }

// channelFacts checks the facts given and fills what they leave out from this machine. The notes
// say what was assumed or could not be learned.
func (e *Env) channelFacts(ctx context.Context, req ChannelsRequest) (matrix.Facts, []words.Note, error) {
	f, osGiven := req.Facts, req.OSGiven
	notes := []words.Note{}
	if !slices.Contains(matrix.Frameworks(), f.Framework) {
		return matrix.Facts{}, nil, Usagef("%s", i18n.T("cli.bad_framework", i18n.D{"Value": strconv.Quote(f.Framework)}))
	}
	if e.G.SimulateFile != "" {
		rep, err := e.GPUReport(ctx)
		if err != nil {
			return matrix.Facts{}, nil, err
		}
		f.Simulated = true
		// A rig file made on Windows is judged as Windows: driver minimums and builds differ per OS.
		if !osGiven && rep.OS != "" && rep.OS != f.OS {
			f.OS = rep.OS
			notes = append(notes, words.Note{Code: words.NoteSimulatedOS, OS: rep.OS})
		}
	}
	if f.OS != "windows" && f.OS != "linux" {
		if !osGiven {
			return matrix.Facts{}, nil, Usagef("%s", i18n.T("cli.channels.os_has_no_builds", i18n.D{"OS": f.OS}))
		}
		return matrix.Facts{}, nil, Usagef("%s", i18n.T("cli.channels.bad_os", i18n.D{"Value": strconv.Quote(f.OS)}))
	}
	if v := f.FrameworkVersion; v != "" {
		if _, err := version.NewVersion(v); err != nil || strings.Count(v, ".") > 2 {
			return matrix.Facts{}, nil, Usagef("%s", i18n.T("cli.channels.bad_framework_version", i18n.D{"Value": strconv.Quote(v)}))
		}
	}
	if f.DriverVersion != "" {
		if err := matrix.ValidateDriverVersion(f.DriverVersion); err != nil {
			return matrix.Facts{}, nil, Usagef("--driver: %v", err)
		}
	}
	if f.CUDAMax != "" {
		if err := matrix.ValidateCUDAVersion(f.CUDAMax); err != nil {
			return matrix.Facts{}, nil, Usagef("--cuda-max: %v", err)
		}
	}
	for _, c := range f.ComputeCaps {
		if err := matrix.ValidateComputeCap(c); err != nil {
			return matrix.Facts{}, nil, Usagef("--compute-cap: %v", err)
		}
	}
	if f.PythonVersion != "" {
		if err := matrix.ValidatePythonVersion(f.PythonVersion); err != nil {
			return matrix.Facts{}, nil, Usagef("--python: %v", err)
		}
	}
	if f.PythonBits != 0 && f.PythonBits != 32 && f.PythonBits != 64 {
		return matrix.Facts{}, nil, Usagef("%s", i18n.T("cli.channels.bad_python_bits", i18n.D{"Value": f.PythonBits}))
	}
	if f.NoGPU && len(f.ComputeCaps) > 0 {
		notes = append(notes, words.Note{Code: words.NoteNoGPUCaps})
	}
	if !f.NoGPU && (f.DriverVersion == "" || f.CUDAMax == "" || len(f.ComputeCaps) == 0) {
		more, err := e.FillGPUFacts(ctx, &f)
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

// fillPythonFacts takes the Python version (and bits) from the first interpreter found.
func fillPythonFacts(ctx context.Context, f *matrix.Facts) []words.Note {
	found, err := pyenv.Discover(ctx, pyenv.DiscoverOptions{})
	if err != nil || len(found) == 0 {
		return []words.Note{{Code: words.NoteNoPython}}
	}
	in := found[0]
	if f.PythonVersion == "" && matrix.ValidatePythonVersion(in.Version) == nil {
		f.PythonVersion = in.Version
		if f.PythonBits == 0 && (in.Bits == 32 || in.Bits == 64) {
			f.PythonBits = in.Bits
		}
		return []words.Note{{Code: words.NotePython, Version: in.Version, Bits: in.Bits, Path: in.Path}}
	}
	return nil
}
