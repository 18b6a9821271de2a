package doctor

import "gpuwiz/steps/install"

// Report is doctor's answer: the findings (most severe first), what was looked at, and the facts the
// repair planner needs, so RepairPlan works from the Report alone.
type Report struct {
	Findings        []Finding            `json:"findings"`
	Problems        int                  `json:"problems"` // errors + warnings; non-zero means exit code 5
	Checked         []string             `json:"checked"`  // in the guides' troubleshooting order
	GOOS            string               `json:"goos"`
	Venv            string               `json:"venv,omitempty"`
	Environment     string               `json:"environment,omitempty"` // its kind: venv, conda, embedded, prefix
	UV              *UVFacts             `json:"uv,omitempty"`
	Python          PythonFacts          `json:"python"`
	SitePackages    string               `json:"site_packages,omitempty"`
	PipVersion      string               `json:"pip_version,omitempty"`
	Framework       string               `json:"framework,omitempty"` // "torch", "paddle", "" when none
	Installed       []Dist               `json:"installed"`           // the framework families' distributions
	Lock            *LockedBuild         `json:"lock,omitempty"`
	Interrupted     *install.Interrupted `json:"interrupted,omitempty"` // a run the venv's journal says did not finish
	FrameworkCheck  FrameworkCheck       `json:"framework_check"`
	GPU             GPUSummary           `json:"gpu"`
	Leftovers       []string             `json:"leftovers,omitempty"`
	MissingFiles    []MissingFiles       `json:"missing_files,omitempty"`
	RecordOutside   []RecordOutside      `json:"record_outside,omitempty"`
	PaddleDirOrphan string               `json:"paddle_dir_orphan,omitempty"`
}

// GPUSummary is the part of the GPU report that matters for a diagnosis.
type GPUSummary struct {
	Available     bool      `json:"available"`
	Backend       string    `json:"backend"`
	DriverVersion string    `json:"driver_version,omitempty"`
	CUDAMax       string    `json:"cuda_max,omitempty"`
	Simulated     bool      `json:"simulated,omitempty"`
	Message       string    `json:"message,omitempty"`
	GPUs          []GPULine `json:"gpus"`
}

// GPULine is one card in a line.
type GPULine struct {
	Index             int    `json:"index"`
	Name              string `json:"name"`
	ComputeCapability string `json:"compute_capability"`
	MemoryTotalMiB    uint64 `json:"memory_total_mib"`
	MemoryUsedMiB     uint64 `json:"memory_used_mib"`
}

// HasCode reports whether a finding with code is in the report (any severity).
func (r Report) HasCode(code string) bool {
	return r.Finding(code) != nil
}

// Finding returns the first finding with code, or nil.
func (r Report) Finding(code string) *Finding {
	for i := range r.Findings {
		if r.Findings[i].Code == code {
			return &r.Findings[i]
		}
	}
	return nil
}

// familyDists are the distributions a report lists as installed.
var familyDists = []string{"torch", "torchvision", "torchaudio", "paddlepaddle", "paddlepaddle-gpu"}
