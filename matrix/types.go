// Package matrix is gpuwiz's embedded version matrix (matrix.toml) and the pure selection logic:
// machine facts in, every candidate build with its compatibility and reasons out.
package matrix

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
	Packages         []Package `json:"packages"`
	Compatible       bool      `json:"compatible"`
	MinorCompat      bool      `json:"minor_compat"` // runs only through CUDA minor-version compatibility
	Verified         bool      `json:"verified"`
	Note             string    `json:"note,omitempty"`
	Source           string    `json:"source,omitempty"`
	Reasons          []string  `json:"reasons"`
}

// Selection is the answer for one set of facts.
type Selection struct {
	Framework   string      `json:"framework"`
	Facts       Facts       `json:"facts"`
	Recommended *Candidate  `json:"recommended"`
	Candidates  []Candidate `json:"candidates"`
	Notes       []string    `json:"notes"`
}

// Matrix is the loaded, validated version matrix. Scaffold: its fields belong to the matrix work.
type Matrix struct{}
