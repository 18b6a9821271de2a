package pyenv

import (
	"context"
	_ "embed"
	"encoding/json"
	"slices"
	"sort"
	"strings"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pep"
	"gpuwiz/steps/runner"
)

//go:embed inspect.py
var inspectScript string

// Dist is one installed distribution.
type Dist struct {
	Name       string `json:"name"`
	Version    string `json:"version"`     // full version, local label included: "2.6.0+cu126"
	LocalLabel string `json:"local_label"` // "+cu126", "+cpu" or ""
	Location   string `json:"location"`
}

// Installed is what a Python environment holds now.
type Installed struct {
	Python          Interpreter `json:"python"`
	SitePackages    []string    `json:"site_packages"`
	Dists           []Dist      `json:"dists"`
	Leftovers       []string    `json:"leftovers"` // "~orch"-style dirs an interrupted uninstall left in site-packages
	PipVersion      string      `json:"pip_version"`
	TorchFamily     []Dist      `json:"torch_family"`      // torch, torchvision, torchaudio
	PaddleDists     []Dist      `json:"paddle_dists"`      // paddlepaddle and/or paddlepaddle-gpu
	PaddleDirOrphan bool        `json:"paddle_dir_orphan"` // a paddle/ dir that no installed dist owns
	// The scheme the interpreter reports (sysconfig): where pip installs, whatever the layout.
	Purelib string `json:"purelib,omitempty"`
	Platlib string `json:"platlib,omitempty"`
	Scripts string `json:"scripts,omitempty"`
	// SiteOffPath: purelib is not on the interpreter's sys.path (an embedded Python whose ._pth
	// lacks `import site`): what is installed there is not imported.
	SiteOffPath bool `json:"site_off_path,omitempty"`
	// ExternallyManaged: PEP 668's EXTERNALLY-MANAGED marks a Python the OS's package manager owns.
	ExternallyManaged bool `json:"externally_managed,omitempty"`
}

// Dist finds an installed dist by name (PEP 503 normalised).
func (in Installed) Dist(name string) (Dist, bool) {
	n := pep.Normalize(name)
	for _, d := range in.Dists {
		if pep.Normalize(d.Name) == n {
			return d, true
		}
	}
	return Dist{}, false
}

// Held says which framework the environment holds (torch before Paddle), by its installed dists.
func (in Installed) Held() pep.Held {
	return pep.HeldFramework(func(name string) (string, bool) {
		d, ok := in.Dist(name)
		return d.Version, ok
	})
}

type inspectDoc struct {
	description
	SitePackages      []string `json:"site_packages"`
	Dists             []Dist   `json:"dists"`
	Leftovers         []string `json:"leftovers"`
	PipVersion        string   `json:"pip_version"`
	PaddleDir         bool     `json:"paddle_dir"`
	PaddleDirOwners   []string `json:"paddle_dir_owners"`
	Purelib           string   `json:"purelib"`
	Platlib           string   `json:"platlib"`
	Scripts           string   `json:"scripts"`
	SiteOnPath        *bool    `json:"site_on_path"`
	ExternallyManaged bool     `json:"externally_managed"`
}

// Inspect runs the embedded inspect.py in python (never importing torch or paddle) and reports
// its dists, the torch family, the Paddle dists, leftovers and pip's version.
func Inspect(ctx context.Context, r runner.Runner, python string) (Installed, error) {
	out, res := capture(ctx, r, runner.Cmd{Name: i18n.T("pyenv.label.inspect"), Argv: []string{python, "-I", "-c", inspectScript}})
	if res.Err != nil {
		return Installed{}, i18n.Wrap(res.Err, i18n.T("pyenv.inspect.failed", i18n.D{"Python": python, "Err": res.Err, "Tail": tailNote(res)}))
	}
	var doc inspectDoc
	if err := json.Unmarshal([]byte(jsonDocument(out)), &doc); err != nil {
		return Installed{}, i18n.Wrap(err, i18n.T("pyenv.inspect.unreadable", i18n.D{"Python": python, "Err": err}))
	}
	return installedFrom(doc, python, goosRuntime), nil
}

func installedFrom(doc inspectDoc, python, goos string) Installed {
	in := Installed{
		Python:       Interpreter{Path: doc.Executable, Version: doc.Version, Bits: doc.Bits, Prefix: doc.Prefix, Source: "flag"},
		SitePackages: doc.SitePackages,
		Leftovers:    doc.Leftovers,
		PipVersion:   doc.PipVersion,
		Purelib:      doc.Purelib, Platlib: doc.Platlib, Scripts: doc.Scripts,
		SiteOffPath:       doc.SiteOnPath != nil && !*doc.SiteOnPath,
		ExternallyManaged: doc.ExternallyManaged,
	}
	if in.Python.Path == "" {
		in.Python.Path = python
	}
	in.Python.Kind = classify(in.Python.Path, doc.description, goos)
	for _, d := range doc.Dists {
		d.LocalLabel = pep.LocalLabel(d.Version)
		in.Dists = append(in.Dists, d)
	}
	sort.Slice(in.Dists, func(i, j int) bool { return pep.Normalize(in.Dists[i].Name) < pep.Normalize(in.Dists[j].Name) })
	for _, d := range in.Dists {
		n := pep.Normalize(d.Name)
		if slices.Contains(pep.TorchFamily, n) {
			in.TorchFamily = append(in.TorchFamily, d)
		}
		if slices.Contains(pep.PaddleDists, n) {
			in.PaddleDists = append(in.PaddleDists, d)
		}
	}
	in.PaddleDirOrphan = doc.PaddleDir && len(doc.PaddleDirOwners) == 0
	return in
}

// jsonDocument is stdout from its first "{" on (inspect.py prints one indented document).
func jsonDocument(out string) string {
	if i := strings.Index(out, "{"); i >= 0 {
		return out[i:]
	}
	return out
}
