// Package matrix is gpuwiz's embedded version matrix (matrix.toml) and the pure selection logic:
// machine facts in, every candidate build with its compatibility and reasons out.
package matrix

import (
	"github.com/hashicorp/go-version"

	"gpuwiz/steps/i18n"
)

// Facts describe the machine a build is chosen for. Empty fields are unknown.
type Facts struct {
	Framework        string   `json:"framework"`                   // "torch" or "paddle"
	FrameworkVersion string   `json:"framework_version,omitempty"` // "2.6" or "2.6.0": only this version
	OS               string   `json:"os"`                          // "windows" or "linux"
	DriverVersion    string   `json:"driver_version,omitempty"`    // "566.36"
	CUDAMax          string   `json:"cuda_max,omitempty"`          // highest CUDA the driver supports, "12.7"
	ComputeCaps      []string `json:"compute_caps,omitempty"`      // one per GPU that will be used, "8.6"
	PythonVersion    string   `json:"python_version,omitempty"`    // "3.12"
	PythonBits       int      `json:"python_bits,omitempty"`       // 64, 32, or 0 when unknown
	NoGPU            bool     `json:"no_gpu,omitempty"`
	// DriverMissing says an NVIDIA card is there (ComputeCaps known from its PCI id) but no driver
	// runs it yet: GPU builds are judged as if a driver were installed and each says the driver it needs.
	DriverMissing bool `json:"driver_missing,omitempty"`
	Simulated     bool `json:"simulated,omitempty"` // the GPU facts came from a --simulate file
}

// Package is one distribution of a build with its exact version ("torch", "2.6.0", "+cu126").
type Package struct {
	Name       string `json:"name"`
	Version    string `json:"version"`
	LocalLabel string `json:"local_label,omitempty"` // "+cu126" as seen in __version__; "" when none
	Optional   bool   `json:"optional,omitempty"`    // install when the index has it (torchaudio on cu132)
}

// Requirement is the pip requirement string for p: "torch==2.6.0".
func (p Package) Requirement() string { return p.Name + "==" + p.Version }

// Candidate is one framework version on one channel, judged against the facts.
type Candidate struct {
	Framework        string    `json:"framework"`
	FrameworkVersion string    `json:"framework_version"`
	Channel          string    `json:"channel"` // "cu126", "cpu"
	CUDA             string    `json:"cuda"`    // "12.6"; "" for cpu
	CUDNN            string    `json:"cudnn,omitempty"`
	IndexURL         string    `json:"index_url"`
	OS               []string  `json:"os"`         // where the channel exists: the build's list, else the release's
	PythonMin        string    `json:"python_min"` // the release's Python range, "3.10"
	PythonMax        string    `json:"python_max"`
	Packages         []Package `json:"packages"`
	Compatible       bool      `json:"compatible"`
	MinorCompat      bool      `json:"minor_compat"` // runs only through CUDA minor-version compatibility
	Verified         bool      `json:"verified"`
	// Note is what the row means for the user, in plain sentences (NoteParts joined).
	Note string `json:"note,omitempty"`
	// Source lists the public references behind the row (repository + path, PR or issue numbers, URLs).
	Source  string   `json:"source,omitempty"`
	Reasons []string `json:"reasons"`
	// NoteParts are the texts Note joins (the release's note, the build's, what the judge added),
	// kept apart so a list can print a text several rows share once.
	NoteParts []string `json:"-"`
}

// Selection is the answer for one set of facts.
type Selection struct {
	Framework   string      `json:"framework"`
	Facts       Facts       `json:"facts"`
	Recommended *Candidate  `json:"recommended"`
	Candidates  []Candidate `json:"candidates"`
	Notes       []string    `json:"notes"`
	// WithDriver is, when DriverMissing, the build gpuwiz would recommend once NVIDIA's driver is
	// installed, and DriverNeeded the driver that build needs on this OS.
	WithDriver   *Candidate `json:"with_driver,omitempty"`
	DriverNeeded string     `json:"driver_needed,omitempty"`
	// AlsoFits is the unverified build that fits and is better than the recommendation (a newer
	// release, or a GPU build where a CPU one is recommended): offered, not recommended. Notes says
	// so in AlsoFitsNote's words.
	AlsoFits *Candidate `json:"also_fits,omitempty"`
}

// IsAlsoFitsNote says whether note n is the one that offers AlsoFits.
func (s Selection) IsAlsoFitsNote(n string) bool {
	return s.AlsoFits != nil && n == AlsoFitsNote(s.Framework, *s.AlsoFits)
}

// Matrix is the loaded, validated version matrix (matrix.toml or a --matrix file).
type Matrix struct {
	Name   string    `toml:"-" json:"-"` // file name, for messages
	Schema int       `toml:"schema" json:"schema"`
	CUDA   []CUDARow `toml:"cuda" json:"cuda"`
	Torch  []Release `toml:"torch" json:"torch"`
	Paddle []Release `toml:"paddle" json:"paddle"`
	// Windows is what ranges of releases need of a Windows machine (VC++ runtime, path depth).
	Windows []WindowsRow `toml:"windows_runtime" json:"windows_runtime,omitempty"`

	cudaRows map[string]*CUDARow // by version, set by prepare
}

