package pyenv

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/runner"
)

// DiscoverOptions says where to look; zero fields take the real machine's.
type DiscoverOptions struct {
	Explicit string                       // --python
	GOOS     string                       // default runtime.GOOS
	Env      func(string) string          // default os.Getenv
	LookPath func(string) (string, error) // default exec.LookPath
	Registry RegistryReader               // PEP 514; nil means the OS default (real on Windows, none elsewhere)
	Run      runner.Runner                // default runner.New(io.Discard)
	Distro   *Distro                      // for the package that adds venv; nil: read /etc/os-release on Linux
}

type candidate struct{ path, source string }

// Discover lists the interpreters on PATH, from the py launcher, the PEP 514 registry, conda
// (conda env list, ~/.conda/environments.txt and the usual Anaconda/Miniconda folders) and
// --python, each described by running it; duplicates (by resolved path) are listed once, the
// first source winning. An explicit path that does not run is an error.
func Discover(ctx context.Context, o DiscoverOptions) ([]Interpreter, error) {
	o = o.withDefaults()
	var cands []candidate
	if o.Explicit != "" {
		cands = append(cands, candidate{o.Explicit, "flag"})
	}
	names := []string{"python3", "python"}
	if o.GOOS == "windows" {
		names = []string{"python", "python3"}
	} else {
		// An active venv (or pyenv) takes the plain names; the versioned ones find what else is installed.
		for minor := 14; minor >= 9; minor-- {
			names = append(names, fmt.Sprintf("python3.%d", minor))
		}
	}
	for _, n := range names {
		if p, err := o.LookPath(n); err == nil {
			cands = append(cands, candidate{p, "PATH"})
		}
	}
	if o.GOOS == "windows" {
		if py, err := o.LookPath("py"); err == nil {
			out, res := capture(ctx, o.Run, runner.Cmd{Name: i18n.T("pyenv.label.py_launcher_list"), Argv: []string{py, "-0p"}})
			if res.Err == nil {
				for _, e := range ParsePyLauncher(out) {
					cands = append(cands, candidate{e.Path, "py launcher"}) //i18n:raw the --json source value
				}
			}
		}
	}
	if o.Registry != nil {
		if entries, err := o.Registry.PythonEntries(); err == nil {
			for _, e := range entries {
				if exe := e.Executable(); exe != "" {
					cands = append(cands, candidate{exe, "registry"})
				}
			}
		}
	}
	if conda := condaCommand(o); conda != "" {
		out, res := capture(ctx, o.Run, runner.Cmd{Name: i18n.T("pyenv.label.conda_env_list"), Argv: []string{conda, "env", "list", "--json"}})
		if res.Err == nil {
			for _, p := range CondaPythons(out, o.GOOS) {
				cands = append(cands, candidate{p, "conda"})
			}
		}
	}
	for _, d := range CondaEnvDirs(o.GOOS, o.Env) {
		cands = append(cands, candidate{Venv{Root: d, GOOS: o.GOOS}.CondaPython(), "conda"})
	}

	var found []Interpreter
	seen := map[string]bool{}
	for i := 0; i < len(cands); i++ {
		c := cands[i]
		key := identity(c.path, o.GOOS)
		if seen[key] {
			continue
		}
		in, err := DescribeWith(ctx, o.Run, c.path, o.GOOS)
		in.Source = c.source
		if err != nil {
			if c.source == "flag" {
				return nil, err
			}
			if in.Kind != "store" {
				continue // a stale registry or conda entry
			}
		} else if k := identity(in.Path, o.GOOS); k != key {
			if seen[k] {
				seen[key] = true
				continue
			}
			seen[k] = true
		}
		seen[key] = true
		in.Warnings = append(in.Warnings, SupportWarnings(in, "", "")...)
		NoteVenvSupport(&in, *o.Distro)
		found = append(found, in)
		if in.Kind == "venv" && in.Base != "" {
			// A venv cannot make a venv; its base can.
			cands = append(cands, candidate{in.Base, "base of the venv " + in.Prefix}) //i18n:raw the --json source value, like PATH or registry
		}
	}
	if ctx.Err() != nil {
		return found, ctx.Err()
	}
	return found, nil
}

