// Package pyenv finds Python interpreters, creates and locks venvs, and inspects what a venv holds.
package pyenv

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pep"
	"gpuwiz/steps/runner"
)

// Interpreter is one Python found on the machine.
type Interpreter struct {
	Path    string `json:"path"`
	Version string `json:"version"` // "3.11.7"
	Bits    int    `json:"bits"`
	Kind    string `json:"kind"`   // python.org, store, conda, pyenv, venv, system, unknown
	Source  string `json:"source"` // PATH, py launcher, registry, conda, flag
	Prefix  string `json:"prefix"`
	Base    string `json:"base,omitempty"` // a venv's base interpreter (the one that created it)
	// VenvMissing names the stdlib modules `python -m venv` needs that this Python lacks ("ensurepip"
	// on Debian and Ubuntu without python3.X-venv); always empty for a venv, which makes no venvs.
	VenvMissing  []string   `json:"venv_missing,omitempty"`
	VenvFix      *SystemFix `json:"venv_fix,omitempty"` // the distribution command that adds them
	debianLayout bool       // site-packages is named dist-packages: Debian's or Ubuntu's own patched Python
	Warnings     []string   `json:"warnings,omitempty"`
}

// MinorVersion returns "3.11" for "3.11.7".
func (in Interpreter) MinorVersion() string { return pep.Minor(in.Version) }

// describeScript prints facts about the running interpreter; it imports nothing heavy.
// In a venv, base is the interpreter that made it: sys._base_executable (3.11+ resolves it from
// pyvenv.cfg), else pyvenv.cfg's home joined with this executable's name.
// venv_missing lists venv and ensurepip when the stdlib lacks them (find_spec imports neither);
// dist_packages marks Debian's and Ubuntu's patched Python (site is imported already).
//
//i18n:raw a Python snippet
const describeScript = `import json, os, site, struct, sys
from importlib.util import find_spec
base = ""
if sys.prefix != getattr(sys, "base_prefix", sys.prefix):
    base = getattr(sys, "_base_executable", "") or ""
    if not base or os.path.normcase(base) == os.path.normcase(sys.executable):
        base = ""
        try:
            for line in open(os.path.join(sys.prefix, "pyvenv.cfg"), encoding="utf-8"):
                k, _, v = line.partition("=")
                if k.strip().lower() == "home":
                    cand = os.path.join(v.strip(), os.path.basename(sys.executable))
                    base = cand if os.path.exists(cand) else ""
        except OSError:
            pass
print(json.dumps({"version": "%d.%d.%d" % sys.version_info[:3], "bits": struct.calcsize("P") * 8,
 "executable": sys.executable, "prefix": sys.prefix, "base_prefix": getattr(sys, "base_prefix", sys.prefix),
 "base": base, "conda": os.path.isdir(os.path.join(sys.prefix, "conda-meta")),
 "venv_missing": [m for m in ("venv", "ensurepip") if find_spec(m) is None],
 "dist_packages": any(p.endswith("dist-packages") for p in getattr(site, "getsitepackages", lambda: [])())}))`

type description struct {
	Version    string `json:"version"`
	Bits       int    `json:"bits"`
	Executable string `json:"executable"`
	Prefix     string `json:"prefix"`
	BasePrefix string `json:"base_prefix"`
	Base       string `json:"base"`
	Conda      bool   `json:"conda"`
	// VenvMissing is only in Describe's document (Inspect's script does not print it).
	VenvMissing  []string `json:"venv_missing"`
	DistPackages bool     `json:"dist_packages"`
}

// Describe runs python to learn its version, bitness, prefix and kind.
func Describe(ctx context.Context, python string) (Interpreter, error) {
	return DescribeWith(ctx, runner.New(io.Discard), python, goosRuntime)
}

// DescribeWith is Describe through r, classifying paths by goos.
func DescribeWith(ctx context.Context, r runner.Runner, python, goos string) (Interpreter, error) {
	in := Interpreter{Path: python, Kind: "unknown"}
	out, res := capture(ctx, r, runner.Cmd{Name: i18n.T("pyenv.label.describe"), Argv: []string{python, "-I", "-c", describeScript}})
	if res.Err != nil {
		if isStoreAlias(python, goos) {
			in.Kind = "store"
			in.Warnings = append(in.Warnings, i18n.T("pyenv.store_alias.warning"))
			return in, errors.New(i18n.T("pyenv.store_alias.error", i18n.D{"Python": python}))
		}
		return in, i18n.Wrap(res.Err, i18n.T("pyenv.describe.failed", i18n.D{"Python": python, "Err": res.Err, "Tail": tailNote(res)}))
	}
	var d description
	if err := json.Unmarshal([]byte(lastJSONLine(out)), &d); err != nil {
		return in, i18n.Wrap(err, i18n.T("pyenv.describe.unreadable", i18n.D{"Python": python, "Err": err}))
	}
	in.Version, in.Bits, in.Prefix = d.Version, d.Bits, d.Prefix
	if d.Executable != "" {
		in.Path = d.Executable
	}
	in.Kind = classify(in.Path, d, goos)
	if in.Kind == "venv" {
		in.Base = d.Base
	} else {
		in.VenvMissing, in.debianLayout = d.VenvMissing, d.DistPackages
	}
	return in, nil
}

// capture runs c and returns its whole stdout (through Cmd.Stdout, so nothing is capped or dropped).
func capture(ctx context.Context, r runner.Runner, c runner.Cmd) (string, runner.Result) {
	var out bytes.Buffer
	c.Stdout = &out
	res := r.Run(ctx, c, nil)
	return out.String(), res
}

func lastJSONLine(out string) string {
	ls := strings.Split(strings.TrimSpace(out), "\n")
	for i := len(ls) - 1; i >= 0; i-- {
		if strings.HasPrefix(strings.TrimSpace(ls[i]), "{") {
			return ls[i]
		}
	}
	return ""
}

func tailNote(res runner.Result) string {
	if len(res.Tail) == 0 {
		return ""
	}
	return i18n.T("pyenv.tail", i18n.D{"Line": res.Tail[len(res.Tail)-1]})
}