// CUDARow is what NVIDIA's driver needs for one CUDA version, per OS.
type CUDARow struct {
	Version string `toml:"version" json:"version"` // "12.6"
	// Minor-version compatibility: any driver at or above this runs every CUDA build of the same major.
	MinorCompatLinux   string `toml:"minor_compat_linux" json:"minor_compat_linux"`
	MinorCompatWindows string `toml:"minor_compat_windows" json:"minor_compat_windows"`
	// The driver shipped with the full toolkit; "" when not recorded.
	FullLinux   string `toml:"full_linux" json:"full_linux,omitempty"`
	FullWindows string `toml:"full_windows" json:"full_windows,omitempty"`
	// The newest compute capability this CUDA version can build kernels for; judges builds without an arch list.
	MaxComputeCap string `toml:"max_compute_cap" json:"max_compute_cap"`
	// The oldest compute capability it can build kernels for ("" not recorded); the same use.
	MinComputeCap string `toml:"min_compute_cap" json:"min_compute_cap,omitempty"`
	Source        string `toml:"source" json:"source,omitempty"` // public references only
	Verified      bool   `toml:"verified" json:"verified"`
	Note          string `toml:"note" json:"note,omitempty"`       // one plain sentence for the user
	NoteZh        string `toml:"note_zh" json:"note_zh,omitempty"` // the same in Simplified Chinese ("" none: the English is shown)
}

// LocalNote is the row's note in the current language: note_zh in Chinese when the file has one,
// else note.
func (r CUDARow) LocalNote() string { return i18n.Local(r.Note, r.NoteZh) }

// Release is one framework version with its builds (one per channel).
type Release struct {
	Version     string   `toml:"version" json:"version"` // exact: "2.6.0"
	PythonMin   string   `toml:"python_min" json:"python_min"`
	PythonMax   string   `toml:"python_max" json:"python_max"`
	OS          []string `toml:"os" json:"os"`
	Torchvision string   `toml:"torchvision" json:"torchvision,omitempty"`
	Torchaudio  string   `toml:"torchaudio" json:"torchaudio,omitempty"`
	// Channels whose index may lack this torchaudio: installed only when present.
	TorchaudioOptional []string `toml:"torchaudio_optional" json:"torchaudio_optional,omitempty"`
	Source             string   `toml:"source" json:"source,omitempty"` // public references only
	Verified           bool     `toml:"verified" json:"verified"`
	Note               string   `toml:"note" json:"note,omitempty"`       // one plain sentence for the user
	NoteZh             string   `toml:"note_zh" json:"note_zh,omitempty"` // the same in Simplified Chinese ("" none: the English is shown)
	Builds             []Build  `toml:"build" json:"builds"`

	parsed *version.Version // set by prepare
}

// Build is one channel of a release.
type Build struct {
	Channel  string `toml:"channel" json:"channel"` // "cu126", "cpu"
	CUDA     string `toml:"cuda" json:"cuda,omitempty"`
	CUDNN    string `toml:"cudnn" json:"cudnn,omitempty"`
	IndexURL string `toml:"index_url" json:"index_url"`
	// Where this channel exists, when not on every OS of the release (cu129 on Linux only): a subset of
	// the release's os list. Empty: the release's list.
	OS []string `toml:"os" json:"os,omitempty"`
	// Compute capabilities with kernels in the wheel; "12.0+PTX" also carries PTX for newer GPUs. Empty: not recorded.
	ArchLinux   []string `toml:"arch_linux" json:"arch_linux,omitempty"`
	ArchWindows []string `toml:"arch_windows" json:"arch_windows,omitempty"`
	// The lowest compute capability the framework supports on that OS ("" none).
	MinComputeCapLinux   string `toml:"min_compute_cap_linux" json:"min_compute_cap_linux,omitempty"`
	MinComputeCapWindows string `toml:"min_compute_cap_windows" json:"min_compute_cap_windows,omitempty"`
	// The newest compute capability the wheels have kernels for, when reports from the field say so but
	// no full arch list is recorded ("" none): a newer GPU is refused.
	MaxComputeCap string `toml:"max_compute_cap" json:"max_compute_cap,omitempty"`
	Source        string `toml:"source" json:"source,omitempty"` // public references only
	Verified      bool   `toml:"verified" json:"verified"`
	// Systems on which this build is not confirmed although verified is true elsewhere (the Windows arch
	// list of a build confirmed on Linux); its note says why. Empty: verified holds on every system.
	UnverifiedOS []string `toml:"unverified_os" json:"unverified_os,omitempty"`
	Note         string   `toml:"note" json:"note,omitempty"`       // one plain sentence for the user
	NoteZh       string   `toml:"note_zh" json:"note_zh,omitempty"` // the same in Simplified Chinese ("" none: the English is shown)
	// The systems the note speaks of ("linux", "windows"; empty: every system): elsewhere it is not
	// shown, as it says nothing about the user's machine.
	NoteOS []string `toml:"note_os" json:"note_os,omitempty"`

	cuda  majorMinor // set by prepare
	archs map[string][]arch
}