func (o DiscoverOptions) withDefaults() DiscoverOptions {
	if o.GOOS == "" {
		o.GOOS = goosRuntime
	}
	if o.Env == nil {
		o.Env = os.Getenv
	}
	if o.LookPath == nil {
		o.LookPath = exec.LookPath
	}
	if o.Registry == nil && o.GOOS == goosRuntime {
		o.Registry = defaultRegistry()
	}
	if o.Run == nil {
		o.Run = runner.New(io.Discard)
	}
	if o.Distro == nil {
		d := Distro{}
		if o.GOOS == "linux" {
			d = ReadDistro()
		}
		o.Distro = &d
	}
	return o
}

// condaCommand finds conda: CONDA_EXE (set by conda's shell hook) or conda on PATH.
func condaCommand(o DiscoverOptions) string {
	if exe := o.Env("CONDA_EXE"); exe != "" {
		return exe
	}
	if p, err := o.LookPath("conda"); err == nil {
		return p
	}
	return ""
}

// realPath is the dedupe key: symlinks resolved, case folded on Windows.
// identity is what makes two interpreter paths the same Python: the venv for a venv's interpreter
// (its python is a symlink to the base on Linux, yet it is not the base), else the resolved path.
func identity(p, goos string) string {
	if root := filepath.Dir(filepath.Dir(p)); fileExists(filepath.Join(root, "pyvenv.cfg")) {
		return "venv:" + realPath(root, goos)
	}
	return realPath(p, goos)
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

func realPath(p, goos string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	if goos == "windows" {
		return strings.ToLower(strings.ReplaceAll(p, "/", "\\"))
	}
	return filepath.Clean(p)
}

// LauncherEntry is one line of `py -0p`.
type LauncherEntry struct {
	Tag     string // "3.11-64" (old launcher) or "3.12" / "ContinuumAnalytics/Anaconda39-64" (3.12+)
	Path    string
	Default bool
}

// ParsePyLauncher reads `py -0p` output in both the old (" -3.11-64  C:\...\python.exe *") and
// the 3.12+ (" -V:3.12 *  C:\...\python.exe") formats.
func ParsePyLauncher(out string) []LauncherEntry {
	var entries []LauncherEntry
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(strings.TrimRight(line, "\r"))
		if !strings.HasPrefix(line, "-") {
			continue
		}
		tag, rest, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		e := LauncherEntry{Tag: strings.TrimPrefix(strings.TrimPrefix(tag, "-"), "V:")}
		rest = strings.TrimSpace(rest)
		if strings.HasPrefix(rest, "* ") {
			e.Default, rest = true, strings.TrimSpace(rest[2:])
		}
		if strings.HasSuffix(rest, " *") {
			e.Default, rest = true, strings.TrimSpace(strings.TrimSuffix(rest, " *"))
		}
		if rest == "" || strings.HasPrefix(strings.ToLower(rest), "installed") {
			continue
		}
		e.Path = rest
		entries = append(entries, e)
	}
	return entries
}

// CondaPythons reads `conda env list --json` and returns each environment's python.
func CondaPythons(out, goos string) []string {
	var doc struct {
		Envs []string `json:"envs"`
	}
	if err := json.Unmarshal([]byte(lastJSONObject(out)), &doc); err != nil {
		return nil
	}
	var ps []string
	for _, env := range doc.Envs {
		if goos == "windows" {
			ps = append(ps, strings.TrimRight(env, "\\/")+"\\python.exe")
		} else {
			ps = append(ps, strings.TrimRight(env, "/")+"/bin/python")
		}
	}
	return ps
}

// lastJSONObject drops anything conda prints before its JSON document.
func lastJSONObject(out string) string {
	if i := strings.Index(out, "{"); i >= 0 {
		return out[i:]
	}
	return out
}
