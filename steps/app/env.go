package app

import (
	"context"
	"sync"
	"time"

	"gpuwiz/matrix"
	"gpuwiz/steps/gpu"
	"gpuwiz/steps/i18n"
	"gpuwiz/steps/jsonfile"
	"gpuwiz/steps/netproxy"
	"gpuwiz/steps/sources"
	"gpuwiz/steps/words"
)

// Globals are the settings every run shares: the global flags of the commands, handed to the wizard too.
type Globals struct {
	MatrixFile   string // --matrix: replaces the embedded matrix
	SourcesFile  string // --sources: replaces the embedded list of package sources (mirrors)
	SimulateFile string // --simulate: a GPU report (gpuwiz gpu --json) used instead of probing
	NoColor      bool
	ASCII        bool
}

// Env is the environment of one gpuwiz run: the matrix, the package sources and the GPU report, each
// read once on first use and shared by every command and screen of the run. Build one with
// &Env{G: &globals}; do not copy it.
type Env struct {
	G *Globals
	// OnSimulate hears what the run does with the --simulate file, for a command to say on its error
	// stream: the file's unknown fields when it is read, its report's first use (the one-line
	// SIMULATED banner). nil (the wizard, which says it on screen, and `gpu`, which says it in its
	// output) says nothing.
	OnSimulate func(SimulateNotice)

	matrixOnce sync.Once
	matrix     *matrix.Matrix
	matrixErr  error

	sourcesOnce sync.Once
	sources     *sources.List
	sourcesErr  error

	netMu sync.Mutex
	nets  map[string]*netproxy.Resolver // by the target Python's sys.prefix

	probeMu sync.Mutex
	prober  gpu.Prober
	proberE error
	report  *gpu.Report
	reportE error
}

// SimulateNotice is one thing the run does with the --simulate file (Env.OnSimulate).
type SimulateNotice struct {
	File string
	// Unknown is the file's fields gpuwiz does not know, in jsonfile's words; "" : the report is
	// used for the first time.
	Unknown string
}

// Simulated reports whether the GPU facts come from a --simulate file.
func (e *Env) Simulated() bool { return e.G.SimulateFile != "" }

// Matrix returns the version matrix: the --matrix file when given, else the embedded one. A bad
// --matrix file is a usage error (exit 2) naming the file and line.
func (e *Env) Matrix() (*matrix.Matrix, error) {
	e.matrixOnce.Do(func() {
		if e.G.MatrixFile == "" {
			e.matrix, e.matrixErr = matrix.Embedded()
			if e.matrixErr != nil {
				e.matrixErr = Exitf(ExitFailure, "%s", i18n.T("cli.matrix.embedded_broken", i18n.D{"Err": e.matrixErr}))
			}
			return
		}
		e.matrix, e.matrixErr = matrix.LoadFile(e.G.MatrixFile)
		if e.matrixErr != nil {
			e.matrixErr = Usagef("--matrix: %v", e.matrixErr)
		}
	})
	return e.matrix, e.matrixErr
}

// Sources returns the list of package sources: the --sources file when given, else the embedded
// one. A bad --sources file is a usage error (exit 2) naming the file and line.
func (e *Env) Sources() (*sources.List, error) {
	e.sourcesOnce.Do(func() {
		e.sources, e.sourcesErr = sources.LoadFile(e.G.SourcesFile)
		switch {
		case e.sourcesErr != nil && e.G.SourcesFile == "":
			e.sourcesErr = Exitf(ExitFailure, "%s", i18n.T("cli.sources.embedded_broken", i18n.D{"Err": e.sourcesErr}))
		case e.sourcesErr != nil:
			e.sourcesErr = Usagef("--sources: %v", e.sourcesErr)
		}
	})
	return e.sources, e.sourcesErr
}

// Net is the run's proxy rules and HTTP client for requests made for the Python whose sys.prefix is
// prefix ("" when there is none: the user's and global pip configuration only): the one
// netproxy.ForPip of the run for that Python, which every request of the run goes by.
func (e *Env) Net(prefix string) *netproxy.Resolver {
	e.netMu.Lock()
	defer e.netMu.Unlock()
	if e.nets[prefix] == nil {
		if e.nets == nil {
			e.nets = map[string]*netproxy.Resolver{}
		}
		e.nets[prefix] = netproxy.ForPip(prefix, nil)
	}
	return e.nets[prefix]
}

