package venvs

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"gpuwiz/steps/install"
	"gpuwiz/steps/pyenv"
)

// Found is one environment a user may mean, with where it was found and what it holds.
type Found struct {
	Path   string `json:"path"`
	Source string `json:"source"`          // SourceKnown, SourceActive, SourceHere, SourceConda, SourceNearby, SourceComfyDesktop
	Kind   string `json:"kind"`            // pyenv.EnvVenv, EnvConda, EnvEmbedded, EnvPrefix
	UV     string `json:"uv,omitempty"`    // a venv made by uv: its version
	Known  *Entry `json:"known,omitempty"` // gpuwiz's last run there, when it is on the list
	Holds  Holds  `json:"holds"`
	// State is the venv's state folder (.gpuwiz), nil when it has none; Interrupted is a run its
	// journal says did not finish (Look fills both in).
	State       *StateFolder         `json:"state,omitempty"`
	Interrupted *install.Interrupted `json:"interrupted,omitempty"`
}

// Where an environment was found.
const (
	SourceKnown  = "gpuwiz"      // on the list of venvs gpuwiz worked on
	SourceActive = "VIRTUAL_ENV" // the active venv
	SourceHere   = "here"        // ./venv or ./.venv
	SourceConda  = "conda"
)

// FindOptions are where Find looks; zero values mean this machine.
type FindOptions struct {
	Store    Store
	GOOS     string
	Env      func(string) string          // default os.Getenv
	Dir      string                       // the working directory, for ./venv and ./.venv (default os.Getwd)
	Home     string                       // for ~/anaconda3/envs and ~/miniconda3/envs (default os.UserHomeDir)
	LookPath func(string) (string, error) // default exec.LookPath
	// CondaEnvs lists conda's environments (`conda env list --json`); default runs conda when it is
	// on PATH (or CONDA_EXE), else looks in ~/anaconda3/envs and ~/miniconda3/envs.
	CondaEnvs func(ctx context.Context) []string
	// Nearby: also the environments in and around Dir and Exe's folder (Nearby) and ComfyUI
	// Desktop's under Home.
	Nearby bool
	Exe    string // gpuwiz's own executable (default os.Executable)
}

func (o FindOptions) withDefaults() FindOptions {
	if o.GOOS == "" {
		o.GOOS = runtime.GOOS
	}
	if o.Env == nil {
		o.Env = os.Getenv
	}
	if o.Dir == "" {
		o.Dir, _ = os.Getwd()
	}
	if o.Home == "" {
		o.Home, _ = os.UserHomeDir()
	}
	if o.LookPath == nil {
		o.LookPath = exec.LookPath
	}
	if o.CondaEnvs == nil {
		o.CondaEnvs = o.condaEnvs
	}
	if o.Exe == "" {
		o.Exe, _ = os.Executable()
	}
	return o
}

// Find lists, without duplicates: the venvs on the list (newest first; those that no longer exist are
// dropped from it), then $VIRTUAL_ENV, ./venv, ./.venv and the conda environments it can see.
// warning names what could not be read (a damaged list); the rest is still found.
func Find(ctx context.Context, o FindOptions) (found []Found, warning string) {
	o = o.withDefaults()
	seen := map[string]bool{}
	add := func(path, source string, known *Entry) {
		if path == "" {
			return
		}
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
		k := o.Store.key(path)
		if seen[k] {
			return
		}
		h := Read(path, o.GOOS)
		if !(pyenv.Venv{Root: path, GOOS: o.GOOS}).Exists() && !h.Conda {
			return
		}
		seen[k] = true
		l := pyenv.Venv{Root: path, GOOS: o.GOOS}.Layout()
		if h.Python == "" {
			h.Python = layoutPython(l)
		}
		// An unfinished run is named wherever the venv is offered (the wizard's venv screen too).
		found = append(found, Found{Path: path, Source: source, Kind: l.Kind, UV: l.UV, Known: known, Holds: h, Interrupted: install.FindInterrupted(path)})
	}
	if o.Store.Path != "" {
		list, w, err := o.Store.List(ctx)
		warning = w
		if err != nil {
			warning = err.Error()
		}
		for i := range list {
			add(list[i].Path, SourceKnown, &list[i])
		}
	}
	add(o.Env("VIRTUAL_ENV"), SourceActive, nil)
	for _, name := range []string{"venv", ".venv"} {
		add(filepath.Join(o.Dir, name), SourceHere, nil)
	}
	for _, env := range o.CondaEnvs(ctx) {
		add(env, SourceConda, nil)
	}
	if o.Nearby {
		add(ComfyDesktopVenv(o.Home), SourceComfyDesktop, nil)
		exeDir := ""
		if o.Exe != "" {
			exeDir = filepath.Dir(o.Exe)
		}
		for _, p := range Nearby(o.GOOS, o.Dir, exeDir) {
			add(p, SourceNearby, nil)
		}
	}
	return found, warning
}

// condaEnvs asks conda for its environments when it can be found, else looks in the usual folders.
func (o FindOptions) condaEnvs(ctx context.Context) []string {
	exe := o.Env("CONDA_EXE")
	if exe == "" {
		exe, _ = o.LookPath("conda")
	}
	if exe != "" {
		ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
		defer cancel()
		out, err := exec.CommandContext(ctx, exe, "env", "list", "--json").Output()
		if err == nil {
			if envs := CondaEnvList(string(out)); envs != nil {
				return envs
			}
		}
	}
	var envs []string
	for _, base := range []string{"anaconda3", "miniconda3"} {
		entries, err := os.ReadDir(filepath.Join(o.Home, base, "envs"))
		if err != nil {
			continue
		}
		for _, e := range entries {
			if e.IsDir() {
				envs = append(envs, filepath.Join(o.Home, base, "envs", e.Name()))
			}
		}
	}
	return envs
}

// CondaEnvList reads `conda env list --json` (anything conda prints before the document is skipped).
func CondaEnvList(out string) []string {
	i := strings.Index(out, "{")
	if i < 0 {
		return nil
	}
	var doc struct {
		Envs []string `json:"envs"`
	}
	if json.Unmarshal([]byte(out[i:]), &doc) != nil {
		return nil
	}
	return doc.Envs
}
