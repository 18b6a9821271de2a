package pyenv

import (
	"context"
	_ "embed"
	"encoding/json"
	"sort"
	"strings"

	"gpuwiz/steps/i18n"
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
}

// Dist finds an installed dist by name (PEP 503 normalised).
func (in Installed) Dist(name string) (Dist, bool) {
	n := NormalizeName(name)
	for _, d := range in.Dists {
		if NormalizeName(d.Name) == n {
			return d, true
		}
	}
	return Dist{}, false
}

// TorchFamilyNames and PaddleNames are the dists that conflict within each framework.
var (
	TorchFamilyNames = []string{"torch", "torchvision", "torchaudio"}
	PaddleNames      = []string{"paddlepaddle", "paddlepaddle-gpu"}
)

type inspectDoc struct {
	description
	SitePackages    []string `json:"site_packages"`
	Dists           []Dist   `json:"dists"`
	Leftovers       []string `json:"leftovers"`
	PipVersion      string   `json:"pip_version"`
	PaddleDir       bool     `json:"paddle_dir"`
	PaddleDirOwners []string `json:"paddle_dir_owners"`
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
	}
	if in.Python.Path == "" {
		in.Python.Path = python
	}
	in.Python.Kind = classify(in.Python.Path, doc.description, goos)
	for _, d := range doc.Dists {
		d.LocalLabel = LocalLabel(d.Version)
		in.Dists = append(in.Dists, d)
	}
	sort.Slice(in.Dists, func(i, j int) bool { return NormalizeName(in.Dists[i].Name) < NormalizeName(in.Dists[j].Name) })
	for _, d := range in.Dists {
		n := NormalizeName(d.Name)
		if contains(TorchFamilyNames, n) {
			in.TorchFamily = append(in.TorchFamily, d)
		}
		if contains(PaddleNames, n) {
			in.PaddleDists = append(in.PaddleDists, d)
		}
	}
	in.PaddleDirOrphan = doc.PaddleDir && len(doc.PaddleDirOwners) == 0
	return in
}

// LocalLabel is the "+cu126" part of a version, or "".
func LocalLabel(version string) string {
	if i := strings.IndexByte(version, '+'); i >= 0 {
		return version[i:]
	}
	return ""
}

// NormalizeName is PEP 503's project name normalisation: runs of -_. become -, lower case.
func NormalizeName(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if r == '-' || r == '_' || r == '.' {
			if !dash {
				b.WriteByte('-')
			}
			dash = true
			continue
		}
		dash = false
		b.WriteRune(r)
	}
	return b.String()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// jsonDocument is stdout from its first "{" on (inspect.py prints one indented document).
func jsonDocument(out string) string {
	if i := strings.Index(out, "{"); i >= 0 {
		return out[i:]
	}
	return out
}
