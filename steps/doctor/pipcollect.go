package doctor

import (
	"context"
	"regexp"
	"strings"
	"sync"

	"gpuwiz/steps/i18n"
	"gpuwiz/steps/pipconf"
	"gpuwiz/steps/runner"
)

// collectIndexSettings gathers every place that changes pip's index, in pip's own precedence order:
// pip's configuration as pip reads it for the interpreter whose sys.prefix is prefix (no pip start).
func collectIndexSettings(d Deps, prefix string) []IndexSetting {
	src := pipconf.Source{Prefix: prefix, Environ: d.Env.Environ(), GOOS: d.GOOS}
	if _, osfs := d.FS.(OSFS); !osfs {
		src.FS = d.FS
	}
	return mergeIndexSettings(indexSettingsOf(pipconf.Read(src)))
}

var pipVersionLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^pip (\S+) from (.+) \(python ([0-9.]+)\)\s*$`) })

// probePipOnPath finds the `pip` a user would type and asks it where it installs.
func probePipOnPath(ctx context.Context, d Deps) *PipOnPath {
	p := findOnPath(d.FS, d.GOOS, d.Env, "pip")
	if p == "" {
		return nil
	}
	//i18n:raw the step's name in the command log
	out, res := capture(ctx, d.Runner, runner.Cmd{Name: "pip on PATH", Argv: []string{p, "--version"}, Env: d.Env.Environ()})
	pp := &PipOnPath{Path: p}
	if !res.OK() {
		pp.Error = res.Err.Error()
		return pp
	}
	for _, line := range strings.Split(out, "\n") {
		if m := pipVersionLine().FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			pp.Location, pp.PythonVer = m[2], m[3]
			return pp
		}
	}
	pp.Error = i18n.T("doctor.pip_path.bad_version_output", i18n.D{"Output": strings.TrimSpace(out)})
	return pp
}

// collectPaths lists the paths whose characters matter on Windows.
func collectPaths(ctx context.Context, d Deps, python, venv string) []LabeledPath {
	ps := []LabeledPath{{"venv", venv}, {"python", python}, {"TEMP", getenv(d.Env, "TEMP")}, {"TMP", getenv(d.Env, "TMP")}}
	if c := getenv(d.Env, "PIP_CACHE_DIR"); c != "" {
		ps = append(ps, LabeledPath{"PIP_CACHE_DIR", c})
	} else if out, res := capture(ctx, d.Runner, runner.Cmd{Name: "pip cache dir", Argv: probePipArgv(ctx, d.Runner, python, d.Env.Environ(), "cache", "dir"), Env: d.Env.Environ()}); res.OK() { //i18n:raw the command, as the log names it
		ps = append(ps, LabeledPath{i18n.T("doctor.paths.pip_cache"), strings.TrimSpace(out)})
	}
	return ps
}