// processStart is taken at package init, a few ms after the process starts: the base of the
// "since start" timing.
var processStart = time.Now()

// GPUProber is the prober behind GPUReport: the --simulate file's (with made-up live readings) or the
// real probe chain. Use it for live samples (gpu.NewSampler). A bad --simulate file is a usage error.
func (e *Env) GPUProber() (gpu.Prober, error) {
	e.probeMu.Lock()
	defer e.probeMu.Unlock()
	return e.proberLocked()
}

func (e *Env) proberLocked() (gpu.Prober, error) {
	if e.prober == nil && e.proberE == nil {
		if e.G.SimulateFile != "" {
			p, err := gpu.FromFile(e.G.SimulateFile)
			if err != nil {
				e.proberE = Usagef("--simulate: %v", err)
			} else if w := jsonfile.Warning(e.G.SimulateFile, gpu.UnknownFields(p)); w != "" && e.OnSimulate != nil {
				e.OnSimulate(SimulateNotice{File: e.G.SimulateFile, Unknown: w})
			}
			e.prober = p
		} else {
			e.prober = gpu.Default()
		}
	}
	return e.prober, e.proberE
}

// GPUReport returns the GPU facts every command uses: the --simulate file when given (Simulated
// true), else the probe chain (NVML, nvidia-smi, or a plain "no NVIDIA driver" report). Read once per Env.
func (e *Env) GPUReport(ctx context.Context) (gpu.Report, error) {
	e.probeMu.Lock()
	defer e.probeMu.Unlock()
	if e.report != nil || e.reportE != nil {
		return copyReport(e.report), e.reportE
	}
	p, err := e.proberLocked()
	if err != nil {
		return gpu.Report{}, err
	}
	r, err := p.Probe(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return gpu.Report{}, err // interrupted: do not keep
		}
		e.reportE = err
		return gpu.Report{}, err
	}
	if r.Simulated && e.OnSimulate != nil {
		e.OnSimulate(SimulateNotice{File: e.G.SimulateFile})
	}
	if r.Timings != nil {
		r.Timings.SinceStartMS = float64(time.Since(processStart).Microseconds()) / 1000
	}
	e.report = &r
	return copyReport(e.report), nil
}

func copyReport(r *gpu.Report) gpu.Report {
	if r == nil {
		return gpu.Report{}
	}
	out := *r
	if r.GPUs != nil {
		out.GPUs = append([]gpu.GPU{}, r.GPUs...)
	}
	if r.Warnings != nil {
		out.Warnings = append([]string{}, r.Warnings...)
	}
	if r.Timings != nil {
		t := *r.Timings
		out.Timings = &t
	}
	return out
}

// FillGPUFacts takes the GPU facts f leaves out from the GPU report (or the --simulate file); the
// notes say which card gave no usable compute capability.
func (e *Env) FillGPUFacts(ctx context.Context, f *matrix.Facts) ([]words.Note, error) {
	rep, err := e.GPUReport(ctx)
	if err != nil {
		return nil, err
	}
	if !rep.Available {
		return cardWithoutDriver(rep, f), nil
	}
	var notes []words.Note
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
				notes = append(notes, words.Note{Code: words.NoteNoComputeCap, Index: g.Index, Name: g.Name})
			}
		}
	}
	return notes, nil
}

// cardWithoutDriver takes the compute capabilities of the NVIDIA cards the PCI bus lists when no
// driver answered, so the builds are judged for the card with the driver each needs.
func cardWithoutDriver(rep gpu.Report, f *matrix.Facts) []words.Note {
	if f.DriverVersion != "" || f.CUDAMax != "" || len(f.ComputeCaps) > 0 {
		return nil
	}
	var notes []words.Note
	for _, a := range rep.Adapters {
		if matrix.ValidateComputeCap(a.ComputeCapability) == nil {
			f.ComputeCaps = append(f.ComputeCaps, a.ComputeCapability)
			notes = append(notes, words.Note{Code: words.NoteCardWithoutDriver, Card: a.Label()})
		}
	}
	f.DriverMissing = len(f.ComputeCaps) > 0
	return notes
}

// ForgetGPUReport drops the report read so far: the next GPUReport probes again (after a driver
// install, the new driver answers).
func (e *Env) ForgetGPUReport() {
	e.probeMu.Lock()
	defer e.probeMu.Unlock()
	e.report, e.reportE = nil, nil
}
