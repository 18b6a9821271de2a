package doctor

import (
	"context"
	"strings"

	"gpuwiz/steps/pep"
	"gpuwiz/steps/pyenv"
	"gpuwiz/steps/runner"
)

// inspectWithPyenv reads the environment through pyenv.Inspect, which never imports a framework.
func inspectWithPyenv(ctx context.Context, r runner.Runner, python string) (Inspection, error) {
	in, err := pyenv.Inspect(ctx, r, python)
	if err != nil {
		return Inspection{Python: PythonFacts{Path: python}}, err
	}
	return inspectionFrom(in, python), nil
}

func inspectionFrom(in pyenv.Installed, python string) Inspection {
	out := Inspection{
		Python: PythonFacts{Path: python, Executable: in.Python.Path, Version: in.Python.Version,
			Bits: in.Python.Bits, Kind: in.Python.Kind},
		Leftovers:  in.Leftovers,
		PipVersion: in.PipVersion,
		Prefix:     in.Python.Prefix,
	}
	if len(in.SitePackages) > 0 {
		out.SitePackages = in.SitePackages[0]
	}
	for _, d := range in.Dists {
		public, label := pep.Public(d.Version), pep.LocalLabel(d.Version)
		if label == "" {
			label = d.LocalLabel
		}
		out.Dists = append(out.Dists, Dist{Name: d.Name, Version: public, LocalLabel: label, Location: d.Location})
	}
	if in.PaddleDirOrphan && out.SitePackages != "" {
		out.PaddleDirOrphan = joinFor(goosOfPath(out.SitePackages), out.SitePackages, "paddle")
	}
	return out
}

// goosOfPath guesses the separator style of a path reported by Python.
func goosOfPath(p string) string {
	if strings.Contains(p, `\`) {
		return "windows"
	}
	return "linux"
}

// venvHome reads pyvenv.cfg's home: the base interpreter's directory (a Store Python shows there).
func venvHome(fsys FS, goos, venv string) string {
	data, err := fsys.ReadFile(pyenv.Venv{Root: venv, GOOS: goos}.Config())
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		k, v, ok := strings.Cut(line, "=")
		if ok && strings.TrimSpace(strings.ToLower(k)) == "home" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
