package doctor

import (
	"gpuwiz/matrix"
	"gpuwiz/steps/gpu"
	"gpuwiz/steps/install"
	"gpuwiz/steps/keep"
	"gpuwiz/steps/pep"
	"gpuwiz/steps/pyenv"
)

// Evidence is everything doctor collected about one environment; every check is a pure function of it.
type Evidence struct {
	GOOS string
	Venv string // venv root; "" when only a Python was named
	// Active: this environment is the one the user's shell has active (VIRTUAL_ENV or CONDA_PREFIX
	// names the venv; for a bare Python, it is the python on PATH), so `pip` typed there is meant
	// for it.
	Active bool
	// Env is the environment's kind as its files tell it (pyenv.DetectLayout): venv, conda,
	// embedded, prefix, with uv's version and an embedded Python's ._pth.
	Env pyenv.Layout
	// UV: uv made the environment or is on PATH (it reads none of pip's protection).
	UV     *UVFacts
	Python PythonFacts
	// Installed distributions, read from the metadata without importing anything.
	Dists     []Dist
	Leftovers []string // "~orch" style directories left by an interrupted pip uninstall
	// MissingFiles: files the build's dists (framework, CUDA libraries) list in RECORD and the disk lacks.
	MissingFiles []MissingFiles
	// RecordOutside: the build's dists whose RECORD names files outside the environment.
	RecordOutside []RecordOutside
	// CondaConflicts: in a conda env, what conda itself installed that fights the framework's pip
	// wheels (a conda pytorch, cudatoolkit …), one sentence each with the command that removes it.
	CondaConflicts  []string
	PaddleDirOrphan string // a paddle/ directory with no distribution owning it
	SitePackages    string
	Framework       FrameworkCheck
	GPU             gpu.Report
	GPUError        string
	Lock            *LockedBuild
	Interrupted     *install.Interrupted // the venv's journal names a run that did not finish
	// Protection is what the venv's pip configuration and constraints.txt say about keeping the
	// build gpuwiz installed (nil when gpuwiz's requirements.lock is not there).
	Protection *Protection
	PipIndexes []IndexSetting
	PipOnPath  *PipOnPath
	DLLs       []DLLHit
	// CUDAVisibleDevices is nil when the variable is unset; "" when it is set but empty.
	CUDAVisibleDevices *string
	Registry           RegistryFacts
	// VCRuntimeCopies are the msvcp140.dll files in the folders the framework's DLLs search, in
	// that order; the first is the one that loads (Windows only).
	VCRuntimeCopies []RuntimeCopy
	Paths           []LabeledPath // paths whose characters matter (venv, Python, TEMP, pip cache)
	Matrix          *matrix.Matrix
	SelfPID         int
}

// PythonFacts describe the interpreter that runs the framework.
type PythonFacts struct {
	Path       string `json:"path"`
	Executable string `json:"executable,omitempty"` // sys.executable as Python reports it
	BasePrefix string `json:"base_prefix,omitempty"`
	Version    string `json:"version"` // "3.11.7"
	Bits       int    `json:"bits"`
	Kind       string `json:"kind,omitempty"` // "store", "python.org", "venv", ...
	Error      string `json:"error,omitempty"`
}

// Dist is one installed distribution as its metadata names it.
type Dist struct {
	Name       string `json:"name"`
	Version    string `json:"version"`     // public version, "2.8.0"
	LocalLabel string `json:"local_label"` // "+cu126", "+cpu", ""
	Location   string `json:"location,omitempty"`
}

// FrameworkCheck is what the framework's own check said (import, CUDA build, arch list, one computation).
type FrameworkCheck struct {
	Ran bool `json:"ran"`
	// Deferred: not run before a repair that reinstalls the build or puts back what an interrupted
	// install changed (the check would only import a build known to be incomplete); the check after
	// the repair runs it.
	Deferred         bool           `json:"deferred,omitempty"`
	Framework        string         `json:"framework,omitempty"` // "torch", "paddle"
	Version          string         `json:"version,omitempty"`   // __version__
	Imported         bool           `json:"imported"`
	ImportError      string         `json:"import_error,omitempty"`
	CUDA             string         `json:"cuda,omitempty"` // torch.version.cuda / paddle.version.cuda(); "" for a CPU build
	CompiledWithCUDA *bool          `json:"compiled_with_cuda,omitempty"`
	ArchList         []string       `json:"arch_list,omitempty"` // "sm_90", "compute_90"
	DeviceCount      *int           `json:"device_count,omitempty"`
	Checks           []CheckOutcome `json:"checks,omitempty"`
	Error            string         `json:"error,omitempty"` // the check could not run at all
}

// CheckOutcome is one step of the framework's own check.
type CheckOutcome struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail,omitempty"`
}

// LockedBuild is what gpuwiz's install engine wrote down next to the venv.
type LockedBuild struct {
	File      string `json:"file"`
	Framework string `json:"framework"` // "torch", "paddle"
	Package   string `json:"package"`   // "torch", "paddlepaddle-gpu"
	Version   string `json:"version"`   // "2.8.0"
	Label     string `json:"label"`     // "+cu126"; "" when the lock names none
	Channel   string `json:"channel"`   // "cu126"
}

// Protection is the venv's own defence of its build: gpuwiz's lines in pip's configuration and the
// lock's framework pins that constraints.txt lacks.
type Protection struct {
	Status      keep.Status `json:"status"`
	Constraints string      `json:"constraints"`       // the constraints file
	Missing     []string    `json:"missing,omitempty"` // lock pins the constraints file does not hold
	NoFile      bool        `json:"no_file,omitempty"` // the constraints file is gone
}

// IndexSetting is one place that adds or replaces pip's package index.
type IndexSetting struct {
	Where string `json:"where"` // "env PIP_EXTRA_INDEX_URL", or a config file path and its section
	Key   string `json:"key"`   // "extra-index-url", "index-url", "find-links"
	Value string `json:"value"`
}

// PipOnPath is the `pip` a user gets by typing pip, and the Python it installs into.
type PipOnPath struct {
	Path      string `json:"path"`
	Location  string `json:"location,omitempty"` // ".../site-packages/pip" from pip --version
	PythonVer string `json:"python_version,omitempty"`
	Error     string `json:"error,omitempty"`
}

// DLLHit is one CUDA, cuDNN or OpenMP runtime found in a directory the loader searches.
type DLLHit struct {
	Dir  string `json:"dir"`
	File string `json:"file"`
	From string `json:"from"` // "PATH", "CUDA_PATH", "LD_LIBRARY_PATH"
}

// RegistryFacts are the Windows settings doctor reads; Read is false off Windows or without a registry.
type RegistryFacts struct {
	Read               bool
	VCRuntimeFound     bool
	VCRuntimeKey       string
	VCRuntimeInstalled uint32
	VCRuntimeVersion   string
	LongPathsFound     bool
	LongPathsEnabled   uint32
	RegistryErrors     []string
}

// LabeledPath is one path and what it is.
type LabeledPath struct {
	Label string `json:"label"`
	Path  string `json:"path"`
}

// Dist returns the installed distribution with the given normalised name, or nil.
func (e *Evidence) Dist(name string) *Dist {
	for i := range e.Dists {
		if pep.Normalize(e.Dists[i].Name) == pep.Normalize(name) {
			return &e.Dists[i]
		}
	}
	return nil
}
